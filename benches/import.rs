//! Import benchmark: a large OTLP JSON Lines file (1 GB by default; `--quick` 100 MB), the
//! raw `serde_json` parse throughput of the same file, the importer's throughput (parse and
//! reconstruct, no store), and the peak memory of `baton trace import` saving it all.

use std::io::{BufRead, BufReader, Write};

/// The same allocator as the `baton` binary, so the figures are the CLI's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let target_mb: u64 = if quick { 100 } else { 1024 };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    // One run of support-triage, exported as OTLP: each line is a distinct trace.
    let t = baton::config::load(std::path::Path::new("examples/support-triage.yaml")).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let trace = rt.block_on(baton::engine::run_mock(&t, Default::default())).unwrap();
    let line = serde_json::to_string(&baton::trace::to_otlp(&trace)).unwrap();
    let trace_id = baton::trace::to_otlp(&trace)["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"]
        .as_str()
        .unwrap()
        .to_owned();
    let t0 = Instant::now();
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut written = 0u64;
    let mut n = 0u64;
    while written < target_mb << 20 {
        let l = line.replace(&trace_id, &format!("{n:032x}"));
        writeln!(f, "{l}").unwrap();
        written += l.len() as u64 + 1;
        n += 1;
    }
    f.flush().unwrap();
    drop(f);
    let mb = written as f64 / (1 << 20) as f64;
    println!(
        "import benchmark: {mb:.0} MB of OTLP JSON Lines, {n} runs (written in {:.1} s)",
        t0.elapsed().as_secs_f64()
    );

    let t0 = Instant::now();
    let mut r = BufReader::with_capacity(1 << 20, std::fs::File::open(&path).unwrap());
    let mut buf = Vec::new();
    let mut values = 0u64;
    loop {
        buf.clear();
        if r.read_until(b'\n', &mut buf).unwrap() == 0 {
            break;
        }
        let v: serde_json::Value = serde_json::from_slice(buf.trim_ascii()).unwrap();
        std::hint::black_box(&v);
        values += 1;
    }
    let value_parse = mb / t0.elapsed().as_secs_f64();
    println!("serde_json parse into Value, line by line: {value_parse:.1} MB/s ({values} lines)");

    // The baseline the importer is held to: a typed parse of the same spans into owned structs.
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case, dead_code)]
    struct Doc {
        resourceSpans: Vec<Rs>,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case, dead_code)]
    struct Rs {
        scopeSpans: Vec<Ss>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Ss {
        spans: Vec<Sp>,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case, dead_code)]
    struct Sp {
        traceId: String,
        spanId: String,
        #[serde(default)]
        parentSpanId: String,
        name: String,
        startTimeUnixNano: String,
        endTimeUnixNano: String,
        #[serde(default)]
        attributes: Vec<Kv>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Kv {
        key: String,
        value: serde_json::Value,
    }
    let t0 = Instant::now();
    let mut r = BufReader::with_capacity(1 << 20, std::fs::File::open(&path).unwrap());
    let mut spans = 0usize;
    loop {
        buf.clear();
        if r.read_until(b'\n', &mut buf).unwrap() == 0 {
            break;
        }
        let d: Doc = serde_json::from_slice(buf.trim_ascii()).unwrap();
        spans += d.resourceSpans.iter().flat_map(|r| &r.scopeSpans).map(|s| s.spans.len()).sum::<usize>();
        std::hint::black_box(&d);
    }
    let raw = mb / t0.elapsed().as_secs_f64();
    println!("typed serde_json parse of the same spans (owned structs): {raw:.1} MB/s ({spans} spans)");

    let t0 = Instant::now();
    let mut runs = 0u64;
    baton::import::import_file(&path, None, None, None, &mut |t, _| {
        runs += 1;
        std::hint::black_box(&t);
        Ok(())
    })
    .unwrap();
    let imp = mb / t0.elapsed().as_secs_f64();
    println!(
        "importer (parse + reconstruct, no store): {imp:.1} MB/s, {runs} runs = {:.0}% of the typed parse (target >= 50%)",
        100.0 * imp / raw
    );

    // The CLI saving everything to a fresh store, with its peak memory.
    let exe = std::env::current_dir().unwrap().join("target/release/baton");
    if exe.exists() {
        let db = dir.path().join("store.db");
        let t0 = Instant::now();
        let status = std::process::Command::new(&exe)
            .args(["trace", "import", path.to_str().unwrap(), "--quiet", "--db", db.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(status.success());
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes into the struct we own.
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
        println!(
            "baton trace import into SQLite: {:.1} MB/s ({:.0} s), peak RSS {:.1} MB for a {mb:.0} MB file",
            mb / t0.elapsed().as_secs_f64(),
            t0.elapsed().as_secs_f64(),
            ru.ru_maxrss as f64 / 1024.0
        );
    } else {
        println!("(build target/release/baton to measure the CLI with the store: cargo build --release)");
    }
}
