//! Reading and writing topology files (YAML and JSON, one model), with errors that say where
//! the problem is and how to fix it, and writes that never leave a half-written file.

mod comments;
mod schema;

pub use schema::topology_schema;

use crate::topology::{FORMAT_VERSION, Topology};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// File formats for topologies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

impl Format {
    /// By extension: `.json` is JSON, everything else YAML (a superset of JSON anyway).
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()) {
            Some(e) if e == "json" => Format::Json,
            _ => Format::Yaml,
        }
    }
}

/// Everything that can go wrong reading or writing a topology file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read the file: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path}: cannot write the file: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        /// Dotted path of the offending field, empty for syntax errors.
        field: String,
        message: String,
    },
    #[error(
        "{path}: format version {found} is not supported; this Baton reads version {FORMAT_VERSION}. \
         Upgrade Baton, or set `version: {FORMAT_VERSION}`"
    )]
    Version { path: String, found: u64 },
    #[error(
        "{path}:{line}: brackets nest {depth} levels deep; a topology needs far fewer (Baton reads up to {MAX_NESTING}). Is this the right file?"
    )]
    TooDeep { path: String, line: usize, depth: usize },
    #[error("{0}")]
    Serialize(String),
    #[error("cannot export: {0}")]
    Unexportable(String),
}

impl crate::error::Coded for ConfigError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            ConfigError::Read { .. } => C::ConfigRead,
            ConfigError::Write { .. } => C::ConfigWrite,
            ConfigError::Parse { field, .. } if field.is_empty() => C::ConfigSyntax,
            ConfigError::Parse { .. } => C::ConfigType,
            ConfigError::Version { .. } => C::ConfigVersion,
            ConfigError::TooDeep { .. } => C::ConfigTooLarge,
            ConfigError::Serialize(_) => C::ConfigSerialize,
            ConfigError::Unexportable(_) => C::ExportUnsupported,
        }
    }
}

/// Reads and parses a topology file. References between parts are not checked here; call
/// [`Topology::validate`] (or lint) for that.
pub fn load(path: &Path) -> Result<Topology, ConfigError> {
    let text = read_regular(path, MAX_TOPOLOGY_BYTES)
        .map_err(|source| ConfigError::Read { path: path.display().to_string(), source })?;
    parse(&text, Format::from_path(path), &path.display().to_string())
}

/// The largest topology file Baton reads (a 100,000-agent topology is about 15 MB).
pub const MAX_TOPOLOGY_BYTES: u64 = 64 << 20;

/// How deeply brackets may nest in a topology's text: a topology needs about eight levels;
/// deeper input is refused before a parser sees it (a YAML parser takes quadratic time on
/// `[[[[…`).
pub const MAX_NESTING: usize = 64;

/// Reads a regular file of at most `max` bytes. A FIFO, a device or a directory is refused
/// without opening it (opening a FIFO would block until a writer appears).
pub fn read_regular(path: &Path, max: u64) -> Result<String, std::io::Error> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file (a directory, a FIFO or a device); name a file"));
    }
    let too_large = |n: u64| {
        std::io::Error::other(format!(
            "the file is {} bytes or more; Baton reads files like this of up to {} bytes",
            n, max
        ))
    };
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    // Never more than `max` bytes, even when the file grows while it is read.
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?.take(max + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(too_large(max + 1));
    }
    Ok(text)
}

/// The deepest nesting of `[`/`{` in `text`, outside quoted strings (a cheap, linear scan).
fn nesting_depth(text: &str) -> (usize, usize) {
    let (mut depth, mut max, mut line, mut at) = (0usize, 0usize, 1usize, 1usize);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '{' => {
                    depth += 1;
                    if depth > max {
                        max = depth;
                        at = line;
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    (max, at)
}

/// Parses topology text. `origin` names the source in errors (a path, or `<input>`).
pub fn parse(text: &str, format: Format, origin: &str) -> Result<Topology, ConfigError> {
    // Editors on Windows save a UTF-8 byte-order mark; it is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (depth, line) = nesting_depth(text);
    if depth > MAX_NESTING {
        return Err(ConfigError::TooDeep { path: origin.into(), line, depth });
    }
    let parsed = match format {
        Format::Json => parse_json(text, origin),
        Format::Yaml => parse_yaml(text, origin),
    };
    let version = peek_version(text, format);
    match (parsed, version) {
        (_, Some(v)) if v != u64::from(FORMAT_VERSION) => Err(ConfigError::Version { path: origin.into(), found: v }),
        (Ok(mut t), _) => {
            t.normalize();
            Ok(t)
        }
        (Err(e), _) => Err(e),
    }
}

fn peek_version(text: &str, format: Format) -> Option<u64> {
    #[derive(Deserialize)]
    struct Peek {
        version: Option<u64>,
    }
    match format {
        Format::Json => serde_json::from_str::<Peek>(text).ok()?.version,
        Format::Yaml => serde_norway::from_str::<Peek>(text).ok()?.version,
    }
}

fn field_path(p: &serde_path_to_error::Path) -> String {
    let s = p.to_string();
    if s == "." { String::new() } else { s }
}

fn parse_json(text: &str, origin: &str) -> Result<Topology, ConfigError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let r: Result<Topology, _> = serde_path_to_error::deserialize(&mut de);
    let t = r.map_err(|e| {
        let field = field_path(e.path());
        let inner = e.into_inner();
        let syntax = !matches!(inner.classify(), serde_json::error::Category::Data);
        ConfigError::Parse {
            path: origin.into(),
            line: inner.line(),
            column: inner.column(),
            field: if syntax { String::new() } else { field.clone() },
            message: describe(&field, syntax, &inner.to_string()),
        }
    })?;
    de.end().map_err(|e| ConfigError::Parse {
        path: origin.into(),
        line: e.line(),
        column: e.column(),
        field: String::new(),
        message: format!("unexpected text after the topology: {e}"),
    })?;
    Ok(t)
}

/// Where `key` appears the second time as a mapping key at or after `from` (1-based line, column).
fn repeated_key(text: &str, key: &str, from: usize) -> Option<(usize, usize)> {
    let mut seen: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (i, l) in text.lines().enumerate().skip_while(|(i, _)| i + 1 < from) {
        let body = l.trim_start().trim_start_matches("- ");
        let indent = l.len() - body.len();
        if body.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with(':')) {
            let n = seen.entry(indent).or_default();
            *n += 1;
            if *n == 2 {
                return Some((i + 1, indent + 1));
            }
        }
    }
    None
}

