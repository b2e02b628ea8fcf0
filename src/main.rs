//! The `baton` command line: a thin shell over the core's command layer (`baton::api`).

mod cli;

fn main() {
    std::process::exit(cli::main());
}
