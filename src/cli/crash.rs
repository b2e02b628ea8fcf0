//! A panic in `baton` writes a crash report to the log folder (`$BATON_LOG_DIR`, else the XDG
//! state folder's `baton/logs`) and says where: the version and commit, the subcommand, where it
//! panicked and the backtrace. Never the command's other arguments or a message's text: the
//! panic's own message is clipped and has keys redacted.

use std::path::PathBuf;

/// Where crash reports go.
pub fn log_dir() -> PathBuf {
    match std::env::var_os("BATON_LOG_DIR").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => dirs::state_dir().or_else(dirs::data_dir).unwrap_or_else(std::env::temp_dir).join("baton/logs"),
    }
}

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
        match write_report(info) {
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

fn write_report(info: &std::panic::PanicHookInfo<'_>) -> std::io::Result<PathBuf> {
    let dir = log_dir();
    std::fs::create_dir_all(&dir)?;
    let now = std::time::SystemTime::now();
    let stamp = humantime::format_rfc3339_seconds(now).to_string().replace(':', "");
    let path = dir.join(format!("crash-{stamp}-{}.txt", std::process::id()));
    let message: String = baton::providers::redact::redact(&payload(info)).chars().take(200).collect();
    // Only the subcommand: the arguments may hold paths, messages or model names.
    let args: Vec<String> = std::env::args().skip(1).take(2).collect();
    let command = match args.as_slice() {
        [group, sub, ..] if ["runs", "trace", "providers", "store", "refactor"].contains(&group.as_str()) => {
            vec![group.clone(), sub.clone()]
        }
        [first, ..] if !first.starts_with('-') => vec![first.clone()],
        _ => vec![],
    };
    let report = format!(
        "baton {} (commit {})\ntime: {}\ncommand: baton {}\nos: {} {}\npanicked at: {}\nmessage (clipped, keys redacted): {}\n\nbacktrace:\n{}\n",
        env!("CARGO_PKG_VERSION"),
        env!("BATON_COMMIT"),
        humantime::format_rfc3339_seconds(now),
        command.join(" "),
        std::env::consts::OS,
        std::env::consts::ARCH,
        info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default(),
        message,
        std::backtrace::Backtrace::force_capture()
    );
    std::fs::write(&path, report)?;
    Ok(path)
}

fn payload(info: &std::panic::PanicHookInfo<'_>) -> String {
    info.payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_default()
}
