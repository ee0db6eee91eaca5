//! The command line: flags in, the core's run out as text or JSON.
//!
//! Every refusal is one line on stderr naming the flag, the value given and
//! what is allowed, with exit status 2. Output is built completely before
//! anything is written, so a failure never leaves half a document behind.

pub mod args;
mod bench;
mod risk;
mod storm;

use std::io::Write;

use crate::sim::Millis;
use crate::sim::ack::{Run, Settings};
use crate::view::ack::{run_to_json, sentence, text_mirror};

pub use args::{Format, UsageError};

/// Exit status for a refused command line.
pub const USAGE_ERROR: i32 = 2;

const NAME: &str = "idempotency-lab";

/// Every command, for messages.
const COMMANDS: &str = "run, risk, storm, bench, --help";

/// What the user asked for, once the flags are understood.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Run { settings: Box<Settings>, format: Format, at_ms: Option<u64> },
    Bench { runs: u64, lab: BenchLab },
}

/// Which lab `bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLab {
    Ack,
    Risk,
    Storm,
}

fn parse_run(args: &[String]) -> Result<Command, UsageError> {
    let parsed = args::parse_lab::<Settings>("run", args, &[])?;
    if parsed.help {
        return Ok(Command::Help);
    }
    Ok(Command::Run { settings: Box::new(parsed.settings), format: parsed.format, at_ms: parsed.at_ms })
}

fn parse_bench(args: &[String]) -> Result<Command, UsageError> {
    let mut runs = bench::DEFAULT_RUNS;
    let mut lab = BenchLab::Ack;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg.as_str(), None),
        };
        match flag {
            "--runs" => {
                let allowed = format!("a whole number from 1 to {}", bench::MAX_RUNS);
                let value = match inline {
                    Some(v) => v,
                    None => match rest.next() {
                        Some(v) if !v.starts_with("--") => v.as_str(),
                        _ => return Err(UsageError(format!("--runs needs a value; allowed: {allowed}"))),
                    },
                };
                runs = args::parse_count(flag, value, 1, bench::MAX_RUNS)?;
            }
            "--lab" => {
                let allowed = "one of ack, risk, storm";
                let value = match inline {
                    Some(v) => v,
                    None => match rest.next() {
                        Some(v) if !v.starts_with("--") => v.as_str(),
                        _ => return Err(UsageError(format!("--lab needs a value; allowed: {allowed}"))),
                    },
                };
                lab = match value {
                    "ack" => BenchLab::Ack,
                    "risk" => BenchLab::Risk,
                    "storm" => BenchLab::Storm,
                    other => return Err(args::refuse("--lab", other, allowed)),
                };
            }
            "--help" | "-h" => return Ok(Command::Help),
            other => {
                return Err(UsageError(format!(
                    "unknown option \"{}\" for bench; allowed: --runs, --lab",
                    crate::sim::params::shorten(other)
                )));
            }
        }
    }
    Ok(Command::Bench { runs, lab })
}

/// Understands a command line (without the program name).
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    match args.first().map(String::as_str) {
        None => Err(UsageError(format!("missing command; allowed: {COMMANDS}"))),
        Some("run") => parse_run(&args[1..]),
        Some("bench") => parse_bench(&args[1..]),
        Some("--help" | "-h" | "help") => Ok(Command::Help),
        Some(other) => {
            Err(UsageError(format!("unknown command \"{}\"; allowed: {COMMANDS}", crate::sim::params::shorten(other))))
        }
    }
}

/// The help text, with every run option's allowed values and default.
pub fn help() -> String {
    let mut out = format!(
        "{NAME}: simulate retries, lost acknowledgements and idempotency keys\n\n\
         Usage:\n  {NAME} run [options]      simulate one run and print what happened\n  \
         {NAME} risk [options]     the risk-review lab (see {NAME} risk --help)\n  \
         {NAME} storm [options]    retry storms with many clients (see {NAME} storm --help)\n  \
         {NAME} bench [--runs N] [--lab ack|risk|storm]\n                          measure how fast the core simulates (default {} runs)\n  \
         {NAME} --help            show this help\n\nRun options (omitted ones take the opening settings):\n",
        bench::DEFAULT_RUNS
    );
    out.push_str(&args::params_help::<Settings>());
    out.push_str(
        "  --settings FILE         read settings from a JSON file first; flags override it\n  \
         --format text|json      text: the state at --at-ms, then every event (default text)\n  \
         --at-ms T               the model time the text state describes (default: the end of the run)\n",
    );
    out
}

