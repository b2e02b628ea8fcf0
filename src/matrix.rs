//! `baton matrix`: one topology across models. Every combination of the varied agents' models
//! runs every chosen scenario `repeat` times (concurrently, with a per-provider start rate), and
//! each cell reports outcomes, expectations passed, facts lost, tokens, cost (from the user's own
//! price table: no built-in prices that go stale), latency p50/p95 and the providers' retries.

use crate::error::{ApiError, ErrorCode};
use crate::testing::check;
use crate::topology::{Provider, Topology};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Price of a model, per million tokens, as the user keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

/// What to run.
#[derive(Clone, Default)]
pub struct MatrixSpec {
    /// Agent id → the `PROVIDER:MODEL[@URL]`s it tries.
    pub vary: Vec<(String, Vec<String>)>,
    /// Scenario names (all when empty).
    pub scenarios: Vec<String>,
    pub repeat: u32,
    /// Runs at once.
    pub concurrency: usize,
    /// At most this many runs start per second per provider (none: no limit).
    pub rate_per_provider: Option<f64>,
    /// `PROVIDER:MODEL` → price (models without one have no cost).
    pub prices: BTreeMap<String, Price>,
    /// Save every run here (the app's matrix view opens them).
    pub store: Option<crate::store::Store>,
}

/// One run of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CellRun {
    pub status: String,
    pub reason: String,
    pub expectations_passed: u32,
    pub expectations: u32,
    /// The expectations that failed, each with why.
    #[serde(default)]
    pub failures: Vec<crate::testing::Failure>,
    pub facts_lost: u32,
    #[ts(type = "number")]
    pub tokens: u64,
    pub cost: Option<f64>,
    #[ts(type = "number")]
    pub latency_ms: u64,
    #[ts(type = "number")]
    pub retries: u64,
    /// The run in the store, when the matrix saved its runs (the app opens a cell's run).
    pub run_id: Option<String>,
}

/// One combination on one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Cell {
    /// Agent id → the model it ran on.
    pub models: BTreeMap<String, String>,
    pub scenario: String,
    pub runs: Vec<CellRun>,
    pub completed: u32,
    pub expectations_passed: u32,
    pub expectations: u32,
    pub facts_lost: u32,
    #[ts(type = "number")]
    pub tokens: u64,
    /// Total cost, when every model of the cell has a price.
    pub cost: Option<f64>,
    #[ts(type = "number")]
    pub p50_ms: u64,
    #[ts(type = "number")]
    pub p95_ms: u64,
    #[ts(type = "number")]
    pub retries: u64,
}

