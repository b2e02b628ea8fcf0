//! `about`: what Settings → About shows, so a bug report can say exactly what ran: the version
//! and commit, the store (a PostgreSQL password masked), where data and logs live, and how the
//! host draws (the desktop app's WebKit compositing, decided at start from the machine).

use super::{Api, FileAccess, NoArgs};
use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What this Baton is and where it keeps things.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct About {
    pub version: String,
    pub commit: String,
    /// The store's URL or file, a password in it masked.
    pub store: String,
    /// The app's data folder (the desktop app); none for `baton serve`.
    pub data_dir: Option<String>,
    /// Where crash reports go.
    pub log_dir: String,
    /// `linux x86_64`, …
    pub os: String,
    /// The desktop app's WebKit compositing: `on`, or `off` with why; none where a browser draws.
    pub compositing: Option<String>,
}

/// A store URL with any password masked: `postgres://user:secret@host/db` →
/// `postgres://user:****@host/db`, and a `password=` query parameter (which libpq and sqlx also
/// read) → `password=****`.
pub fn mask_password(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some(scheme_end) = out.find("://").map(|i| i + 3) {
        let end = out[scheme_end..].find(['/', '?']).map_or(out.len(), |i| scheme_end + i);
        if let Some(at) = out[scheme_end..end].rfind('@').map(|i| scheme_end + i)
            && let Some(colon) = out[scheme_end..at].find(':').map(|i| scheme_end + i)
        {
            out.replace_range(colon + 1..at, "****");
        }
    }
    if let Some(q) = out.find('?') {
        let masked: Vec<String> = out[q + 1..]
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=****"),
                _ => kv.to_owned(),
            })
            .collect();
        out = format!("{}?{}", &out[..q], masked.join("&"));
    }
    out
}

/// The environment variable the app sets (or the user set) to turn WebKit's compositing off.
pub const COMPOSITING_VAR: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
/// Why the app turned it off, set beside it at start.
pub const COMPOSITING_WHY_VAR: &str = "BATON_COMPOSITING_WHY";

impl Api {
    pub async fn about(self: &Arc<Self>, _: NoArgs) -> Result<About, ApiError> {
        let data_dir = match &self.files {
            FileAccess::Chosen { data_dir, .. } => data_dir.as_ref().map(|d| d.display().to_string()),
            _ => None,
        };
        let compositing = data_dir.as_ref().map(|_| match std::env::var(COMPOSITING_VAR) {
            Ok(v) if v != "0" && !v.is_empty() => match std::env::var(COMPOSITING_WHY_VAR) {
                Ok(why) if !why.is_empty() => format!("off ({why})"),
                _ => format!("off ({COMPOSITING_VAR} is set)"),
            },
            _ => "on".to_owned(),
        });
        Ok(About {
            version: crate::crash::VERSION.into(),
            commit: crate::crash::COMMIT.into(),
            store: mask_password(&self.store_url),
            data_dir,
            log_dir: crate::crash::log_dir().display().to_string(),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            compositing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::mask_password;

    #[test]
    fn a_password_in_the_store_url_is_masked() {
        assert_eq!(
            mask_password("postgres://baton:s3cr:et@db.local:5432/runs"),
            "postgres://baton:****@db.local:5432/runs"
        );
        assert_eq!(mask_password("postgres://baton@db.local/runs"), "postgres://baton@db.local/runs");
        assert_eq!(
            mask_password("sqlite:///home/me/.local/share/baton/runs.db"),
            "sqlite:///home/me/.local/share/baton/runs.db"
        );
        assert_eq!(mask_password("/tmp/runs.db"), "/tmp/runs.db");
        assert_eq!(
            mask_password("postgres://db.local/runs?user=baton&password=s3cret&sslmode=require"),
            "postgres://db.local/runs?user=baton&password=****&sslmode=require"
        );
        // an @ in the path or query is not a user's
        assert_eq!(
            mask_password("postgres://db.local/runs?application_name=a:b@c"),
            "postgres://db.local/runs?application_name=a:b@c"
        );
    }
}
