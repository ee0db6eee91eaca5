//! `idempotency-lab storms`: retry storms on the command line: one workload
//! run (or `--reps` of them, with their means), or the AWS experiment's
//! published sweep.

use std::time::Instant;

use crate::sim::rng::Rng;
use crate::sim::storm::settings::{StormSettings, Workload};
use crate::sim::storm::sweep::{Cell, aws_sweep};
use crate::sim::storm::{OccRunner, OverloadRun};
use crate::sim::{ParamDef, Schema};
use crate::view::storm::{occ_json, occ_text, overload_json, overload_text, sweep_json, sweep_text};

use super::args::{self, Extra, Format, UsageError, parse_count, refuse};

/// The most runs one command may ask for.
pub const MAX_REPS: u64 = 10_000;

fn extras() -> [Extra; 2] {
    [
        Extra { flag: "--reps", allowed: format!("a whole number from 1 to {MAX_REPS}") },
        Extra { flag: "--sweep", allowed: "aws".to_owned() },
    ]
}

pub fn help() -> String {
    let mut out = "idempotency-lab storms: many clients retrying against one server\n\n\
         Usage:\n  idempotency-lab storms [options]             one run of the workload\n  \
         idempotency-lab storms --reps N [options]    N runs (seeds from --seed on) and their means\n  \
         idempotency-lab storms --sweep aws [--reps N] the AWS experiment's sweep (default 100 runs per cell)\n\n\
         Options (omitted ones take the defaults):\n"
        .to_owned();
    out.push_str(&args::params_help::<StormSettings>());
    out.push_str(
        "  --reps N                1 to 10000 runs\n  --sweep aws             clients 10 to 190 by 10, all five algorithms\n  \
         --settings FILE         read settings from a JSON file first; flags override it\n  \
         --format text|json      output format (default text)\n",
    );
    out
}

