//! ADK Agent Config YAML (`root_agent.yaml` and the files its `sub_agents` and `AgentTool`s
//! reference), read without Python. A function tool named by its dotted path is looked up in the
//! Python file beside the config for its signature and docstring.

use super::CodeError;
use super::model::{CodeAgent, CodeModel, CodeTool, Framework, ModelSettings};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const MAX_FILES: usize = 1000;

#[derive(Deserialize)]
struct Config {
    #[serde(default)]
    agent_class: Option<String>,
    name: String,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    instruction: Option<String>,
    #[serde(default)]
    sub_agents: Option<Vec<AgentRef>>,
    #[serde(default)]
    disallow_transfer_to_parent: Option<bool>,
    #[serde(default)]
    disallow_transfer_to_peers: Option<bool>,
    #[serde(default)]
    include_contents: Option<String>,
    #[serde(default)]
    output_key: Option<String>,
    #[serde(default)]
    tools: Option<Vec<ToolConfig>>,
    #[serde(default)]
    generate_content_config: Option<GenerateConfig>,
    #[serde(default)]
    max_iterations: Option<u32>,
}

#[derive(Deserialize)]
struct AgentRef {
    #[serde(default)]
    config_path: Option<String>,
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize)]
struct ToolConfig {
    name: String,
    #[serde(default)]
    args: Option<serde_norway::Value>,
}

#[derive(Deserialize)]
struct GenerateConfig {
    #[serde(default)]
    temperature: Option<f64>,
    #[serde(default)]
    top_p: Option<f64>,
    #[serde(default)]
    max_output_tokens: Option<u32>,
}

struct Reader {
    agents: Vec<CodeAgent>,
    by_path: HashMap<PathBuf, String>,
}

impl Reader {
    /// Reads the config at `path` (once), returning its agent's name.
    fn read(&mut self, path: &Path) -> Result<String, CodeError> {
        let path = std::fs::canonicalize(path)
            .map_err(|e| CodeError::Read(format!("cannot read the ADK agent config {}: {e}", path.display())))?;
        if let Some(name) = self.by_path.get(&path) {
            return Ok(name.clone());
        }
        if self.by_path.len() >= MAX_FILES {
            return Err(CodeError::Read(format!("more than {MAX_FILES} agent configs reference each other")));
        }
        let text = crate::config::read_regular(&path, 4 << 20)
            .map_err(|e| CodeError::Read(format!("cannot read the ADK agent config {}: {e}", path.display())))?;
        let cfg: Config = serde_norway::from_str(&text).map_err(|e| {
            CodeError::Read(format!(
                "{}: not an ADK agent config: {e}; see ADK's Agent Config (agent_class, name, model, instruction)",
                path.display()
            ))
        })?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let line = text.lines().position(|l| l.starts_with("name:")).map_or(1, |i| i as u32 + 1);
        self.by_path.insert(path.clone(), cfg.name.clone());
        let class = cfg.agent_class.clone().unwrap_or_else(|| "LlmAgent".into());
        let class = if class == "Agent" { "LlmAgent".to_owned() } else { class };
        let index = self.agents.len();
        self.agents.push(CodeAgent {
            name: cfg.name.clone(),
            class,
            file: Some(path.display().to_string()),
            line: Some(line),
            instructions: cfg.instruction.clone(),
            model: cfg.model.clone(),
            model_settings: cfg
                .generate_content_config
                .as_ref()
                .map(|g| ModelSettings {
                    temperature: g.temperature,
                    top_p: g.top_p,
                    max_tokens: g.max_output_tokens,
                    tool_choice: None,
                })
                .unwrap_or_default(),
            include_contents: cfg.include_contents.clone(),
            output_key: cfg.output_key.clone(),
            disallow_transfer_to_parent: cfg.disallow_transfer_to_parent.unwrap_or(false),
            disallow_transfer_to_peers: cfg.disallow_transfer_to_peers.unwrap_or(false),
            max_iterations: cfg.max_iterations,
            ..Default::default()
        });
        let mut subs = vec![];
        for r in cfg.sub_agents.iter().flatten() {
            subs.push(self.reference(&dir, r, &path)?);
        }
        let mut tools = vec![];
        for tl in cfg.tools.iter().flatten() {
            tools.push(self.tool(&dir, tl, &path)?);
        }
        let a = &mut self.agents[index];
        a.sub_agents = subs;
        a.tools = tools;
        Ok(cfg.name)
    }

