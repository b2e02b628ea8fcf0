//! What keeps a local server Baton's own: it answers only requests addressed to the address it
//! serves (`Host`, against DNS rebinding), never a foreign page (`Origin`), and, for the command
//! layer, only callers holding the per-launch token. A web page the user visits can reach
//! 127.0.0.1, but it cannot pass these checks.

use crate::error::{ApiError, ErrorCode};
use axum::http::{HeaderMap, header};
use std::net::SocketAddr;

/// The addresses a server answers to.
#[derive(Debug, Clone)]
pub struct Guard {
    /// `Host` values accepted (`127.0.0.1:4790`, `localhost:4790`, …).
    hosts: Vec<String>,
    /// `Origin` values accepted (`http://127.0.0.1:4790`, …).
    origins: Vec<String>,
}

impl Guard {
    /// A guard for a server bound to `addr`. A loopback server answers to its IP and to
    /// `localhost`; a server bound elsewhere (an explicit choice) also to `extra_hosts`.
    pub fn for_addr(addr: SocketAddr, extra_hosts: &[String]) -> Guard {
        let port = addr.port();
        let mut names: Vec<String> = vec![match addr {
            SocketAddr::V4(a) => a.ip().to_string(),
            SocketAddr::V6(a) => format!("[{}]", a.ip()),
        }];
        if addr.ip().is_loopback() {
            names.extend(["localhost".to_string(), "127.0.0.1".to_string(), "[::1]".to_string()]);
        }
        names.extend(extra_hosts.iter().cloned());
        names.sort();
        names.dedup();
        let hosts = names.iter().map(|n| format!("{n}:{port}")).collect();
        let origins = names.iter().map(|n| format!("http://{n}:{port}")).collect();
        Guard { hosts, origins }
    }

    /// Refuses a request whose `Host` is not ours or whose `Origin` is foreign.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
        if !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Err(ApiError::new(
                ErrorCode::ApiForbidden,
                format!(
                    "refused: the request is addressed to '{host}', not to this server ({}); open the address Baton printed",
                    self.hosts.first().map(String::as_str).unwrap_or("")
                ),
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !self.origins.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
                return Err(ApiError::new(
                    ErrorCode::ApiForbidden,
                    format!("refused: a page from '{origin}' may not call Baton; only Baton's own page may"),
                ));
            }
        }
        Ok(())
    }
}

/// A per-launch secret, as Jupyter prints in its URL.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    pub fn random() -> Token {
        let mut bytes = [0u8; 24];
        getrandom::fill(&mut bytes).expect("the OS gives random bytes");
        Token(hex::encode(bytes))
    }

    /// A token chosen by the caller (tests that restart a server on the same page).
    pub fn fixed(token: String) -> Token {
        Token(token)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Accepts `Authorization: Bearer <token>` (what the UI sends).
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.strip_prefix("Bearer "))
            .unwrap_or("");
        if constant_time_eq::constant_time_eq(given.as_bytes(), self.0.as_bytes()) {
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::ApiForbidden,
                "refused: the request lacks this launch's token; open the URL `baton serve` printed (it carries ?token=…)",
            ))
        }
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}
