//! OpenAI Chat Completions, and any OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM
//! Studio) at another base URL: messages, `tools` / `tool_calls`, and streaming chunks whose
//! `delta.tool_calls` are joined by index.

use super::http::{self, Endpoint};
use super::wire::{Msg, conversation};
use super::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, OutputRef, ToolSpec, Usage};
use futures::future::BoxFuture;
use serde_json::{Value, json};

pub struct OpenAiChat {
    pub ep: Endpoint,
    /// llama.cpp rejects `content: null` beside tool calls: compatible servers get "".
    pub compatible: bool,
    /// `auto`, `required`, `none`, or the name of a tool the model must call.
    pub tool_choice: Option<String>,
}

pub fn tools_json(tools: &[ToolSpec]) -> Vec<Value> {
    tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
        .collect()
}

impl OpenAiChat {
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        let mut messages = vec![];
        if !req.system.is_empty() {
            messages.push(json!({"role": "system", "content": req.system}));
        }
        for m in conversation(&req.context) {
            messages.push(match m {
                Msg::User(t) => json!({"role": "user", "content": t}),
                Msg::Assistant { text, calls, .. } => {
                    let mut m = json!({"role": "assistant", "content": text});
                    if text.is_none() && self.compatible {
                        m["content"] = json!("");
                    }
                    if !calls.is_empty() {
                        m["tool_calls"] = calls
                            .iter()
                            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                            .collect();
                    }
                    m
                }
                Msg::ToolResult { call_id, output, .. } => json!({"role": "tool", "tool_call_id": call_id, "content": output}),
            });
        }
        let mut body = json!({"model": self.ep.model, "messages": messages});
        if !req.tools.is_empty() {
            body["tools"] = json!(tools_json(req.tools));
            match self.tool_choice.as_deref() {
                // llama.cpp's server drops the tools unless a choice is named.
                None if self.compatible => body["tool_choice"] = json!("auto"),
                None => {}
                Some(c @ ("auto" | "required" | "none")) => body["tool_choice"] = json!(c),
                Some(name) => body["tool_choice"] = json!({"type": "function", "function": {"name": name}}),
            }
        }
        if let Some(m) = body.as_object_mut() {
            self.ep.sampling(m, [Some("temperature"), Some("top_p"), Some("max_tokens")]);
        }
        if self.ep.stream {
            body["stream"] = json!(true);
            body["stream_options"] = json!({"include_usage": true});
        }
        body
    }

    async fn call(&self, req: ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let body = self.body(&req);
        let url = format!("{}/chat/completions", self.ep.base_url.trim_end_matches('/'));
        let resp = http::send_with_retries(self.ep.label, &self.ep.policy, &self.ep.cancel, || {
            let mut r = self.ep.client.post(&url).json(&body);
            if let Some(k) = &self.ep.key {
                r = r.bearer_auth(k);
            }
            r
        })
        .await?;
        let (output, usage, response) = if self.ep.stream {
            self.read_stream(resp, req.turn).await?
        } else {
            let v = http::json_body(self.ep.label, resp, &self.ep.cancel).await?;
            let (o, u) = parse_response(self.ep.label, &v, req.turn)?;
            (o, u, v)
        };
        // What the SDK's Chat Completions converter gives the items it builds.
        let refs = output.iter().map(OutputRef::sdk_fake).collect();
        Ok(ModelResponse { output, refs, usage, exchange: Some(json!({"request": body, "response": response})) })
    }

    async fn read_stream(
        &self,
        resp: reqwest::Response,
        turn: u32,
    ) -> Result<(Vec<OutputItem>, Usage, Value), ModelError> {
        let mut text = String::new();
        // Tool calls by index: (id, name, arguments).
        let mut calls: Vec<(String, String, String)> = vec![];
        let mut usage = Usage::default();
        let mut chunks = 0u32;
        http::sse_events(self.ep.label, resp, &self.ep.cancel, |_, data| {
            if data.trim() == "[DONE]" {
                return Ok(true);
            }
            chunks += 1;
            let v = http::sse_json(self.ep.label, data)?;
            if let Some(e) = v.get("error") {
                return Err(ModelError::Protocol { provider: self.ep.label.into(), message: e.to_string() });
            }
            if let Some(u) = v.get("usage").filter(|u| !u.is_null()) {
                usage = chat_usage(u);
            }
            let Some(delta) = v.pointer("/choices/0/delta") else {
                return Ok(false);
            };
            if let Some(t) = delta.get("content").and_then(Value::as_str) {
                text.push_str(t);
            }
            for tc in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                let idx = tc.get("index").and_then(Value::as_u64).unwrap_or(calls.len() as u64) as usize;
                while calls.len() <= idx {
                    calls.push(Default::default());
                }
                let c = &mut calls[idx];
                if let Some(id) = tc.get("id").and_then(Value::as_str) {
                    c.0 = id.to_owned();
                }
                if let Some(n) = tc.pointer("/function/name").and_then(Value::as_str) {
                    c.1.push_str(n);
                }
                if let Some(a) = tc.pointer("/function/arguments").and_then(Value::as_str) {
                    c.2.push_str(a);
                }
            }
            Ok(false)
        })
        .await?;
        let mut out = vec![];
        if !text.is_empty() {
            out.push(OutputItem::Message(text.clone()));
        }
        for (i, (id, name, args)) in calls.iter().enumerate() {
            check_args(self.ep.label, name, args)?;
            let id = if id.is_empty() { format!("call_{turn}_{}", i + 1) } else { id.clone() };
            out.push(OutputItem::Call { name: name.clone(), arguments: normalize_args(args), call_id: id });
        }
        let summary = json!({"streamed_chunks": chunks, "content": text, "tool_calls": calls.iter().map(|c| json!({"id": c.0, "name": c.1, "arguments": c.2})).collect::<Vec<_>>()});
        Ok((out, usage, summary))
    }
}

