//! The `baton` command line: a thin shell over the core's command layer (`baton::api`).

/// A faster allocator: the importer and the store writer allocate many small strings.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;

fn main() {
    std::process::exit(cli::main());
}
