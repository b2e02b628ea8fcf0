//! `baton providers check | set-key | delete-key`: which providers are configured and
//! reachable; keys into and out of the OS keyring.

use super::Failure;
use super::store_cmds::runtime;
use super::topology_cmds::OutFormat;
use baton::providers::{check_all, keys};
use baton::topology::Provider;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum ProvidersCmd {
    /// Say which providers are configured and reachable.
    Check {
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
    },
    /// Store a provider's API key in the OS keyring (read from standard input).
    SetKey { provider: String },
    /// Remove a provider's API key from the OS keyring.
    DeleteKey { provider: String },
}

fn provider(name: &str) -> Result<Provider, Failure> {
    serde_json::from_value(serde_json::Value::String(name.into())).map_err(|_| {
        Failure::input(format!(
            "unknown provider '{name}'; use openai, openai-responses, anthropic, gemini or openai-compatible"
        ))
    })
}

pub fn providers(c: ProvidersCmd) -> Result<i32, Failure> {
    match c {
        ProvidersCmd::Check { format } => {
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
        ProvidersCmd::SetKey { provider: name } => {
            let p = provider(&name)?;
            let mut key = String::new();
            std::io::stdin().read_line(&mut key).map_err(Failure::input)?;
            if key.trim().is_empty() {
                return Err(Failure::input("no key on standard input"));
            }
            keys::store_key(p, &key).map_err(Failure::input)?;
            println!("stored the {} key in the OS keyring", p.as_str());
            Ok(0)
        }
        ProvidersCmd::DeleteKey { provider: name } => {
            keys::delete_key(provider(&name)?).map_err(Failure::input)?;
            println!("removed the {name} key from the OS keyring");
            Ok(0)
        }
    }
}
