//! The log file of the app, `baton serve` and `baton collect`: what they did (each command's name,
//! how long it took and its error code; the store opened; runs captured), never a key, a
//! command's arguments or a message's text. One file a day in the log folder
//! ([`crate::crash::log_dir`]), the newest [`KEEP_FILES`] kept. The level comes from `$BATON_LOG`,
//! in `RUST_LOG`'s syntax (`debug`, `info`, `warn`, `error`, `off`, or per target:
//! `baton=debug,sqlx=warn`); other CLI commands write no log unless it is set.

use tracing_subscriber::EnvFilter;

/// The variable that sets the level.
pub const ENV: &str = "BATON_LOG";
/// Daily files kept (a week).
pub const KEEP_FILES: usize = 7;
/// What is logged when `$BATON_LOG` is not set (SQL statements stay out).
pub const DEFAULT: &str = "info,sqlx=warn";

/// Keeps the log writer's thread; dropping it flushes what is buffered.
pub struct Guard(#[allow(dead_code)] Option<tracing_appender::non_blocking::WorkerGuard>);

/// Starts the log of `program` (`baton-app`, `baton-serve`, `baton-collect`, `baton`) at `default`
/// unless `$BATON_LOG` says otherwise; with `default` None, only when it is set. A log that cannot
/// be written (an unwritable folder) is said once on stderr and the program goes on without it.
pub fn init(program: &str, default: Option<&str>) -> Guard {
    let level = match std::env::var(ENV).ok().filter(|v| !v.trim().is_empty()) {
        Some(v) => v,
        None => match default {
            Some(d) => d.to_owned(),
            None => return Guard(None),
        },
    };
    let filter = match EnvFilter::try_new(&level) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("warning: {ENV}={level} is not a log level ({e}); logging at {DEFAULT}");
            EnvFilter::new(DEFAULT)
        }
    };
    let dir = crate::crash::log_dir();
    let appender = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix(program)
        .filename_suffix("log")
        .max_log_files(KEEP_FILES)
        .build(&dir);
    let appender = match appender {
        Ok(a) => a,
        Err(e) => {
            eprintln!("warning: no log: cannot write in {}: {e} (set BATON_LOG_DIR to another folder)", dir.display());
            return Guard(None);
        }
    };
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .with_target(true)
        .try_init();
    if installed.is_err() {
        return Guard(None);
    }
    tracing::info!(version = crate::crash::VERSION, commit = crate::crash::COMMIT, "{program} started");
    Guard(Some(guard))
}
