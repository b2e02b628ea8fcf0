//! A panic in `baton` writes a crash report (`baton::crash`: the log folder, the version and
//! commit, the subcommand only, where it panicked and the backtrace) and says where; output piped
//! into a reader that stopped ends quietly instead.

use baton::crash::{payload, write_report};

/// Installs the hook (once, at start).
pub fn install() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // Output piped into a reader that stopped (`| head`): not a bug; end quietly, as other
        // command-line tools do. Matched by the error number, not its (translated) text. SIGPIPE
        // stays ignored: a child's closed stdin must not kill Baton.
        if payload(info).contains(&format!("(os error {})", libc::EPIPE)) {
            std::process::exit(141);
        }
        match write_report(info, "baton", &command()) {
            Ok(path) => eprintln!(
                "baton crashed: this is a bug. A report (no keys, no conversation text) is at {}; please attach it to \
                 an issue",
                path.display()
            ),
            Err(e) => {
                eprintln!("baton crashed, and the crash report could not be written ({e}):");
                default(info);
            }
        }
    }));
}

/// The subcommand a report names: never the other arguments (paths, messages, model names).
fn command() -> String {
    let args: Vec<String> = std::env::args().skip(1).take(2).collect();
    match args.as_slice() {
        [group, sub, ..] if ["runs", "trace", "providers", "store", "refactor"].contains(&group.as_str()) => {
            format!("{group} {sub}")
        }
        [first, ..] if !first.starts_with('-') => first.clone(),
        _ => String::new(),
    }
}
