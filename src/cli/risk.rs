//! `idempotency-lab risk`: the risk-review lab on the command line. Text
//! output is the mirror at `--at-ms` (default: the horizon), then every
//! event with its wall clock; JSON is the whole run.

use std::hint::black_box;
use std::time::Instant;

use crate::sim::Millis;
use crate::sim::risk::settings::{BURST_CALLS, MODE, PRESET};
use crate::sim::risk::{Run, Settings, Workspace};
use crate::view::risk::{clock, run_to_json, sentence, text_mirror};

use super::args::{self, Format, UsageError};

fn help() -> String {
    let mut out = String::from(
        "idempotency-lab risk: the risk-review lab (one timeout, two reviews; and the patterns that prevent it)\n\n\
         Usage:\n  idempotency-lab risk [options]\n\n\
         --mode sets all eight pattern switches; a switch given on its own (on or off) overrides the mode,\n\
         and auto follows it. Model time 0 is 10:31:08.120 on the incident's wall clock.\n\nOptions:\n",
    );
    out.push_str(&args::params_help::<Settings>());
    out.push_str(
        "  --settings FILE         read settings from a JSON file first; flags override it\n  \
         --format text|json      text: the state at --at-ms, then every event (default text)\n  \
         --at-ms T               the model time the text state describes (default: the horizon)\n",
    );
    out
}

/// Runs `idempotency-lab risk` with `args` (after the command name).
pub fn command(args: &[String]) -> Result<String, UsageError> {
    let parsed = args::parse_lab::<Settings>("risk", args, &[])?;
    if parsed.help {
        return Ok(help());
    }
    let settings = parsed.settings;
    let run = Run::simulate(&settings).map_err(|e| UsageError(format!("the run could not finish: {e}")))?;
    let horizon = run.horizon().ms();
    if let Some(t) = parsed.at_ms
        && t > horizon
    {
        return Err(UsageError(format!(
            "--at-ms: {t} is beyond the run; allowed: a whole number from 0 to {horizon} (the horizon)"
        )));
    }
    Ok(match parsed.format {
        Format::Json => {
            let mut doc = run_to_json(&run);
            doc.push('\n');
            doc
        }
        Format::Text => {
            let mut out = text_mirror(&run, Millis(parsed.at_ms.unwrap_or(horizon)));
            out.push_str("\nEvents:\n");
            for r in run.records() {
                out.push_str(&format!(
                    "{}  {:>9}  {:<13} {:<18} {}\n",
                    clock(r.t),
                    r.t.to_string(),
                    r.actor.name(),
                    r.kind(),
                    sentence(r)
                ));
            }
            out
        }
    })
}

/// Whole runs of the overload preset (200 calls), patterns and naive,
/// keeping their event lists, for about a second each; prints
/// tab-separated figures.
pub fn bench() -> String {
    let mut out = String::new();
    for mode in ["patterns", "naive"] {
        let settings = Settings::from_pairs(&[(&PRESET, "overload"), (&MODE, mode), (&BURST_CALLS, "200")])
            .expect("bench settings are valid");
        let mut workspace = Workspace::default();
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
            "overload {mode} runs\t{runs}\noverload {mode} events per run\t{}\noverload {mode} records per run\t{}\n\
             overload {mode} seconds\t{seconds:.3}\noverload {mode} events/s\t{:.0}\n\
             overload {mode} records/s\t{:.0}\noverload {mode} us/run\t{:.1}\n",
            events / runs,
            records / runs,
            rate(events),
            rate(records),
            seconds * 1e6 / runs as f64,
        ));
    }
    out
}
