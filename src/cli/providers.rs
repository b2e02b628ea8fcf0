//! `baton providers check | set-key | delete-key`: which providers are configured and
//! reachable; keys into and out of the OS keyring.

use super::Outcome;
use super::args::{OutFormat, runtime};
use baton::api::{ApiError, ErrorCode};
use baton::providers::{check_all, keys};
use baton::topology::Provider;

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Say which providers are configured and reachable.
    Check {
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
    },
    /// Store a provider's API key in the OS keyring (read from standard input).
    SetKey {
        #[arg(value_enum)]
        provider: Provider,
    },
    /// Remove a provider's API key from the OS keyring.
    DeleteKey {
        #[arg(value_enum)]
        provider: Provider,
    },
}

pub fn run(c: Cmd) -> Outcome {
    match c {
        Cmd::Check { format } => {
            let all = runtime()?.block_on(check_all());
            match format {
                OutFormat::Json => println!("{}", serde_json::to_string(&all).expect("serializes")),
                OutFormat::Text => {
                    for s in &all {
                        let mark = if s.reachable { "ok " } else { "-- " };
                        println!(
                            "{mark} {:<18} key: {:<22} {}",
                            s.provider,
                            s.key.as_deref().unwrap_or("none"),
                            s.detail
                        );
                    }
                }
            }
            Ok(0)
        }
        Cmd::SetKey { provider } => {
            let key = read_key(std::io::stdin().lock())?;
            if key.trim().is_empty() {
                return Err(ApiError::new(ErrorCode::ProvidersKey, "no key on standard input"));
            }
            keys::store_key(provider, &key)?;
            println!("stored the {} key in the OS keyring", provider.as_str());
            Ok(0)
        }
        Cmd::DeleteKey { provider } => {
            keys::delete_key(provider)?;
            println!("removed the {} key from the OS keyring", provider.as_str());
            Ok(0)
        }
    }
}

/// The longest key accepted on standard input (real keys are under 300 bytes).
const MAX_KEY: u64 = 16 << 10;

/// The first line of `input`, read without ever holding more than [`MAX_KEY`] bytes.
fn read_key(input: impl std::io::BufRead) -> Result<String, ApiError> {
    use std::io::BufRead;
    let mut line = Vec::new();
    input
        .take(MAX_KEY + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| ApiError::new(ErrorCode::ProvidersKey, format!("cannot read the key from standard input: {e}")))?;
    if line.len() as u64 > MAX_KEY {
        return Err(ApiError::new(
            ErrorCode::ProvidersKey,
            format!(
                "standard input holds more than {MAX_KEY} bytes before its first line break; give the key alone, on one line"
            ),
        ));
    }
    String::from_utf8(line)
        .map_err(|_| ApiError::new(ErrorCode::ProvidersKey, "the key on standard input is not UTF-8 text"))
}
