//! Reports of storm runs: one schema, defined once as the types below, for
//! `storm --format json`, the browser's export and what the worker sends the
//! page (which reads them back with the same types).

use serde::{Deserialize, Serialize};

use crate::sim::storm::sweep::Cell;
use crate::sim::storm::{OccRun, OverloadRun, StormSettings};

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// One contention run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OccReport {
    pub calls: u64,
    pub failed_writes: u64,
    pub time_ms: f64,
}

/// One bucket of an overload run's time series.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BucketReport {
    pub t_ms: f64,
    pub intents: u32,
    pub requests: u32,
    pub work: u32,
    pub retries: u32,
    pub completions: u32,
    pub wasted: u32,
    pub acknowledged: u32,
    pub rejected_429: u32,
    pub timeouts: u32,
    pub queue: f64,
    pub in_flight: f64,
    pub in_system: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TotalsReport {
    pub intents: u64,
    pub acknowledged: u64,
    pub exhausted: u64,
    pub requests: u64,
    pub retries: u64,
    pub operations: u64,
    pub wasted_operations: u64,
    pub duplicate_effects: u64,
    pub rejected_429: u64,
    pub timeouts: u64,
    pub replays: u64,
    pub joins: u64,
    pub max_queue: u64,
    pub max_in_flight: u64,
    pub end_ms: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LittlesLaw {
    /// Measured by integrating the intents in the system over the run.
    pub mean_in_system: f64,
    pub arrival_rate_per_s: f64,
    pub mean_residence_ms: f64,
    pub rate_times_residence: f64,
}

/// One overload run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OverloadReport {
    pub totals: TotalsReport,
    pub amplification: f64,
    pub latency_p50_ms: Option<f64>,
    pub latency_p99_ms: Option<f64>,
    pub littles_law: LittlesLaw,
    pub capacity_per_s: f64,
    pub saturated_after_spike_ms: f64,
    pub bucket_ms: f64,
    pub series: Vec<BucketReport>,
}