impl Cell {
    /// The cost as a report shows it.
    pub fn cost_text(&self) -> String {
        self.cost.map(|x| format!("${x:.4}")).unwrap_or_else(|| "no price".into())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct MatrixReport {
    pub topology: String,
    pub cells: Vec<Cell>,
}

/// Agents that are not varied answer from the scenario's mock scripts.
pub fn mock_the_rest(t: &mut Topology, vary: &[(String, Vec<String>)]) {
    for a in t.agents.iter_mut().filter(|a| !vary.iter().any(|(v, _)| v == &a.id)) {
        a.model = Some(crate::topology::ModelRef::mock());
    }
}

/// Every combination of the varied agents' models.
fn combinations(vary: &[(String, Vec<String>)]) -> Vec<BTreeMap<String, String>> {
    let mut out = vec![BTreeMap::new()];
    for (agent, models) in vary {
        out = out
            .into_iter()
            .flat_map(|c| {
                models.iter().map(move |m| {
                    let mut c = c.clone();
                    c.insert(agent.clone(), m.clone());
                    c
                })
            })
            .collect();
    }
    out
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Spaces run starts per provider.
struct RateLimiter {
    every: Option<Duration>,
    next: tokio::sync::Mutex<HashMap<String, Instant>>,
}

impl RateLimiter {
    async fn wait(&self, providers: &[String]) {
        let Some(every) = self.every else { return };
        for p in providers {
            let at = {
                let mut next = self.next.lock().await;
                let now = Instant::now();
                let at = next.get(p).copied().filter(|t| *t > now).unwrap_or(now);
                next.insert(p.clone(), at + every);
                at
            };
            tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await;
        }
    }
}

/// Runs the matrix; `progress(done, total)` after each run.
pub async fn run_matrix(
    t: &Topology,
    spec: &MatrixSpec,
    progress: Arc<dyn Fn(usize, usize) + Send + Sync>,
) -> Result<MatrixReport, ApiError> {
    for (agent, models) in &spec.vary {
        if t.agent(agent).is_none() {
            return Err(ApiError::new(
                ErrorCode::ApiArgs,
                format!(
                    "--vary {agent}=…: no agent '{agent}' in {} (agents: {})",
                    t.name,
                    t.agents.iter().map(|a| a.id.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        for m in models {
            crate::fork::model_ref(m)?;
        }
    }
    let scenarios: Vec<String> = if spec.scenarios.is_empty() {
        t.scenarios.iter().map(|s| s.name.clone()).collect()
    } else {
        for s in &spec.scenarios {
            if t.scenario(Some(s)).is_none() {
                return Err(ApiError::new(
                    ErrorCode::ApiArgs,
                    format!("--scenario {s}: {} has no such scenario", t.name),
                ));
            }
        }
        spec.scenarios.clone()
    };
    let combos = combinations(&spec.vary);
    let repeat = spec.repeat.max(1);
    let total = combos.len() * scenarios.len() * repeat as usize;
    let gate = Arc::new(tokio::sync::Semaphore::new(spec.concurrency.max(1)));
    let limiter = Arc::new(RateLimiter {
        every: spec.rate_per_provider.filter(|r| *r > 0.0).map(|r| Duration::from_secs_f64(1.0 / r)),
        next: Default::default(),
    });
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for (ci, combo) in combos.iter().enumerate() {
        let mut topo = t.clone();
        for (agent, m) in combo {
            let model = crate::fork::model_ref(m)?;
            if let Some(a) = topo.agents.iter_mut().find(|a| &a.id == agent) {
                a.model = Some(model);
            }
        }
        let topo = Arc::new(topo);
        for (si, scenario) in scenarios.iter().enumerate() {
            for r in 0..repeat {
                let (topo, gate, limiter, done, progress) =
                    (topo.clone(), gate.clone(), limiter.clone(), done.clone(), progress.clone());
                let (scenario, prices, store) = (scenario.clone(), spec.prices.clone(), spec.store.clone());
                tasks.spawn(async move {
                    let _permit = gate.acquire_owned().await.expect("open");
                    let providers: Vec<String> = topo
                        .agents
                        .iter()
                        .filter_map(|a| a.model.as_ref())
                        .filter(|m| m.provider != Provider::Mock)
                        .map(|m| m.provider.as_str().to_owned())
                        .collect();
                    limiter.wait(&providers).await;
                    let run = one_run(&topo, &scenario, &prices, store.as_ref()).await;
                    progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
                    (ci, si, r, run)
                });
            }
        }
    }
    let mut results: Vec<(usize, usize, u32, CellRun)> = vec![];
    while let Some(r) = tasks.join_next().await {
        results.push(r.map_err(|e| ApiError::new(ErrorCode::ApiInternal, format!("a matrix run stopped: {e}")))?);
    }
    results.sort_by_key(|(c, s, r, _)| (*c, *s, *r));
    let mut cells = vec![];
    for (ci, combo) in combos.iter().enumerate() {
        for (si, scenario) in scenarios.iter().enumerate() {
            let runs: Vec<CellRun> =
                results.iter().filter(|(c, s, _, _)| *c == ci && *s == si).map(|(_, _, _, r)| r.clone()).collect();
            let mut lat: Vec<u64> = runs.iter().map(|r| r.latency_ms).collect();
            lat.sort_unstable();
            let cost = runs.iter().map(|r| r.cost).sum::<Option<f64>>();
            cells.push(Cell {
                models: combo.clone(),
                scenario: scenario.clone(),
                completed: runs.iter().filter(|r| r.status == "completed").count() as u32,
                expectations_passed: runs.iter().map(|r| r.expectations_passed).sum(),
                expectations: runs.iter().map(|r| r.expectations).sum(),
                facts_lost: runs.iter().map(|r| r.facts_lost).sum(),
                tokens: runs.iter().map(|r| r.tokens).sum(),
                cost,
                p50_ms: percentile(&lat, 50.0),
                p95_ms: percentile(&lat, 95.0),
                retries: runs.iter().map(|r| r.retries).sum(),
                runs,
            });
        }
    }
    Ok(MatrixReport { topology: t.name.clone(), cells })
}

async fn one_run(
    t: &Topology,
    scenario: &str,
    prices: &BTreeMap<String, Price>,
    store: Option<&crate::store::Store>,
) -> CellRun {
    let sc = t.scenario(Some(scenario)).cloned().unwrap_or_default();
    let live = t.agents.iter().any(|a| a.model.as_ref().is_some_and(|m| m.provider != Provider::Mock));
    let t0 = Instant::now();
    let (result, retries) = crate::testing::run_scenario(t, &sc, live).await;
    let latency_ms = t0.elapsed().as_millis() as u64;
    match result {
        Err(e) => CellRun {
            status: "error".into(),
            reason: e.message,
            expectations_passed: 0,
            expectations: 0,
            failures: vec![],
            facts_lost: 0,
            tokens: 0,
            cost: None,
            latency_ms,
            retries,
            run_id: None,
        },
        Ok(trace) => {
            let run_id = match store {
                Some(s) => s.save_trace(&trace).await.ok(),
                None => None,
            };
            let (n, failures) = check(t, &sc.expect, &trace);
            // Cost per call, from the model that made it.
            let def = trace.definition.as_ref().unwrap_or(t);
            let mut cost = Some(0.0);
            for s in trace.steps.iter().filter(|s| s.usage.is_some()) {
                let u = s.usage.expect("filtered");
                let price = def
                    .agent(&s.agent)
                    .and_then(|a| a.model.as_ref())
                    .and_then(|m| prices.get(&format!("{}:{}", m.provider.as_str(), m.name)));
                cost = match (cost, price) {
                    (Some(c), Some(p)) => Some(
                        c + u.input_tokens as f64 * p.input_per_mtok / 1e6
                            + u.output_tokens as f64 * p.output_per_mtok / 1e6,
                    ),
                    _ => None,
                };
            }
            CellRun {
                status: trace.outcome.status.as_str().into(),
                reason: trace.outcome.reason.clone(),
                expectations_passed: n - failures.len() as u32,
                expectations: n,
                failures,
                facts_lost: trace
                    .transfers
                    .iter()
                    .flat_map(|tr| tr.facts.iter())
                    .filter(|f| f.status == crate::context::FactStatus::Lost)
                    .count() as u32,
                tokens: trace.usage.input_tokens + trace.usage.output_tokens,
                cost,
                latency_ms,
                retries,
                run_id,
            }
        }
    }
}

/// The report as a self-contained HTML page: the table and a bar chart of p50 latency (inline SVG).
pub fn html(r: &MatrixReport) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let label = |c: &Cell| c.models.iter().map(|(a, m)| format!("{a}={m}")).collect::<Vec<_>>().join(", ");
    let max = r.cells.iter().map(|c| c.p50_ms).max().unwrap_or(1).max(1) as f64;
    let mut rows = String::new();
    let mut bars = String::new();
    for (i, c) in r.cells.iter().enumerate() {
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            esc(&label(c)),
            esc(&c.scenario),
            c.completed,
            c.runs.len(),
            c.expectations_passed,
            c.expectations,
            c.facts_lost,
            c.tokens,
            c.cost_text(),
            c.p50_ms,
            c.p95_ms,
            c.retries
        ));
        let w = (c.p50_ms as f64 / max * 400.0).max(1.0);
        let y = i * 22;
        bars.push_str(&format!(
            "<rect x=\"0\" y=\"{y}\" width=\"{w:.0}\" height=\"16\" fill=\"#6172f3\"><title>{} · {}: p50 {} ms</title></rect><text x=\"{:.0}\" y=\"{}\" font-size=\"11\">{} ms</text>\n",
            esc(&label(c)),
            esc(&c.scenario),
            c.p50_ms,
            w + 4.0,
            y + 12,
            c.p50_ms
        ));
    }
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Baton matrix: {t}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:24px}}table{{border-collapse:collapse}}td,th{{border:1px solid #ddd;padding:4px 8px;text-align:left}}</style></head>\n<body><h1>{t}</h1>\n<table><tr><th>models</th><th>scenario</th><th>completed</th><th>expectations</th><th>facts lost</th><th>tokens</th><th>cost</th><th>p50 ms</th><th>p95 ms</th><th>retries</th></tr>\n{rows}</table>\n<h2>Latency (p50)</h2>\n<svg width=\"520\" height=\"{}\">\n{bars}</svg>\n</body></html>\n",
        r.cells.len() * 22 + 10,
        t = esc(&r.topology)
    )
}