/// A flag that only the other workload has is refused, not ignored.
fn refuse_other_workloads(given: &[&'static ParamDef], workload: Workload) -> Result<(), UsageError> {
    for param in given {
        if !crate::view::storm::presets::relevant(param, workload) {
            let other = match workload {
                Workload::Occ => Workload::Overload,
                Workload::Overload => Workload::Occ,
            };
            return Err(UsageError(format!(
                "{}: the {} workload has no such setting; allowed: leave it out, or --workload {}",
                param.flag,
                workload.value(),
                other.value()
            )));
        }
    }
    Ok(())
}

fn seed_of(base: u64, rep: u64) -> u64 {
    // Consecutive runs use consecutive seeds, so run k of `--reps` can be
    // replayed alone with `--seed base+k`.
    base.wrapping_add(rep) & crate::sim::storm::settings::MAX_SEED
}

pub fn command(raw_args: &[String]) -> Result<String, UsageError> {
    let parsed = args::parse_lab::<StormSettings>("storms", raw_args, &extras())?;
    if parsed.help {
        return Ok(help());
    }
    let mut reps = None;
    let mut sweep = false;
    for (flag, value) in &parsed.extras {
        match *flag {
            "--reps" => reps = Some(parse_count(flag, value, 1, MAX_REPS)?),
            "--sweep" if value == "aws" => sweep = true,
            _ => return Err(refuse(flag, value, "aws")),
        }
    }
    if parsed.at_ms.is_some() {
        return Err(UsageError("--at-ms: storms report whole runs; allowed: leave --at-ms out".to_owned()));
    }
    args::text_or_json(parsed.format, "storms")?;
    let settings = parsed.settings;
    refuse_other_workloads(&parsed.given, settings.workload)?;
    let failed = |e| UsageError(format!("the run could not finish: {e}"));
    if sweep {
        let reps = reps.unwrap_or(100) as u32;
        let cells = aws_sweep(settings.seed, reps, |_| {}).map_err(failed)?;
        return Ok(match parsed.format {
            Format::Json => sweep_json(settings.seed, reps, &cells) + "\n",
            Format::Text | Format::Otlp => sweep_text(settings.seed, reps, &cells),
        });
    }
    let reps = reps.unwrap_or(1);
    match settings.workload {
        Workload::Occ => {
            let mut runner = OccRunner::default();
            let runs = (0..reps)
                .map(|rep| runner.run(settings.occ, Rng::new(seed_of(settings.seed, rep))))
                .collect::<Result<Vec<_>, _>>()
                .map_err(failed)?;
            Ok(match parsed.format {
                Format::Json => occ_json(&settings, &runs) + "\n",
                Format::Text | Format::Otlp => occ_text(&settings, &runs),
            })
        }
        Workload::Overload => {
            let runs = (0..reps)
                .map(|rep| {
                    let seeded = settings
                        .with(&crate::sim::storm::settings::SEED, seed_of(settings.seed, rep))
                        .expect("a seed within range stays valid");
                    OverloadRun::simulate(&seeded)
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(failed)?;
            Ok(match parsed.format {
                Format::Json => overload_json(&settings, &runs) + "\n",
                Format::Text | Format::Otlp => overload_text(&settings, &runs),
            })
        }
    }
}

/// `bench --lab storm`: the whole AWS sweep (95 cells x 100 runs) on one
/// core and on two (the best of three timed runs each), and a 100 000-client overload run.
/// The storm of 10 000 and of 100 000 clients arriving at once, each
/// retrying up to ten times after a 1 ms timeout: each run's seconds and
/// work (`Driver::work`), and how both grew (about 10x is linear).
fn all_at_once_growth() -> String {
    use crate::sim::storm::settings::{ARRIVALS, CLIENTS, MAX_ATTEMPTS, TIMEOUT};
    let run = |clients: &str| {
        let settings = StormSettings::from_pairs(&[
            (&ARRIVALS, "all-at-once"),
            (&CLIENTS, clients),
            (&MAX_ATTEMPTS, "10"),
            (&TIMEOUT, "1"),
        ])
        .expect("bench settings are valid");
        let started = Instant::now();
        let work = OverloadRun::simulate_counting(&settings).map_or(0, |(_, work)| work);
        (started.elapsed().as_secs_f64(), work)
    };
    let ((small_s, small), (large_s, large)) = (run("10000"), run("100000"));
    format!(
        "all-at-once storm seconds (10 000 clients)\t{small_s:.3}\nall-at-once storm seconds (100 000 clients)\t{large_s:.3}\n\
         all-at-once storm growth, 10 000 to 100 000 clients (time)\t{:.1}x\n\
         all-at-once storm growth, 10 000 to 100 000 clients (work)\t{:.1}x\n",
        large_s / small_s.max(1e-9),
        large as f64 / small.max(1) as f64,
    )
}

pub fn bench(_runs: u64) -> String {
    use crate::sim::storm::settings::CLIENTS;
    use crate::sim::storm::sweep::aws_sweep_parallel;
    // Each sweep's best of three: a second-long run on a shared machine is
    // easily slowed by something else, never sped up.
    let best_of_three = |sweep: &dyn Fn() -> Result<Vec<Cell>, crate::sim::SimError>| {
        let started = Instant::now();
        let cells = sweep();
        let mut best = started.elapsed().as_secs_f64();
        for _ in 0..2 {
            let started = Instant::now();
            let again = sweep();
            best = best.min(started.elapsed().as_secs_f64());
            debug_assert!(again == cells, "a sweep gives the same figures every time");
        }
        (cells, best)
    };
    let (one, one_s) = best_of_three(&|| aws_sweep(1, 100, |_| {}));
    let (two, two_s) = best_of_three(&|| aws_sweep_parallel(1, 100, 2));
    let events: u64 = one.as_ref().map_or(0, |cells| cells.iter().map(|c| c.events).sum());
    let same = matches!((&one, &two), (Ok(a), Ok(b)) if a == b);
    let big = StormSettings::from_pairs(&[(&CLIENTS, "100000")]).expect("bench settings are valid");
    let started = Instant::now();
    let overload = OverloadRun::simulate(&big);
    let overload_s = started.elapsed().as_secs_f64();
    let requests = overload.as_ref().map_or(0, |r| r.totals.requests);
    let growth = all_at_once_growth();
    format!(
        "aws sweep cells\t{}\naws sweep runs\t{}\naws sweep events\t{events}\n\
         aws sweep seconds (1 thread)\t{one_s:.3}\naws sweep events/s (1 thread)\t{:.0}\n\
         aws sweep seconds (2 threads)\t{two_s:.3}\naws sweep same figures on 2 threads\t{same}\n\
         overload clients\t100000\noverload requests\t{requests}\noverload seconds\t{overload_s:.3}\n{growth}",
        one.as_ref().map_or(0, Vec::len),
        one.as_ref().map_or(0, |c| c.len() * 100),
        events as f64 / one_s.max(1e-9),
    )
}