impl OverloadReport {
    pub fn of(run: &OverloadRun) -> OverloadReport {
        let t = &run.totals;
        let (l, lambda, w, lw) = run.littles_law();
        OverloadReport {
            totals: TotalsReport {
                intents: t.intents,
                acknowledged: t.acknowledged,
                exhausted: t.exhausted,
                requests: t.requests,
                retries: t.retries,
                operations: t.operations,
                wasted_operations: t.wasted,
                duplicate_effects: t.duplicate_effects,
                rejected_429: t.rejected,
                timeouts: t.timeouts,
                replays: t.replays,
                joins: t.joins,
                max_queue: t.max_queue,
                max_in_flight: t.max_in_flight,
                end_ms: ms(t.end_us),
            },
            amplification: run.amplification(),
            latency_p50_ms: run.percentile_us(50).map(ms),
            latency_p99_ms: run.percentile_us(99).map(ms),
            littles_law: LittlesLaw {
                mean_in_system: l,
                arrival_rate_per_s: lambda,
                mean_residence_ms: w,
                rate_times_residence: lw,
            },
            capacity_per_s: run.capacity_per_s,
            saturated_after_spike_ms: ms(run.saturated_after_spike_us()),
            bucket_ms: ms(run.bucket_us),
            series: run
                .series
                .iter()
                .enumerate()
                .map(|(i, b)| BucketReport {
                    t_ms: ms(i as u64 * run.bucket_us),
                    intents: b.intents,
                    requests: b.requests,
                    work: b.work,
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
                .collect(),
        }
    }
}

/// The runs of one command (or one browser run), with their means:
/// `mean_calls` (writes for the contention workload, requests reaching the
/// server for the overload one) and `mean_time_ms` (completion, or the end
/// of the run).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "workload", rename_all = "kebab-case")]
pub enum StormDoc {
    Occ { settings: serde_json::Value, runs: Vec<OccReport>, mean_calls: f64, mean_time_ms: f64 },
    Overload { settings: serde_json::Value, runs: Vec<OverloadReport>, mean_calls: f64, mean_time_ms: f64 },
}

/// Settings as the worker protocol and the storm lab's reports carry them:
/// the one settings writer's object, as a `serde_json` value (whose objects
/// keep their members in name order).
pub fn settings_value(settings: &StormSettings) -> serde_json::Value {
    serde_json::to_value(settings).unwrap_or_default()
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

impl StormDoc {
    pub fn occ(settings: &StormSettings, runs: &[OccRun]) -> StormDoc {
        let runs: Vec<OccReport> = runs
            .iter()
            .map(|r| OccReport { calls: r.calls, failed_writes: r.failed_writes, time_ms: ms(r.completion_us) })
            .collect();
        StormDoc::Occ {
            settings: settings_value(settings),
            mean_calls: mean(runs.iter().map(|r| r.calls as f64)),
            mean_time_ms: mean(runs.iter().map(|r| r.time_ms)),
            runs,
        }
    }

    pub fn overload(settings: &StormSettings, runs: &[OverloadRun]) -> StormDoc {
        let runs: Vec<OverloadReport> = runs.iter().map(OverloadReport::of).collect();
        StormDoc::Overload {
            settings: settings_value(settings),
            mean_calls: mean(runs.iter().map(|r| r.totals.requests as f64)),
            mean_time_ms: mean(runs.iter().map(|r| r.totals.end_ms)),
            runs,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("storm JSON serialises")
    }
}

pub fn occ_json(settings: &StormSettings, runs: &[OccRun]) -> String {
    StormDoc::occ(settings, runs).to_json()
}

pub fn overload_json(settings: &StormSettings, runs: &[OverloadRun]) -> String {
    StormDoc::overload(settings, runs).to_json()
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
    if let StormDoc::Occ { mean_calls, mean_time_ms, .. } = StormDoc::occ(settings, runs) {
        out.push_str(&format!("mean_calls\t{mean_calls:.2}\nmean_time_ms\t{mean_time_ms:.3}\n"));
    }
    out
}

pub fn overload_text(settings: &StormSettings, runs: &[OverloadRun]) -> String {
    let mut out = String::new();
    for (i, run) in runs.iter().enumerate() {
        let r = OverloadReport::of(run);
        let t = &r.totals;
        let law = &r.littles_law;
        let p = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.1} ms"));
        out.push_str(&format!(
            "Run {} (seed {}): {} intents, {} acknowledged, {} exhausted\n\
             requests {} (retries {}), operations {} (wasted {}), duplicate effects {}\n\
             429s {}, timeouts {}, amplification {:.2}, latency p50 {} p99 {}\n\
             max queue {} of {}, max in flight {} of {}, capacity {:.0}/s\n\
             Little's law: mean in system {:.2} vs arrival rate {:.1}/s x mean residence {:.1} ms = {:.2}\n\
             offered load above capacity for {:.0} ms after the spike; run ends at {:.1} ms\n",
            i + 1,
            settings.seed.wrapping_add(i as u64),
            t.intents,
            t.acknowledged,
            t.exhausted,
            t.requests,
            t.retries,
            t.operations,
            t.wasted_operations,
            t.duplicate_effects,
            t.rejected_429,
            t.timeouts,
            r.amplification,
            p(r.latency_p50_ms),
            p(r.latency_p99_ms),
            t.max_queue,
            settings.server.queue,
            t.max_in_flight,
            settings.server.concurrency,
            r.capacity_per_s,
            law.mean_in_system,
            law.arrival_rate_per_s,
            law.mean_residence_ms,
            law.rate_times_residence,
            r.saturated_after_spike_ms,
            t.end_ms,
        ));
    }
    out
}

pub fn sweep_json(seed: u64, reps: u32, cells: &[Cell]) -> String {
    let doc = serde_json::json!({
        "sweep": "aws",
        "seed": seed,
        "reps": reps,
        "cells": cells.iter().map(|c| serde_json::json!({
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
