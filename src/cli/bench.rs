//! `idempotency-lab bench`: how fast the core simulates whole runs.
//!
//! Prints figures; asserts nothing. The machine may be busy, so the numbers
//! are for comparison on one machine, not pass/fail.

use std::hint::black_box;
use std::time::Instant;

use crate::sim::ack::settings::{DEDUP, EXEC, FAULT, JITTER, KEY, MAX_ATTEMPTS_PARAM, TIMEOUT};
use crate::sim::ack::{Settings, Workspace};
use crate::sim::params::{Kind, ParamDef, Schema};
use crate::sim::risk::settings::{MODE, PRESET};
use crate::view::lab::LabModel;

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
                        let pairs: [(&'static ParamDef, &str); 7] = [
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
    /// Whole runs keeping their event lists.
    pub seconds: f64,
    /// The same runs keeping only summaries and ledgers.
    pub summary_seconds: f64,
}

impl Figures {
    pub fn render(&self) -> String {
        let per_second = |n: u64, seconds: f64| if seconds > 0.0 { n as f64 / seconds } else { f64::INFINITY };
        format!(
            "runs\t{}\nevents\t{}\nseconds\t{:.3}\ncore runs/s\t{:.0}\ncore events/s\t{:.0}\ncore ns/run\t{:.0}\n\
             summary-only seconds\t{:.3}\nsummary-only runs/s\t{:.0}\nsummary-only events/s\t{:.0}\n",
            self.runs,
            self.events,
            self.seconds,
            per_second(self.runs, self.seconds),
            per_second(self.events, self.seconds),
            self.seconds * 1e9 / self.runs as f64,
            self.summary_seconds,
            per_second(self.runs, self.summary_seconds),
            per_second(self.events, self.summary_seconds),
        )
    }
}

/// Simulates `runs` runs of the workload, first keeping every event list
/// (what the browser and `run` need), then keeping only summaries and
/// ledgers (what the crash matrix and sweeps need).
pub fn run(runs: u64) -> Figures {
    let workload = workload();
    let pick = |i: u64| &workload[(i % workload.len() as u64) as usize];
    let mut workspace = Workspace::default();
    let mut events = 0u64;
    let started = Instant::now();
    for i in 0..runs {
        // Every workload entry is valid, so a run cannot fail; count nothing if it did.
        if let Ok(summary) = workspace.simulate(black_box(pick(i))) {
            events += workspace.records().len() as u64;
            black_box(&summary);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut workspace = Workspace::summaries_only();
    let started = Instant::now();
    for i in 0..runs {
        black_box(&workspace.simulate(black_box(pick(i))));
    }
    Figures { runs, events, seconds, summary_seconds: started.elapsed().as_secs_f64() }
}

/// Whole runs of the overload (200 calls) and wide-fleet (1 280) presets, patterns and naive,
/// keeping their event lists, for about a second each; prints
/// tab-separated figures.
pub fn risk() -> String {
    let mut out = String::new();
    for (preset, mode) in
        [("overload", "patterns"), ("overload", "naive"), ("wide-fleet", "patterns"), ("wide-fleet", "naive")]
    {
        let settings = crate::sim::risk::Settings::from_pairs(&[(&PRESET, preset), (&MODE, mode)])
            .expect("bench settings are valid");
        let mut workspace = crate::sim::risk::Workspace::default();
        let (mut runs, mut events, mut records) = (0u64, 0u64, 0u64);
        let started = Instant::now();
        while runs < 10 || started.elapsed().as_secs_f64() < 1.0 {
            // Valid settings always finish; count nothing if one did not.
            if let Ok(summary) = workspace.simulate(black_box(&settings)) {
                events += summary.events as u64;
                records += workspace.records().len() as u64;
            }
            runs += 1;
        }
        let seconds = started.elapsed().as_secs_f64();
        let rate = |n: u64| if seconds > 0.0 { n as f64 / seconds } else { f64::INFINITY };
        out.push_str(&format!(
            "{preset} {mode} runs\t{runs}\n{preset} {mode} events per run\t{}\n{preset} {mode} records per run\t{}\n\
             {preset} {mode} seconds\t{seconds:.3}\n{preset} {mode} events/s\t{:.0}\n\
             {preset} {mode} records/s\t{:.0}\n{preset} {mode} us/run\t{:.1}\n",
            events / runs,
            records / runs,
            rate(events),
            rate(records),
            seconds * 1e6 / runs as f64,
        ));
    }
    out
}

/// Explores one space again and again for about a second; prints its size
/// and schedules per second, tab-separated.
fn time_exploring(name: &str, mut once: impl FnMut() -> u64) -> String {
    let (mut schedules, mut times) = (0u64, 0u64);
    let started = Instant::now();
    while times < 3 || started.elapsed().as_secs_f64() < 1.0 {
        schedules += black_box(once());
        times += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    format!(
        "explore {name} schedules\t{}\nexplore {name} ms per whole space\t{:.1}\nexplore {name} schedules/s\t{:.0}\n",
        schedules / times,
        seconds * 1e3 / times as f64,
        schedules as f64 / seconds
    )
}

/// The explorer's speed on the first lab's opening settings, at most
/// three faults.
pub fn ack_explore() -> String {
    let settings = Settings::default();
    time_exploring("ack k=3", || crate::sim::ack::explore::explore(&settings, 3, |_, _| true).explored)
}

/// A trace of `spans` spans, four per intent: the first lab's run with
/// deduplication off (client, two attempts, server operations, ledger
/// writes) repeated with a trace id of its own each time, cut to `spans`.
pub fn trace_file(spans: usize) -> String {
    use crate::sim::trace::span::TraceId;
    let one = crate::view::ack::otlp::trace_of(
        &crate::sim::ack::Run::simulate(&Settings::from_pairs(&[(DEDUP.def(), "off")]).unwrap_or_default())
            .unwrap_or_else(|_| unreachable!("the deduplication-off run finishes")),
    );
    let mut trace = crate::sim::trace::Trace { services: one.services.clone(), spans: Vec::with_capacity(spans) };
    let mut n = 0u64;
    while trace.spans.len() < spans {
        n += 1;
        for s in one.spans.iter().take(spans - trace.spans.len()) {
            let mut s = s.clone();
            s.trace_id = TraceId((u128::from(n) << 64 | 0x1).to_be_bytes());
            trace.spans.push(s);
        }
    }
    // One line: strings hold no raw newline, so each line's indentation is
    // only layout.
    crate::sim::trace::write::to_otlp_json(&trace).lines().map(str::trim_start).collect::<String>() + "\n"
}

/// How long a trace of `spans` spans takes to read and check.
pub fn trace(spans: usize) -> String {
    use crate::sim::trace::{Findings, Limits, Rules, checks, read};
    let text = trace_file(spans);
    let started = Instant::now();
    let reading = read(&text, Limits::default());
    let read_s = started.elapsed().as_secs_f64();
    let reading = match reading {
        Ok(reading) => reading,
        Err(e) => return format!("trace: the generated trace could not be read: {e}\n"),
    };
    let started = Instant::now();
    let f = Findings::of(reading, &Rules::default());
    let verdicts = black_box(checks::checks(&f));
    let _ = black_box(checks::where_it_broke(&f));
    let check_s = started.elapsed().as_secs_f64();
    format!(
        "trace: {} spans ({:.1} MB) read in {:.3} s, intents and checks in {:.3} s ({} checks, {} intents)\n",
        f.trace.spans.len(),
        text.len() as f64 / 1e6,
        read_s,
        check_s,
        verdicts.len(),
        f.intents.len()
    )
}

/// The explorer's speed on the risk incident and the overload burst, every
/// pattern on, at most two faults.
pub fn risk_explore() -> String {
    let mut out = String::new();
    for preset in ["incident", "overload"] {
        let settings = crate::sim::risk::Settings::from_pairs(&[(&PRESET, preset), (&MODE, "patterns")])
            .expect("bench settings are valid");
        out += &time_exploring(&format!("risk {preset} k=2"), || {
            crate::sim::risk::explore::explore(&settings, 2, |_, _| true).explored
        });
    }
    out
}

/// Any lab's whole runs of its opening settings: `runs` of them (at most
/// about a second's worth), tab-separated.
pub fn whole_runs<L: LabModel>(runs: u64) -> String {
    let settings = L::Settings::opening();
    let (mut done, mut failed) = (0u64, 0u64);
    let started = Instant::now();
    while done < runs && (done < 10 || started.elapsed().as_secs_f64() < 1.0) {
        failed += u64::from(black_box(L::simulate(black_box(&settings))).is_err());
        done += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 { done as f64 / seconds } else { f64::INFINITY };
    format!("runs\t{done}\nfailed runs\t{failed}\nseconds\t{seconds:.3}\ncore runs/s\t{rate:.0}\n")
}
