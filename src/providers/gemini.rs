//! Google Gemini `generateContent` (and `streamGenerateContent?alt=sse`): `systemInstruction`,
//! `contents` with `text`, `functionCall` and `functionResponse` parts, `functionDeclarations`
//! with the OpenAPI subset of JSON Schema Gemini accepts.

use super::http::{self, Endpoint};
use super::wire::{Msg, args_object, conversation};
use super::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, OutputRef, Usage};
use futures::future::BoxFuture;
use serde_json::{Value, json};

const LABEL: &str = "gemini";

pub struct Gemini {
    pub ep: Endpoint,
}

/// Gemini rejects JSON Schema keywords outside its OpenAPI subset (`additionalProperties`,
/// `$schema`, `title`...): keep only what it reads.
pub fn gemini_schema(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = serde_json::Map::new();
            for (k, val) in m {
                match k.as_str() {
                    "type" | "description" | "enum" | "required" | "format" | "nullable" => {
                        out.insert(k.clone(), val.clone());
                    }
                    "items" => {
                        out.insert(k.clone(), gemini_schema(val));
                    }
                    "properties" => {
                        let props = val
                            .as_object()
                            .map(|p| p.iter().map(|(n, s)| (n.clone(), gemini_schema(s))).collect())
                            .unwrap_or_default();
                        out.insert(k.clone(), Value::Object(props));
                    }
                    _ => {}
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

impl Gemini {
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        let mut contents: Vec<Value> = vec![];
        let mut push = |role: &str, part: Value| match contents.last_mut() {
            Some(c) if c["role"] == role => c["parts"].as_array_mut().expect("parts is an array").push(part),
            _ => contents.push(json!({"role": role, "parts": [part]})),
        };
        for m in conversation(&req.context) {
            match m {
                Msg::User(t) => push("user", json!({"text": t})),
                Msg::Assistant { text, calls, .. } => {
                    if let Some(t) = text.filter(|t| !t.is_empty()) {
                        push("model", json!({"text": t}));
                    }
                    for c in calls {
                        push("model", json!({"functionCall": {"name": c.name, "args": args_object(&c.arguments)}}));
                    }
                }
                Msg::ToolResult { name, output, .. } => {
                    push("user", json!({"functionResponse": {"name": name, "response": {"result": output}}}))
                }
            }
        }
        let mut body = json!({"contents": contents});
        if !req.system.is_empty() {
            body["systemInstruction"] = json!({"parts": [{"text": req.system}]});
        }
        if !req.tools.is_empty() {
            let decls: Vec<Value> = req
                .tools
                .iter()
                .map(|t| {
                    let mut d = json!({"name": t.name, "description": t.description});
                    let schema = gemini_schema(&t.parameters);
                    if schema.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty()) {
                        d["parameters"] = schema;
                    }
                    d
                })
                .collect();
            body["tools"] = json!([{"functionDeclarations": decls}]);
        }
        let mut config = serde_json::Map::new();
        self.ep.sampling(&mut config, [Some("temperature"), Some("topP"), Some("maxOutputTokens")]);
        if !config.is_empty() {
            body["generationConfig"] = Value::Object(config);
        }
        body
    }

    async fn call(&self, req: ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let body = self.body(&req);
        let base = self.ep.base_url.trim_end_matches('/');
        let url = if self.ep.stream {
            format!("{base}/v1beta/models/{}:streamGenerateContent?alt=sse", self.ep.model)
        } else {
            format!("{base}/v1beta/models/{}:generateContent", self.ep.model)
        };
        let resp = http::send_with_retries(LABEL, &self.ep.policy, &self.ep.cancel, || {
            let mut r = self.ep.client.post(&url).json(&body);
            if let Some(k) = &self.ep.key {
                r = r.header("x-goog-api-key", k);
            }
            r
        })
        .await?;
        let response = if self.ep.stream {
            // Each event is a partial response: concatenate the candidates' parts.
            let mut parts: Vec<Value> = vec![];
            let mut usage = Value::Null;
            let mut finish = Value::Null;
            let result = http::sse_events(LABEL, resp, &self.ep.cancel, |_, data| {
                let v = http::sse_json(LABEL, data)?;
                if let Some(e) = v.get("error") {
                    return Err(ModelError::Protocol { provider: LABEL.into(), message: e.to_string() });
                }
                for p in v.pointer("/candidates/0/content/parts").and_then(Value::as_array).into_iter().flatten() {
                    match (p.get("text").and_then(Value::as_str), parts.last_mut()) {
                        (Some(t), Some(last)) if last.get("text").is_some() => {
                            let cur = last["text"].as_str().unwrap_or_default().to_owned();
                            last["text"] = json!(cur + t);
                        }
                        _ => parts.push(p.clone()),
                    }
                }
                if let Some(u) = v.get("usageMetadata") {
                    usage = u.clone();
                }
                if let Some(f) = v.pointer("/candidates/0/finishReason") {
                    finish = f.clone();
                    return Ok(true);
                }
                Ok(false)
            })
            .await;
            // Gemini ends its stream by closing it after the last chunk (with a finishReason).
            match result {
                Ok(()) => {}
                Err(ModelError::Protocol { .. }) if !finish.is_null() => {}
                Err(e) => return Err(e),
            }
            json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish}], "usageMetadata": usage})
        } else {
            http::json_body(LABEL, resp, &self.ep.cancel).await?
        };
        let (output, usage) = parse_response(&response, req.turn)?;
        // The SDK reaches this provider through LiteLLM and its Chat Completions converter.
        let refs = output.iter().map(OutputRef::sdk_fake).collect();
        Ok(ModelResponse { output, refs, usage, exchange: Some(json!({"request": body, "response": response})) })
    }
}

pub fn parse_response(v: &Value, turn: u32) -> Result<(Vec<OutputItem>, Usage), ModelError> {
    let cand = v.pointer("/candidates/0").ok_or_else(|| {
        let why = v.pointer("/promptFeedback/blockReason").and_then(Value::as_str).unwrap_or("no candidates");
        ModelError::Protocol { provider: LABEL.into(), message: format!("no answer: {why}") }
    })?;
    let mut out = vec![];
    for (i, p) in cand.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten().enumerate() {
        if let Some(t) = p.get("text").and_then(Value::as_str) {
            if p.get("thought").and_then(Value::as_bool) == Some(true) {
                out.push(OutputItem::Reasoning(t.to_owned()));
            } else if !t.is_empty() {
                out.push(OutputItem::Message(t.to_owned()));
            }
        } else if let Some(fc) = p.get("functionCall") {
            let id = fc
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("call_{turn}_{}", i + 1));
            out.push(OutputItem::Call {
                name: fc.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                arguments: fc.get("args").cloned().unwrap_or(json!({})).to_string(),
                call_id: id,
            });
        }
    }
    let usage = Usage {
        input_tokens: v.pointer("/usageMetadata/promptTokenCount").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: v.pointer("/usageMetadata/candidatesTokenCount").and_then(Value::as_u64).unwrap_or(0),
    };
    Ok((out, usage))
}

impl Model for Gemini {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(self.call(req))
    }
}