fn chat_usage(u: &Value) -> Usage {
    Usage {
        input_tokens: u.get("prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: u.get("completion_tokens").and_then(Value::as_u64).unwrap_or(0),
    }
}

/// Empty arguments become `{}`.
pub fn normalize_args(a: &str) -> String {
    if a.trim().is_empty() { "{}".into() } else { a.to_owned() }
}

/// Tool-call arguments must be JSON.
pub fn check_args(provider: &str, name: &str, a: &str) -> Result<(), ModelError> {
    if a.trim().is_empty() || serde_json::from_str::<Value>(a).is_ok() {
        Ok(())
    } else {
        Err(ModelError::Protocol {
            provider: provider.into(),
            message: format!(
                "the model called {name} with arguments that are not JSON: {}",
                a.chars().take(200).collect::<String>()
            ),
        })
    }
}

pub fn parse_response(provider: &str, v: &Value, turn: u32) -> Result<(Vec<OutputItem>, Usage), ModelError> {
    let msg = v.pointer("/choices/0/message").ok_or_else(|| ModelError::Protocol {
        provider: provider.into(),
        message: format!("no choices[0].message in {}", v.to_string().chars().take(200).collect::<String>()),
    })?;
    let mut out = vec![];
    if let Some(t) = msg.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
        out.push(OutputItem::Message(t.to_owned()));
    }
    for (i, tc) in msg.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let name = tc.pointer("/function/name").and_then(Value::as_str).unwrap_or_default().to_owned();
        let args = tc.pointer("/function/arguments").and_then(Value::as_str).unwrap_or("{}");
        check_args(provider, &name, args)?;
        let id =
            tc.get("id").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| format!("call_{turn}_{}", i + 1));
        out.push(OutputItem::Call { name, arguments: normalize_args(args), call_id: id });
    }
    let usage = v.get("usage").map(chat_usage).unwrap_or_default();
    Ok((out, usage))
}

impl Model for OpenAiChat {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(self.call(req))
    }
}
