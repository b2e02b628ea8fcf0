//! Anthropic Messages: `system`, alternating user/assistant messages with `text`, `tool_use`
//! and `tool_result` blocks, and the streaming events `content_block_*` (text and
//! `input_json_delta`), `message_delta` and `message_stop`.

use super::http::{self, Endpoint};
use super::openai_chat::check_args;
use super::wire::{Msg, args_object, conversation};
use super::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, OutputRef, Usage};
use futures::future::BoxFuture;
use serde_json::{Value, json};

pub const API_VERSION: &str = "2023-06-01";
const LABEL: &str = "anthropic";

pub struct Anthropic {
    pub ep: Endpoint,
}

impl Anthropic {
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        let mut messages: Vec<Value> = vec![];
        let mut push = |role: &str, block: Value| match messages.last_mut() {
            Some(m) if m["role"] == role => m["content"].as_array_mut().expect("content is an array").push(block),
            _ => messages.push(json!({"role": role, "content": [block]})),
        };
        for m in conversation(&req.context) {
            match m {
                Msg::User(t) => push("user", json!({"type": "text", "text": t})),
                Msg::Assistant { text, calls, .. } => {
                    if let Some(t) = text.filter(|t| !t.is_empty()) {
                        push("assistant", json!({"type": "text", "text": t}));
                    }
                    for c in calls {
                        push(
                            "assistant",
                            json!({"type": "tool_use", "id": c.id, "name": c.name, "input": args_object(&c.arguments)}),
                        );
                    }
                }
                Msg::ToolResult { call_id, output, .. } => {
                    push("user", json!({"type": "tool_result", "tool_use_id": call_id, "content": output}))
                }
            }
        }
        // The first message must come from the user.
        if messages.first().is_some_and(|m| m["role"] != "user") {
            messages.insert(
                0,
                json!({"role": "user", "content": [{"type": "text", "text": "(continuing the conversation)"}]}),
            );
        }
        let mut body = json!({
            "model": self.ep.model,
            "max_tokens": self.ep.max_tokens.unwrap_or(1024),
            "messages": messages,
        });
        if !req.system.is_empty() {
            body["system"] = json!(req.system);
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
                .collect();
        }
        if let Some(m) = body.as_object_mut() {
            self.ep.sampling(m, [Some("temperature"), Some("top_p"), None]);
        }
        if self.ep.stream {
            body["stream"] = json!(true);
        }
        body
    }

    async fn call(&self, req: ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let body = self.body(&req);
        let url = format!("{}/v1/messages", self.ep.base_url.trim_end_matches('/'));
        let resp = http::send_with_retries(LABEL, &self.ep.policy, &self.ep.cancel, || {
            let mut r = self.ep.client.post(&url).header("anthropic-version", API_VERSION).json(&body);
            if let Some(k) = &self.ep.key {
                r = r.header("x-api-key", k);
            }
            r
        })
        .await?;
        let response = if self.ep.stream {
            self.read_stream(resp).await?
        } else {
            http::json_body(LABEL, resp, &self.ep.cancel).await?
        };
        let (output, usage) = parse_response(&response)?;
        // The SDK reaches this provider through LiteLLM and its Chat Completions converter.
        let refs = output.iter().map(OutputRef::sdk_fake).collect();
        Ok(ModelResponse { output, refs, usage, exchange: Some(json!({"request": body, "response": response})) })
    }

    /// Rebuilds the final message from the stream's events.
    async fn read_stream(&self, resp: reqwest::Response) -> Result<Value, ModelError> {
        let mut message = json!({"content": []});
        // Partial JSON of tool_use inputs, by block index.
        let mut partial: Vec<String> = vec![];
        http::sse_events(LABEL, resp, &self.ep.cancel, |event, data| {
            let v = http::sse_json(LABEL, data)?;
            let kind = v.get("type").and_then(Value::as_str).unwrap_or(event).to_owned();
            match kind.as_str() {
                "message_start" => {
                    if let Some(m) = v.get("message") {
                        message = m.clone();
                        if message.get("content").and_then(Value::as_array).is_none() {
                            message["content"] = json!([]);
                        }
                    }
                }
                "content_block_start" => {
                    let idx = v.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
                    let content = message["content"].as_array_mut().expect("content is an array");
                    while content.len() <= idx {
                        content.push(json!({}));
                        partial.push(String::new());
                    }
                    while partial.len() < content.len() {
                        partial.push(String::new());
                    }
                    content[idx] = v.get("content_block").cloned().unwrap_or_default();
                }
                "content_block_delta" => {
                    let idx = v.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
                    let delta = v.get("delta").cloned().unwrap_or_default();
                    let Some(block) = message["content"].as_array_mut().and_then(|c| c.get_mut(idx)) else {
                        return Err(ModelError::Protocol {
                            provider: LABEL.into(),
                            message: format!("a delta for block {idx}, which never started"),
                        });
                    };
                    match delta.get("type").and_then(Value::as_str) {
                        Some("text_delta") => {
                            let cur = block.get("text").and_then(Value::as_str).unwrap_or_default().to_owned();
                            block["text"] = json!(cur + delta.get("text").and_then(Value::as_str).unwrap_or_default());
                        }
                        Some("input_json_delta") => {
                            partial[idx]
                                .push_str(delta.get("partial_json").and_then(Value::as_str).unwrap_or_default());
                        }
                        Some("thinking_delta") => {
                            let cur = block.get("thinking").and_then(Value::as_str).unwrap_or_default().to_owned();
                            block["thinking"] =
                                json!(cur + delta.get("thinking").and_then(Value::as_str).unwrap_or_default());
                        }
                        _ => {}
                    }
                }
                "content_block_stop" => {
                    let idx = v.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
                    let block = message["content"].as_array_mut().and_then(|c| c.get_mut(idx));
                    if let Some(block) = block.filter(|b| b["type"] == "tool_use") {
                        {
                            let raw = partial.get(idx).cloned().unwrap_or_default();
                            let name = block.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                            check_args(LABEL, &name, &raw)?;
                            block["input"] = if raw.trim().is_empty() {
                                json!({})
                            } else {
                                serde_json::from_str(&raw).unwrap_or(json!({}))
                            };
                        }
                    }
                }
                "message_delta" => {
                    if let Some(r) = v.pointer("/delta/stop_reason") {
                        message["stop_reason"] = r.clone();
                    }
                    if let Some(n) = v.pointer("/usage/output_tokens") {
                        message["usage"]["output_tokens"] = n.clone();
                    }
                }
                "message_stop" => return Ok(true),
                "error" => {
                    let msg = v.pointer("/error/message").and_then(Value::as_str).unwrap_or("stream error");
                    return Err(ModelError::Protocol { provider: LABEL.into(), message: msg.to_owned() });
                }
                _ => {}
            }
            Ok(false)
        })
        .await?;
        Ok(message)
    }
}

pub fn parse_response(v: &Value) -> Result<(Vec<OutputItem>, Usage), ModelError> {
    let content = v.get("content").and_then(Value::as_array).ok_or_else(|| ModelError::Protocol {
        provider: LABEL.into(),
        message: format!("no content in {}", v.to_string().chars().take(200).collect::<String>()),
    })?;
    let mut out = vec![];
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(t) = block.get("text").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                    out.push(OutputItem::Message(t.to_owned()));
                }
            }
            Some("thinking") => {
                if let Some(t) = block.get("thinking").and_then(Value::as_str) {
                    out.push(OutputItem::Reasoning(t.to_owned()));
                }
            }
            Some("tool_use") => out.push(OutputItem::Call {
                name: block.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                arguments: block.get("input").cloned().unwrap_or(json!({})).to_string(),
                call_id: block.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
            }),
            _ => {}
        }
    }
    let usage = Usage {
        input_tokens: v.pointer("/usage/input_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: v.pointer("/usage/output_tokens").and_then(Value::as_u64).unwrap_or(0),
    };
    Ok((out, usage))
}

impl Model for Anthropic {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(self.call(req))
    }
}
