//! Keys never leave: whatever a provider sends back (an error body that echoes the key, a
//! response that repeats it) passes through [`redact`] before it is printed, stored or
//! exported. It removes every configured key's value and anything shaped like a provider key
//! (`sk-…`, `sk-ant-…`, `AIza…`).

use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

/// What replaces a key.
pub const REDACTED: &str = "[redacted]";

fn known() -> &'static Mutex<Vec<String>> {
    static KEYS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    KEYS.get_or_init(|| Mutex::new(vec![]))
}

/// Remembers a key's value so that it is redacted wherever it appears (called when a key is
/// read from the environment or the keyring, or stored).
pub fn remember(key: &str) {
    let key = key.trim();
    // Short values would redact ordinary words; real keys are long.
    if key.len() < 8 {
        return;
    }
    let mut keys = known().lock().expect("keys lock");
    if !keys.iter().any(|k| k == key) {
        keys.push(key.to_owned());
    }
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// Spans of `text` that look like provider keys.
fn shaped(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !is_key_char(b[i - 1]);
        let prefix = if !starts_word {
            0
        } else if b[i..].starts_with(b"sk-") {
            3
        } else if b[i..].starts_with(b"AIza") {
            4
        } else {
            0
        };
        if prefix > 0 {
            let mut j = i + prefix;
            while j < b.len() && is_key_char(b[j]) {
                j += 1;
            }
            if j - i >= 20 {
                out.push((i, j));
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `text` without any known key or key-shaped token.
pub fn redact(text: &str) -> Cow<'_, str> {
    let keys = known().lock().expect("keys lock");
    let mut out: Cow<'_, str> = Cow::Borrowed(text);
    for k in keys.iter() {
        if out.contains(k.as_str()) {
            out = Cow::Owned(out.replace(k.as_str(), REDACTED));
        }
    }
    drop(keys);
    let spans = shaped(&out);
    if spans.is_empty() {
        return out;
    }
    let mut s = String::with_capacity(out.len());
    let mut last = 0;
    for (a, b) in spans {
        s.push_str(&out[last..a]);
        s.push_str(REDACTED);
        last = b;
    }
    s.push_str(&out[last..]);
    Cow::Owned(s)
}

/// Redacts every string inside a JSON value (a recorded exchange).
pub fn redact_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            if let Cow::Owned(r) = redact(s) {
                *s = r;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(redact_json),
        serde_json::Value::Object(m) => m.values_mut().for_each(redact_json),
        _ => {}
    }
}

/// A provider's answer without any key it may echo: its messages, reasoning, tool-call
/// arguments and the recorded exchange.
pub fn response(mut r: super::ModelResponse) -> super::ModelResponse {
    for o in &mut r.output {
        match o {
            super::OutputItem::Reasoning(t) | super::OutputItem::Message(t) => *t = redact(t).into_owned(),
            super::OutputItem::Call { arguments, .. } => *arguments = redact(arguments).into_owned(),
        }
    }
    if let Some(x) = r.exchange.as_mut() {
        redact_json(x);
    }
    r
}

/// A model error without any key its message quotes.
pub fn error(e: super::ModelError) -> super::ModelError {
    use super::ModelError as E;
    let clean = |s: String| redact(&s).into_owned();
    match e {
        E::Script(m) => E::Script(clean(m)),
        E::Http { provider, status, message } => E::Http { provider, status, message: clean(message) },
        E::Transport { provider, message } => E::Transport { provider, message: clean(message) },
        E::Protocol { provider, message } => E::Protocol { provider, message: clean(message) },
        E::Config(m) => E::Config(clean(m)),
        E::Cancelled => E::Cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_shaped_keys_are_removed() {
        remember("canary-key-0123456789");
        let t = "bad key canary-key-0123456789, also sk-proj-abcdefghijklmnopqrstuvwx and AIzaSyA1234567890abcdefgh; ask-me-anything stays";
        let r = redact(t);
        assert!(!r.contains("canary-key-0123456789") && !r.contains("sk-proj-") && !r.contains("AIzaSy"), "{r}");
        assert!(r.contains("ask-me-anything"), "{r}");
        assert_eq!(redact("nothing here"), "nothing here");
    }
}
