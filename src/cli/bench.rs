//! `idempotency-lab bench`: how fast the core simulates whole runs.
//!
//! Prints figures; asserts nothing. The machine may be busy, so the numbers
//! are for comparison on one machine, not pass/fail.

use std::hint::black_box;
use std::time::Instant;

use crate::sim::ack::settings::{DEDUP, EXEC, FAULT, JITTER, KEY, MAX_ATTEMPTS_PARAM, TIMEOUT};
use crate::sim::ack::{Settings, Workspace};
use crate::sim::params::Kind;

pub const DEFAULT_RUNS: u64 = 100_000;
pub const MAX_RUNS: u64 = 100_000_000;

/// A fixed, varied set: every fault, deduplication on and off, both key
/// modes, jitter on and off, and timeouts both longer and shorter than the
/// server's execution time.
pub fn workload() -> Vec<Settings> {
    let mut set = Vec::new();
    let Kind::Choice(faults) = FAULT.kind else { unreachable!("fault is a choice") };
    for fault in faults {
        for dedup in ["on", "off"] {
            for key in ["stable", "per-attempt"] {
                for jitter in ["off", "full"] {
                    for (timeout, exec) in [("3000", "2000"), ("1000", "2500")] {
                        let pairs = [
                            (&FAULT, fault.value),
                            (&DEDUP, dedup),
                            (&KEY, key),
                            (&JITTER, jitter),
                            (&TIMEOUT, timeout),
                            (&EXEC, exec),
                            (&MAX_ATTEMPTS_PARAM, "5"),
                        ];
                        set.push(Settings::from_pairs(&pairs).expect("bench settings are valid"));
                    }
                }
            }
        }
    }
    set
}

pub struct Figures {
    pub runs: u64,
    pub events: u64,
    pub seconds: f64,
}

impl Figures {
    pub fn render(&self) -> String {
        let per_second = |n: u64| {
            if self.seconds > 0.0 { n as f64 / self.seconds } else { f64::INFINITY }
        };
        format!(
            "runs\t{}\nevents\t{}\nseconds\t{:.3}\ncore runs/s\t{:.0}\ncore events/s\t{:.0}\ncore ns/run\t{:.0}\n",
            self.runs,
            self.events,
            self.seconds,
            per_second(self.runs),
            per_second(self.events),
            self.seconds * 1e9 / self.runs as f64,
        )
    }
}

pub fn run(runs: u64) -> Figures {
    let workload = workload();
    let mut workspace = Workspace::default();
    let mut events = 0u64;
    let started = Instant::now();
    for i in 0..runs {
        let settings = &workload[(i % workload.len() as u64) as usize];
        // Every workload entry is valid, so a run cannot fail; count nothing if it did.
        if let Ok(summary) = workspace.simulate(black_box(settings)) {
            events += workspace.records().len() as u64;
            black_box(&summary);
        }
    }
    Figures { runs, events, seconds: started.elapsed().as_secs_f64() }
}