fn parse_yaml(text: &str, origin: &str) -> Result<Topology, ConfigError> {
    // A first pass finds syntax errors (no field involved); the typed pass then names fields.
    if let Err(e) = serde_norway::from_str::<serde_norway::Value>(text) {
        let (mut line, mut column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((0, 0));
        // The parser places a duplicate key at the start of its mapping; point at the repeat.
        let message = e.to_string();
        let key = message.split("duplicate entry with key \"").nth(1).and_then(|r| r.split('"').next());
        if let Some((l, c)) = key.and_then(|k| repeated_key(text, k, line)) {
            (line, column) = (l, c);
        }
        return Err(ConfigError::Parse {
            path: origin.into(),
            line,
            column,
            field: String::new(),
            message: describe("", true, &e.to_string()),
        });
    }
    let de = serde_norway::Deserializer::from_str(text);
    let r: Result<Topology, _> = serde_path_to_error::deserialize(de);
    r.map_err(|e| {
        let field = field_path(e.path());
        let inner = e.into_inner();
        let (line, column) = inner.location().map(|l| (l.line(), l.column())).unwrap_or((0, 0));
        ConfigError::Parse {
            path: origin.into(),
            line,
            column,
            field: field.clone(),
            message: describe(&field, false, &inner.to_string()),
        }
    })
}

fn describe(field: &str, syntax: bool, raw: &str) -> String {
    // Both parsers append "at line L column C"; we print the position up front instead.
    let raw = raw.split(" at line ").next().unwrap_or(raw).trim();
    // serde_norway names the path itself (`agents[0].model: invalid type`); say it once.
    let raw = raw.strip_prefix(field).and_then(|r| r.strip_prefix(": ")).unwrap_or(raw);
    let parent = field.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
    let raw = (!parent.is_empty())
        .then(|| raw.strip_prefix(parent).and_then(|r| r.strip_prefix(": ")))
        .flatten()
        .unwrap_or(raw);
    if syntax {
        format!("syntax error: {raw}")
    } else if field.is_empty() {
        format!("{raw} (see the JSON Schema: `baton schema`)")
    } else {
        format!("in `{field}`: {raw} (see the JSON Schema: `baton schema`)")
    }
}

/// Serializes a topology in the given format.
pub fn to_string(t: &Topology, format: Format) -> Result<String, ConfigError> {
    match format {
        Format::Json => {
            serde_json::to_string_pretty(t).map(|s| s + "\n").map_err(|e| ConfigError::Serialize(e.to_string()))
        }
        Format::Yaml => serde_norway::to_string(t).map_err(|e| ConfigError::Serialize(e.to_string())),
    }
}

/// Writes a topology atomically: a temporary file beside the target, then a rename, so a crash
/// never leaves a half-written file.
pub fn save(t: &Topology, path: &Path) -> Result<(), ConfigError> {
    let format = Format::from_path(path);
    let mut text = to_string(t, format)?;
    if format == Format::Yaml {
        // A YAML file's comments are kept: each goes back above (or beside) the key it described.
        if let Ok(old) = read_regular(path, MAX_TOPOLOGY_BYTES) {
            text = comments::carry(&old, &text).unwrap_or_else(|| header_comments(&old) + &text);
        }
    }
    write_atomic(path, text.as_bytes())
}

/// The comment block at the top of a file: what is kept when the old file cannot be read as YAML.
fn header_comments(old: &str) -> String {
    old.lines()
        .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        .filter(|l| l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// 0666 less the process's umask, as `open(2)` would give a new file.
fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    let mask = process_umask();
    std::fs::Permissions::from_mode(0o666 & !mask)
}

/// The umask, read from /proc/self/status (Linux) rather than set-and-restored with umask(2).
fn process_umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Umask:").map(|v| v.trim().to_owned())))
        .and_then(|v| u32::from_str_radix(&v, 8).ok())
        .unwrap_or(0o022)
}

/// Atomic file write used by every command that writes a user's file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ConfigError> {
    use std::io::Write;
    let err = |source| ConfigError::Write { path: path.display().to_string(), source };
    let dir: PathBuf = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(&dir).map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    // The temporary file is created 0600; the saved file keeps the mode it had, and a new
    // file gets the mode the user's umask gives new files.
    let mode = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => default_permissions(),
    };
    tmp.as_file().set_permissions(mode).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}
