//! Crash reports, for the CLI and the desktop app alike: a panic writes a report to the log
//! folder (`$BATON_LOG_DIR`, else the XDG state folder's `baton/logs`): the program, version and
//! commit, the command (no other arguments), where it panicked and the backtrace. Never a key or a
//! message's text: the panic's own message is clipped and has keys redacted. The newest twenty
//! reports are kept. The log of what the app and the servers do is [`crate::log`]'s.

use std::path::PathBuf;

/// Where crash reports (and logs) go.
pub fn log_dir() -> PathBuf {
    match std::env::var_os("BATON_LOG_DIR").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => dirs::state_dir().or_else(dirs::data_dir).unwrap_or_else(std::env::temp_dir).join("baton/logs"),
    }
}

/// The release and the commit this build is from.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const COMMIT: &str = env!("BATON_COMMIT");

/// Writes the report of a panic in `program` (`baton`, `baton-app`) while it ran `command` (the
/// subcommand only, or nothing); returns where.
pub fn write_report(info: &std::panic::PanicHookInfo<'_>, program: &str, command: &str) -> std::io::Result<PathBuf> {
    let dir = log_dir();
    std::fs::create_dir_all(&dir)?;
    let now = std::time::SystemTime::now();
    let stamp = humantime::format_rfc3339_seconds(now).to_string().replace(':', "");
    let path = dir.join(format!("crash-{program}-{stamp}-{}.txt", std::process::id()));
    let message: String = crate::providers::redact::redact(&payload(info)).chars().take(200).collect();
    let report = format!(
        "{program} {VERSION} (commit {COMMIT})\ntime: {}\ncommand: {}\nos: {} {}\npanicked at: {}\nmessage (clipped, keys redacted): {}\n\nbacktrace:\n{}\n",
        humantime::format_rfc3339_seconds(now),
        format!("{program} {command}").trim_end(),
        std::env::consts::OS,
        std::env::consts::ARCH,
        info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default(),
        message,
        std::backtrace::Backtrace::force_capture()
    );
    std::fs::write(&path, report)?;
    forget_old_reports(&dir);
    Ok(path)
}

/// Crash reports kept in the log folder: the newest, the older ones deleted as new ones come.
pub const KEEP_REPORTS: usize = 20;

/// Deletes all but the newest [`KEEP_REPORTS`] crash reports (by their files' times).
fn forget_old_reports(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut reports: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("crash-"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    reports.sort();
    let old = reports.len().saturating_sub(KEEP_REPORTS);
    for (_, p) in reports.into_iter().take(old) {
        let _ = std::fs::remove_file(p);
    }
}

/// A panic's message, whatever its payload type.
pub fn payload(info: &std::panic::PanicHookInfo<'_>) -> String {
    info.payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// The desktop app's hook: a report, where it is said on stderr, then the default hook.
pub fn install_for_app() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        match write_report(info, "baton-app", "") {
            Ok(path) => eprintln!(
                "Baton crashed: this is a bug. A report (no keys, no conversation text) is at {}; please attach it to \
                 an issue",
                path.display()
            ),
            Err(e) => eprintln!("Baton crashed, and the crash report could not be written ({e})"),
        }
        default(info);
    }));
}