    fn reference(&mut self, dir: &Path, r: &AgentRef, from: &Path) -> Result<String, CodeError> {
        match (&r.config_path, &r.code) {
            (Some(p), _) => self.read(&dir.join(p)),
            (None, Some(code)) => Err(CodeError::Read(format!(
                "{}: the sub-agent `{code}` is defined in Python code; import the Python module instead \
                 (`baton import-code <folder>/agent.py`), which reads both",
                from.display()
            ))),
            (None, None) => {
                Err(CodeError::Read(format!("{}: a sub_agents entry has neither config_path nor code", from.display())))
            }
        }
    }

    fn tool(&mut self, dir: &Path, tl: &ToolConfig, from: &Path) -> Result<CodeTool, CodeError> {
        if tl.name == "AgentTool" || tl.name == "google.adk.tools.AgentTool" {
            let agent = tl.args.as_ref().and_then(|a| a.get("agent"));
            let path = match agent {
                Some(serde_norway::Value::String(p)) => Some(p.clone()),
                Some(v) => v.get("config_path").and_then(|p| p.as_str()).map(str::to_owned),
                None => None,
            }
            .ok_or_else(|| {
                CodeError::Read(format!("{}: an AgentTool needs args.agent (a config path)", from.display()))
            })?;
            let name = self.read(&dir.join(path))?;
            return Ok(CodeTool::Agent { name: name.clone(), description: None, agent: name });
        }
        let Some((module, func)) = tl.name.rsplit_once('.') else {
            return Ok(CodeTool::Hosted { name: tl.name.clone() });
        };
        let (description, parameters) = python_function(dir, module, func).unwrap_or((None, None));
        Ok(CodeTool::Function { name: func.to_owned(), description, parameters })
    }
}

/// The docstring and a JSON schema of `def func(...)` in the module `a.b` (found as `a/b.py` beside
/// the config or in a folder above), for simple signatures: `name: type` with str, int, float,
/// bool, list, dict, and defaults.
fn python_function(dir: &Path, module: &str, func: &str) -> Option<(Option<String>, Option<serde_json::Value>)> {
    let rel: PathBuf = module.split('.').collect::<PathBuf>().with_extension("py");
    let file = dir.ancestors().take(4).map(|d| d.join(&rel)).find(|p| p.is_file()).or_else(|| {
        // `agent_folder.tools.fn` from inside agent_folder.
        let last = module.rsplit('.').next()?;
        Some(dir.join(format!("{last}.py"))).filter(|p| p.is_file())
    })?;
    let text = crate::config::read_regular(&file, 4 << 20).ok()?;
    let start = text.find(&format!("def {func}("))?;
    let rest = &text[start + func.len() + 5..];
    let close = rest.find(')')?;
    let params = &rest[..close];
    let body = &rest[close..];
    let doc = body.split_once(":\n").and_then(|(_, b)| {
        let b = b.trim_start();
        let q = if b.starts_with("\"\"\"") {
            "\"\"\""
        } else if b.starts_with("'''") {
            "'''"
        } else if b.starts_with('"') {
            // A one-line string literal (as Baton's export writes it): its escapes are JSON's.
            let line = b.lines().next().unwrap_or("");
            return serde_json::from_str::<String>(line.trim_end()).ok();
        } else {
            return None;
        };
        let inner = &b[3..];
        inner.find(q).map(|end| inner[..end].trim().to_owned())
    });
    let mut props = serde_json::Map::new();
    let mut required = vec![];
    for p in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (decl, default) = match p.split_once('=') {
            Some((d, _)) => (d.trim(), true),
            None => (p, false),
        };
        let (name, ty) = decl.split_once(':').map(|(n, t)| (n.trim(), t.trim())).unwrap_or((decl, "str"));
        if name == "tool_context" || name.starts_with('*') {
            continue;
        }
        let ty = match ty {
            "int" => "integer",
            "float" => "number",
            "bool" => "boolean",
            t if t.starts_with("list") => "array",
            t if t.starts_with("dict") => "object",
            _ => "string",
        };
        props.insert(name.to_owned(), serde_json::json!({"type": ty}));
        if !default {
            required.push(name.to_owned());
        }
    }
    let mut schema = serde_json::json!({"type": "object", "properties": props});
    if !required.is_empty() {
        schema["required"] = serde_json::json!(required);
    }
    Some((doc, Some(schema)))
}

pub fn read(path: &Path) -> Result<CodeModel, CodeError> {
    let mut r = Reader { agents: vec![], by_path: HashMap::new() };
    let root = r.read(path)?;
    Ok(CodeModel {
        framework: Framework::Adk,
        module: path.display().to_string(),
        root_agent: Some(root.clone()),
        top_level: vec![root],
        agents: r.agents,
        notes: vec![],
        crew: None,
    })
}
