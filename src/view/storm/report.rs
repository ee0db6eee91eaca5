//! Reports of storm runs. One schema for `storm --format json` and the
//! browser's export.

use serde::Serialize;
use serde_json::json;

use crate::sim::storm::sweep::Cell;
use crate::sim::storm::{OccRun, OverloadRun, StormSettings};

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// Means of several occ runs: (mean calls, mean time in ms).
pub fn occ_means(runs: &[OccRun]) -> (f64, f64) {
    let n = runs.len().max(1) as f64;
    let calls = runs.iter().map(|r| r.calls as f64).sum::<f64>() / n;
    let time = runs.iter().map(|r| ms(r.completion_us)).sum::<f64>() / n;
    (calls, time)
}

pub fn occ_json(settings: &StormSettings, runs: &[OccRun]) -> String {
    let (mean_calls, mean_time_ms) = occ_means(runs);
    let doc = json!({
        "workload": "occ",
        "settings": settings,
        "runs": runs.iter().map(|r| json!({
            "calls": r.calls,
            "failed_writes": r.failed_writes,
            "time_ms": ms(r.completion_us),
        })).collect::<Vec<_>>(),
        "mean_calls": mean_calls,
        "mean_time_ms": mean_time_ms,
    });
    serde_json::to_string_pretty(&doc).expect("storm JSON serialises")
}

pub fn occ_text(settings: &StormSettings, runs: &[OccRun]) -> String {
    let mut out = format!(
        "Optimistic concurrency: {} clients, {} backoff (base {} ms, cap {} ms), seed {}\n",
        settings.occ.clients,
        settings.occ.backoff.algorithm.name(),
        settings.occ.backoff.base_us / 1000,
        settings.occ.backoff.cap_us / 1000,
        settings.seed
    );
    out.push_str("run\tcalls\tfailed writes\ttime (ms)\n");
    for (i, r) in runs.iter().enumerate() {
        out.push_str(&format!("{}\t{}\t{}\t{:.3}\n", i + 1, r.calls, r.failed_writes, ms(r.completion_us)));
    }
    let (calls, time) = occ_means(runs);
    out.push_str(&format!("mean_calls\t{calls:.2}\nmean_time_ms\t{time:.3}\n"));
    out
}

#[derive(Serialize)]
struct BucketJson {
    t_ms: f64,
    intents: u32,
    requests: u32,
    retries: u32,
    completions: u32,
    wasted: u32,
    acknowledged: u32,
    rejected_429: u32,
    timeouts: u32,
    queue: f64,
    in_flight: f64,
    in_system: f64,
}

/// The figures of one overload run, as the JSON report names them.
pub fn overload_value(run: &OverloadRun) -> serde_json::Value {
    let t = &run.totals;
    let (l, lambda, w, lw) = run.littles_law();
    let series: Vec<BucketJson> = run
        .series
        .iter()
        .enumerate()
        .map(|(i, b)| BucketJson {
            t_ms: ms(i as u64 * run.bucket_us),
            intents: b.intents,
            requests: b.requests,
            retries: b.retries,
            completions: b.completions,
            wasted: b.wasted,
            acknowledged: b.acknowledged,
            rejected_429: b.rejected,
            timeouts: b.timeouts,
            queue: b.queue,
            in_flight: b.in_flight,
            in_system: b.in_system,
        })
        .collect();
    json!({
        "totals": {
            "intents": t.intents,
            "acknowledged": t.acknowledged,
            "exhausted": t.exhausted,
            "requests": t.requests,
            "retries": t.retries,
            "operations": t.operations,
            "wasted_operations": t.wasted,
            "duplicate_effects": t.duplicate_effects,
            "rejected_429": t.rejected,
            "timeouts": t.timeouts,
            "replays": t.replays,
            "joins": t.joins,
            "max_queue": t.max_queue,
            "max_in_flight": t.max_in_flight,
            "end_ms": ms(t.end_us),
        },
        "amplification": run.amplification(),
        "latency_p50_ms": run.percentile_us(50).map(ms),
        "latency_p99_ms": run.percentile_us(99).map(ms),
        "littles_law": {
            "mean_in_system": l,
            "arrival_rate_per_s": lambda,
            "mean_residence_ms": w,
            "rate_times_residence": lw,
        },
        "capacity_per_s": run.capacity_per_s,
        "saturated_after_spike_ms": ms(run.saturated_after_spike_us()),
        "bucket_ms": ms(run.bucket_us),
        "series": series,
    })
}

pub fn overload_json(settings: &StormSettings, runs: &[OverloadRun]) -> String {
    let n = runs.len().max(1) as f64;
    let mean_calls = runs.iter().map(|r| r.totals.requests as f64).sum::<f64>() / n;
    let mean_time_ms = runs.iter().map(|r| ms(r.totals.end_us)).sum::<f64>() / n;
    let doc = json!({
        "workload": "overload",
        "settings": settings,
        "runs": runs.iter().map(overload_value).collect::<Vec<_>>(),
        "mean_calls": mean_calls,
        "mean_time_ms": mean_time_ms,
    });
    serde_json::to_string_pretty(&doc).expect("storm JSON serialises")
}

pub fn overload_text(settings: &StormSettings, runs: &[OverloadRun]) -> String {
    let mut out = String::new();
    for (i, run) in runs.iter().enumerate() {
        let t = &run.totals;
        let (l, lambda, w, lw) = run.littles_law();
        let p = |q| run.percentile_us(q).map_or("-".to_owned(), |v| format!("{:.1} ms", ms(v)));
        out.push_str(&format!(
            "Run {} (seed {}): {} intents, {} acknowledged, {} exhausted\n\
             requests {} (retries {}), operations {} (wasted {}), duplicate effects {}\n\
             429s {}, timeouts {}, amplification {:.2}, latency p50 {} p99 {}\n\
             max queue {} of {}, max in flight {} of {}, capacity {:.0}/s\n\
             Little's law: mean in system {:.2} vs arrival rate {:.1}/s x mean residence {:.1} ms = {:.2}\n\
             offered load above capacity for {:.0} ms after the spike; run ends at {:.1} ms\n",
            i + 1,
            settings.seed,
            t.intents,
            t.acknowledged,
            t.exhausted,
            t.requests,
            t.retries,
            t.operations,
            t.wasted,
            t.duplicate_effects,
            t.rejected,
            t.timeouts,
            run.amplification(),
            p(50),
            p(99),
            t.max_queue,
            settings.server.queue,
            t.max_in_flight,
            settings.server.concurrency,
            run.capacity_per_s,
            l,
            lambda,
            w,
            lw,
            ms(run.saturated_after_spike_us()),
            ms(t.end_us),
        ));
    }
    out
}

pub fn sweep_json(seed: u64, reps: u32, cells: &[Cell]) -> String {
    let doc = json!({
        "sweep": "aws",
        "seed": seed,
        "reps": reps,
        "cells": cells.iter().map(|c| json!({
            "clients": c.clients,
            "algorithm": c.algorithm.name(),
            "mean_calls": c.mean_calls,
            "mean_time_ms": c.mean_time_ms,
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&doc).expect("sweep JSON serialises")
}

pub fn sweep_text(seed: u64, reps: u32, cells: &[Cell]) -> String {
    let mut out =
        format!("AWS sweep, {reps} runs per cell, seed {seed}\nclients\talgorithm\tmean_calls\tmean_time_ms\n");
    for c in cells {
        out.push_str(&format!("{}\t{}\t{:.2}\t{:.3}\n", c.clients, c.algorithm.name(), c.mean_calls, c.mean_time_ms));
    }
    out
}
