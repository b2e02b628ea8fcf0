//! The one import loop: a trace file of another framework is read as it streams, each run it
//! holds is written as soon as it is complete, all in one store transaction, so an import is
//! all or nothing, even when the process is killed midway. `baton trace import` and the hosts' `import_trace` both use it.

use super::Api;
use crate::error::{ApiError, ErrorCode};
use crate::import::{ImportError, ImportSummary, TraceFormat};
use crate::topology::Topology;
use crate::trace::Trace;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ImportArgs {
    pub path: String,
    /// The file's format; `auto` (the default) tells it from the content.
    #[serde(default)]
    #[ts(as = "Option<TraceFormat>", optional)]
    pub from: TraceFormat,
    /// Import it even when the same file (by content) was imported before.
    #[serde(default)]
    #[ts(as = "Option<bool>", optional)]
    pub again: bool,
}

/// A trace's content sent by the window (a dropped or picked file), not a path.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct UploadArgs {
    /// The file's name, as the runs' source shows it (no folder).
    pub name: String,
    /// The file's text (JSON, JSON Lines, or an ADK SSE stream).
    pub text: String,
    #[serde(default)]
    #[ts(as = "Option<TraceFormat>", optional)]
    pub from: TraceFormat,
    #[serde(default)]
    #[ts(as = "Option<bool>", optional)]
    pub again: bool,
}

/// How to import: the format, whether a file imported before is imported again, and the name
/// the runs' source gives the file (an upload's, instead of its temporary path).
#[derive(Debug, Clone, Default)]
pub struct ImportHow {
    pub from: TraceFormat,
    pub again: bool,
    pub label: Option<String>,
}

/// One run an import saved.
pub struct ImportedRun<'a> {
    pub run_id: &'a str,
    pub trace: &'a Trace,
}

/// Bytes read so far, of the file's total.
pub type ImportProgress = Box<dyn FnMut(u64, u64) + Send>;

impl Api {
    pub async fn import_trace(self: &Arc<Self>, a: ImportArgs) -> Result<Vec<String>, ApiError> {
        let path = self.files.resolve(&a.path)?;
        let how = ImportHow { from: a.from, again: a.again, label: None };
        let (ids, _) = self.import_file(path, how, None, None, &mut |_| {}).await?;
        Ok(ids)
    }

    /// Imports uploaded content: written to a private temporary file under its own name (the
    /// importers stream files and sniff their extension), imported, and removed.
    pub async fn import_trace_upload(self: &Arc<Self>, a: UploadArgs) -> Result<Vec<String>, ApiError> {
        let name = std::path::Path::new(a.name.trim())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| ApiError::new(ErrorCode::ApiArgs, "the uploaded trace has no file name; name it"))?;
        if a.text.trim().is_empty() {
            return Err(ApiError::new(
                ErrorCode::ImportRead,
                format!("{name}: the file is empty; nothing was imported"),
            ));
        }
        let dir = tempfile::tempdir().map_err(|e| {
            ApiError::new(ErrorCode::ImportRead, format!("{name}: no temporary folder to read it in: {e}"))
        })?;
        let path = dir.path().join(&name);
        std::fs::write(&path, a.text.as_bytes())
            .map_err(|e| ApiError::new(ErrorCode::ImportRead, format!("{name}: cannot stage the upload: {e}")))?;
        // The runs and errors name the file as the user knows it, not the temporary path.
        let how = ImportHow { from: a.from, again: a.again, label: Some(name.clone()) };
        let result = self.import_file(path, how, None, None, &mut |_| {}).await;
        let tmp = format!("{}/", dir.path().display());
        result.map(|(ids, _)| ids).map_err(|mut e| {
            e.message = e.message.replace(&tmp, "");
            e
        })
    }

    /// Imports `path` into the store, all or nothing. `facts` is a topology whose pinned facts
    /// are checked at every transfer; `on_run` sees each run once it is added to the import's
    /// transaction, which commits only when the whole file is read.
    pub async fn import_file(
        &self,
        path: PathBuf,
        how: ImportHow,
        facts: Option<Topology>,
        progress: Option<ImportProgress>,
        on_run: &mut (dyn FnMut(ImportedRun<'_>) + Send),
    ) -> Result<(Vec<String>, ImportSummary), ApiError> {
        let store = self.store().await?.clone();
        // The source's content hash: the same file imported twice is one import, unless asked.
        let hash = {
            let path = path.clone();
            super::blocking(move || {
                // Only a regular file is hashed (opening a FIFO would block).
                if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                    return Ok(String::new());
                }
                let mut h = blake3::Hasher::new();
                h.update_reader(std::fs::File::open(&path).map_err(|e| {
                    ApiError::new(ErrorCode::ImportRead, format!("{}: cannot read the file: {e}", path.display()))
                })?)
                .map_err(|e| ApiError::new(ErrorCode::ImportRead, format!("{}: {e}", path.display())))?;
                Ok(h.finalize().to_hex()[..32].to_string())
            })
            .await?
        };
        let ImportHow { from, again, label } = how;
        let earlier = if again || hash.is_empty() { None } else { store.run_with_source_hash(&hash).await? };
        if let Some(id) = earlier {
            return Err(ApiError::new(
                ErrorCode::ImportDuplicate,
                format!(
                    "{}: already imported as run {id} (the same content); `baton trace show {id}` shows it, or import again with --again",
                    path.display()
                ),
            ));
        }
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Trace>(4);
        let file = path.display().to_string();
        let reader = tokio::task::spawn_blocking(move || {
            let mut progress = progress;
            let mut report = |done: u64, total: u64| {
                if let Some(p) = progress.as_mut() {
                    p(done, total)
                }
            };
            crate::import::import_file(&path, from.format(), facts.as_ref(), Some(&mut report), &mut |trace, _| {
                tx.blocking_send(trace).map_err(|_| ImportError::Read {
                    file: path.display().to_string(),
                    source: std::io::Error::other("the store writer stopped"),
                })
            })
        });
        // One transaction for the whole import: all of it, or (on any error, or a kill) none.
        let mut import = store.import_tx().await?;
        let mut saved = vec![];
        let mut failure: Option<ApiError> = None;
        while let Some(mut trace) = rx.recv().await {
            if let Some(serde_json::Value::Object(m)) = trace.source.as_mut() {
                m.insert("hash".into(), serde_json::Value::String(hash.clone()));
                if let Some(l) = &label {
                    m.insert("file".into(), serde_json::Value::String(l.clone()));
                }
            }
            match import.add(&trace).await {
                Ok(id) => {
                    trace.run_id = Some(id.clone());
                    on_run(ImportedRun { run_id: &id, trace: &trace });
                    saved.push(id);
                }
                Err(e) => {
                    failure = Some(e.into());
                    break;
                }
            }
        }
        drop(rx);
        let result = reader
            .await
            .map_err(|e| ApiError::new(ErrorCode::ImportFailed, format!("{file}: the importer stopped: {e}")))?;
        let err: ApiError = match (failure, result) {
            (None, Ok(summary)) => {
                import.commit().await?;
                return Ok((saved, summary));
            }
            (Some(e), _) => e,
            (None, Err(e)) => e.into(),
        };
        // Dropping the transaction rolls it back: nothing of this import was ever visible.
        drop(import);
        Err(err.with_suffix("; nothing was imported"))
    }
}
