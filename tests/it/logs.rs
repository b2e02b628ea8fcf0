//! The log file (issue #34): `baton serve` logs each command's name, time and error code at the
//! level `BATON_LOG` sets, one file a day in `BATON_LOG_DIR`, the newest seven kept; never a key,
//! an argument or a message's text.

use crate::common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn serve_logs_commands_without_their_content_and_keeps_a_week_of_files() {
    let logs = tempfile::tempdir().unwrap();
    // Nine older daily files, as tracing-appender names them (prefix.YYYY-MM-DD.log).
    for day in 1..=9 {
        std::fs::write(logs.path().join(format!("baton-serve.2026-11-0{day}.log")), "old\n").unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("index.html"), "<!doctype html>").unwrap();
    let key = "sk-canary-log-0123456789abcdef";
    let secret_text = "a message only the user wrote 7f3a";
    let mut child = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["serve", "--port", "0", "--root"])
        .arg(root().join("examples"))
        .arg("--ui")
        .arg(work.path())
        .arg("--db")
        .arg(work.path().join("store.db"))
        .env("BATON_LOG_DIR", logs.path())
        .env("BATON_LOG", "info,baton=debug")
        .env("BATON_SERVE_TOKEN", "token-for-the-log-test")
        .env("OPENAI_API_KEY", key)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let base = first.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_owned();
    let call = |cmd: &str, body: serde_json::Value| {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            reqwest::Client::new()
                .post(format!("http://{base}/api/{cmd}"))
                .bearer_auth("token-for-the-log-test")
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        })
    };
    assert_eq!(call("list_runs", serde_json::json!({})), 200);
    // A failing command: its code is logged, not its arguments.
    assert_ne!(call("open_topology", serde_json::json!({"path": format!("/nowhere/{secret_text}.yaml")})), 200);
    std::thread::sleep(Duration::from_millis(500));
    let _ = child.kill();
    let _ = child.wait();

    let mut files: Vec<String> = std::fs::read_dir(logs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "a week of files kept: {files:?}");
    let today = humantime::format_rfc3339(std::time::SystemTime::now()).to_string()[..10].to_owned();
    let name = format!("baton-serve.{today}.log");
    assert!(files.contains(&name), "{files:?}");
    let log = std::fs::read_to_string(logs.path().join(&name)).unwrap();
    assert!(log.contains("baton-serve started"), "{log}");
    assert!(log.contains("store opened"), "{log}");
    assert!(log.lines().any(|l| l.contains("command=\"list_runs\"") && l.contains(" ok")), "{log}");
    assert!(log.lines().any(|l| l.contains("command=\"open_topology\"") && l.contains("code=")), "{log}");
    assert!(!log.contains(key) && !log.contains(secret_text), "{log}");
}