fn describe_run(settings: &Settings, format: Format, at_ms: Option<u64>) -> Result<String, UsageError> {
    let run = Run::simulate(settings).map_err(|e| UsageError(format!("the run could not finish: {e}")))?;
    let end = run.end().ms();
    if let Some(t) = at_ms
        && t > end
    {
        return Err(UsageError(format!(
            "--at-ms: {t} is beyond the run; allowed: a whole number from 0 to {end} (the run ends at {end} ms)"
        )));
    }
    Ok(match format {
        Format::Json => {
            let mut doc = run_to_json(&run);
            doc.push('\n');
            doc
        }
        Format::Text => {
            let t = Millis(at_ms.unwrap_or(end));
            let mut out = text_mirror(&run, t);
            out.push_str("\nEvents:\n");
            for r in run.records() {
                out.push_str(&format!(
                    "{:>9}  {:<22} {:<8} {:<10} {}\n",
                    r.t.to_string(),
                    r.kind(),
                    format!("#{}", r.attempt),
                    r.key.map_or_else(|| "-".to_owned(), |k| k.to_string()),
                    sentence(r)
                ));
            }
            out
        }
    })
}

/// Runs the command line and returns the exit status.
pub fn main_with(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    // The other labs parse their own flags.
    let result = match args.first().map(String::as_str) {
        Some("risk") => risk::command(&args[1..]),
        Some("storm") => storm::command(&args[1..]),
        _ => run_command(args),
    };
    match result {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth a panic or a message.
            let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
            0
        }
        Err(UsageError(message)) => {
            let _ = writeln!(stderr, "{NAME}: {message}");
            USAGE_ERROR
        }
    }
}

fn run_command(args: &[String]) -> Result<String, UsageError> {
    parse(args).and_then(|command| match command {
        Command::Help => Ok(help()),
        Command::Run { settings, format, at_ms } => describe_run(&settings, format, at_ms),
        Command::Bench { runs, lab: BenchLab::Ack } => Ok(bench::run(runs).render()),
        Command::Bench { lab: BenchLab::Risk, .. } => Ok(risk::bench()),
        Command::Bench { runs, lab: BenchLab::Storm } => Ok(storm::bench(runs)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::params::Problem;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn flags_take_values_inline_or_separately() {
        let Ok(Command::Run { settings, format, at_ms }) =
            parse(&args("run --dedup=off --exec-ms 500 --format json --at-ms=10"))
        else {
            panic!("should parse")
        };
        assert!(!settings.dedup());
        assert_eq!(settings.exec(), Millis(500));
        assert_eq!(format, Format::Json);
        assert_eq!(at_ms, Some(10));
    }

    #[test]
    fn a_flag_is_not_taken_as_the_previous_flags_value() {
        let err = parse(&args("run --timeout-ms --dedup off")).unwrap_err();
        assert!(err.0.starts_with("--timeout-ms needs a value"), "{}", err.0);
    }

    #[test]
    fn refusals_name_flag_value_and_allowed() {
        let err = parse(&args("run --max-attempts 11")).unwrap_err();
        assert_eq!(err.0, "--max-attempts: 11 is out of range; allowed: a whole number from 1 to 10");
        let err = parse(&args("run --bogus 1")).unwrap_err();
        assert!(err.0.contains("\"--bogus\"") && err.0.contains("--fault"), "{}", err.0);
        let err = parse(&args("bench --runs 0")).unwrap_err();
        assert!(err.0.starts_with("--runs: 0 is out of range"), "{}", err.0);
    }

    #[test]
    fn problem_kinds_map_to_messages() {
        // Every field problem becomes a message mentioning the flag.
        for (line, problem) in [
            ("run --fault x", Problem::UnknownChoice),
            ("run --exec-ms x", Problem::NotANumber),
            ("run --exec-ms 600001", Problem::OutOfRange),
        ] {
            let err = parse(&args(line)).unwrap_err();
            assert!(err.0.contains(line.split_whitespace().nth(1).unwrap()), "{problem:?}: {}", err.0);
        }
    }
}
