//! OpenAI Responses: `instructions` + typed `input` items (messages, `function_call`,
//! `function_call_output`), and the streaming events `response.output_text.delta`,
//! `response.function_call_arguments.*`, `response.output_item.*` and `response.completed`.

use super::http::{self, Endpoint};
use super::openai_chat::{check_args, normalize_args};
use super::wire::{Msg, conversation};
use super::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, OutputRef, Usage};
use futures::future::BoxFuture;
use serde_json::{Value, json};

pub struct OpenAiResponses {
    pub ep: Endpoint,
}

const LABEL: &str = "openai-responses";

impl OpenAiResponses {
    pub fn body(&self, req: &ModelRequest<'_>) -> Value {
        let mut input = vec![];
        for m in conversation(&req.context) {
            match m {
                Msg::User(t) => input.push(json!({"role": "user", "content": t})),
                Msg::Assistant { text, calls, .. } => {
                    if let Some(t) = text {
                        input.push(json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": t}]}));
                    }
                    for c in calls {
                        input.push(
                            json!({"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}),
                        );
                    }
                }
                Msg::ToolResult { call_id, output, .. } => {
                    input.push(json!({"type": "function_call_output", "call_id": call_id, "output": output}))
                }
            }
        }
        let mut body = json!({"model": self.ep.model, "input": input, "store": false});
        if !req.system.is_empty() {
            body["instructions"] = json!(req.system);
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| json!({"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters, "strict": false}))
                .collect();
        }
        if let Some(m) = body.as_object_mut() {
            self.ep.sampling(m, [Some("temperature"), Some("top_p"), Some("max_output_tokens")]);
        }
        if self.ep.stream {
            body["stream"] = json!(true);
        }
        body
    }

    async fn call(&self, req: ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let body = self.body(&req);
        let url = format!("{}/responses", self.ep.base_url.trim_end_matches('/'));
        let resp = http::send_with_retries(LABEL, &self.ep.policy, &self.ep.cancel, || {
            let mut r = self.ep.client.post(&url).json(&body);
            if let Some(k) = &self.ep.key {
                r = r.bearer_auth(k);
            }
            r
        })
        .await?;
        let response = if self.ep.stream {
            self.read_stream(resp).await?
        } else {
            http::json_body(LABEL, resp, &self.ep.cancel).await?
        };
        let (output, refs, usage) = parse_response(&response)?;
        Ok(ModelResponse { output, refs, usage, exchange: Some(json!({"request": body, "response": response})) })
    }

    /// Rebuilds the final response from the stream: `response.completed` carries it whole;
    /// items assembled from the deltas are the fallback when it carries no output.
    async fn read_stream(&self, resp: reqwest::Response) -> Result<Value, ModelError> {
        let mut items: Vec<Value> = vec![];
        let mut completed: Option<Value> = None;
        http::sse_events(LABEL, resp, &self.ep.cancel, |event, data| {
            let v = http::sse_json(LABEL, data)?;
            let kind = v.get("type").and_then(Value::as_str).unwrap_or(event).to_owned();
            match kind.as_str() {
                "response.output_item.added" => {
                    if let Some(item) = v.get("item") {
                        items.push(item.clone());
                    }
                }
                "response.output_text.delta" => {
                    let delta = v.get("delta").and_then(Value::as_str).unwrap_or_default();
                    let idx = v.get("output_index").and_then(Value::as_u64).map(|i| i as usize);
                    let target = match idx {
                        Some(i) if i < items.len() => Some(&mut items[i]),
                        _ => items.iter_mut().rev().find(|i| i["type"] == "message"),
                    };
                    if let Some(item) = target {
                        let cur =
                            item.pointer("/content/0/text").and_then(Value::as_str).unwrap_or_default().to_owned();
                        item["content"] = json!([{"type": "output_text", "text": cur + delta}]);
                    }
                }
                "response.function_call_arguments.delta" => {
                    let delta = v.get("delta").and_then(Value::as_str).unwrap_or_default();
                    let idx = v.get("output_index").and_then(Value::as_u64).unwrap_or(0) as usize;
                    if let Some(item) = items.get_mut(idx) {
                        let cur = item.get("arguments").and_then(Value::as_str).unwrap_or_default().to_owned();
                        item["arguments"] = json!(cur + delta);
                    }
                }
                "response.function_call_arguments.done" => {
                    let idx = v.get("output_index").and_then(Value::as_u64).unwrap_or(0) as usize;
                    if let (Some(item), Some(a)) = (items.get_mut(idx), v.get("arguments")) {
                        item["arguments"] = a.clone();
                    }
                }
                "response.output_item.done" => {
                    let idx = v.get("output_index").and_then(Value::as_u64).map(|i| i as usize);
                    if let (Some(i), Some(item)) = (idx.filter(|i| *i < items.len()), v.get("item")) {
                        items[i] = item.clone();
                    }
                }
                "response.completed" => {
                    completed = v.get("response").cloned();
                    return Ok(true);
                }
                "response.failed" | "error" | "response.incomplete" => {
                    let msg = v
                        .pointer("/response/error/message")
                        .or_else(|| v.pointer("/error/message"))
                        .or_else(|| v.get("message"))
                        .and_then(Value::as_str)
                        .unwrap_or("the response failed");
                    return Err(ModelError::Protocol { provider: LABEL.into(), message: msg.to_owned() });
                }
                _ => {}
            }
            Ok(false)
        })
        .await?;
        let mut r = completed.unwrap_or_else(|| json!({}));
        if r.get("output").and_then(Value::as_array).is_none_or(|o| o.is_empty()) {
            r["output"] = json!(items);
        }
        Ok(r)
    }
}

pub fn parse_response(v: &Value) -> Result<(Vec<OutputItem>, Vec<OutputRef>, Usage), ModelError> {
    let output = v.get("output").and_then(Value::as_array).ok_or_else(|| ModelError::Protocol {
        provider: LABEL.into(),
        message: format!("no output in {}", v.to_string().chars().take(200).collect::<String>()),
    })?;
    let mut out = vec![];
    let mut refs = vec![];
    for item in output {
        let before = out.len();
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                let text: String = item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect();
                if !text.is_empty() {
                    out.push(OutputItem::Message(text));
                }
            }
            Some("function_call") => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                let args = item.get("arguments").and_then(Value::as_str).unwrap_or("{}");
                check_args(LABEL, &name, args)?;
                let id = item.get("call_id").and_then(Value::as_str).unwrap_or_default().to_owned();
                out.push(OutputItem::Call { name, arguments: normalize_args(args), call_id: id });
            }
            Some("reasoning") => {
                let text: Vec<&str> = item
                    .get("summary")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s.get("text").and_then(Value::as_str))
                    .collect();
                if !text.is_empty() {
                    out.push(OutputItem::Reasoning(text.join("\n")));
                }
            }
            _ => {}
        }
        if out.len() > before {
            // The item's own id and status, which the SDK keeps on the item it builds.
            let text = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
            refs.push(OutputRef { id: text("id"), status: text("status") });
        }
    }
    let usage = Usage {
        input_tokens: v.pointer("/usage/input_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: v.pointer("/usage/output_tokens").and_then(Value::as_u64).unwrap_or(0),
    };
    Ok((out, refs, usage))
}

impl Model for OpenAiResponses {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(self.call(req))
    }
}
