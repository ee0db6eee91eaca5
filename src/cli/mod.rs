//! The command line: one command per lab, from the registry (flags in, the
//! lab's run out as text or JSON), and `bench` and `labs`.
//!
//! Every refusal is one line on stderr naming the flag, the value given and
//! what is allowed, with exit status 2. Output is built completely before
//! anything is written, so a failure never leaves half a document behind.

pub mod args;
mod bench;
mod explore;
pub mod input;
pub mod lab;
mod storm;
pub mod trace;

use std::io::Write;

use crate::view::ack::AckLab;
use crate::view::labs::{self, LABS, Lab};
use crate::view::risk::RiskLab;

pub use args::{Format, UsageError};

/// Exit status for a refused command line.
pub const USAGE_ERROR: i32 = 2;

const NAME: &str = "idempotency-lab";

/// A lab's command: its arguments (after its name) in, its output out.
pub type LabCommand = fn(&[String]) -> Result<String, UsageError>;

/// Each lab's command, by the lab's id in the registry (`view::labs`).
/// The storm lab's has extras of its own (runs, sweeps); the others are
/// the one generic command. A test checks that these name the same labs
/// as the registry.
pub const LAB_COMMANDS: [(&str, LabCommand); 3] =
    [("ack", lab::command::<AckLab>), ("risk", lab::command::<RiskLab>), ("storms", storm::command)];

/// The command of the lab `name` names (its id or an older alias).
pub fn lab_command(name: &str) -> Option<(Lab, LabCommand)> {
    let lab = labs::by_command(name)?;
    LAB_COMMANDS.iter().find(|(id, _)| *id == lab.id).map(|&(_, command)| (lab, command))
}

/// Every command, for messages.
fn commands() -> String {
    let mut names: Vec<&str> = LABS.iter().map(|l| l.id).collect();
    names.extend(["explore", "trace", "bench", "labs", "opening", "--help"]);
    names.join(", ")
}

/// What the user asked for besides a lab's run.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Bench {
        runs: u64,
        lab: Lab,
    },
    Labs {
        format: Format,
    },
    /// How long a trace of this many spans takes to read and check, or
    /// the trace itself (for the browser's bench).
    BenchTrace {
        spans: usize,
        write: bool,
    },
    /// The first lab's opening run as the page's markup (for the build).
    Opening,
}

fn value_of<'a>(
    flag: &str,
    inline: Option<&'a str>,
    rest: &mut std::slice::Iter<'a, String>,
    allowed: &str,
) -> Result<&'a str, UsageError> {
    match inline {
        Some(v) => Ok(v),
        None => match rest.next() {
            Some(v) if !v.starts_with("--") => Ok(v.as_str()),
            _ => Err(UsageError(format!("{flag} needs a value; allowed: {allowed}"))),
        },
    }
}

fn parse_bench(args: &[String]) -> Result<Command, UsageError> {
    let mut runs = bench::DEFAULT_RUNS;
    let mut lab = labs::opening();
    let mut rest = args.iter();
    let all_labs = LABS.iter().map(|l| l.id).collect::<Vec<_>>().join(", ");
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg.as_str(), None),
        };
        match flag {
            "--runs" => {
                let allowed = format!("a whole number from 1 to {}", bench::MAX_RUNS);
                runs = args::parse_count(flag, value_of(flag, inline, &mut rest, &allowed)?, 1, bench::MAX_RUNS)?;
            }
            "--lab" => {
                let allowed = format!("one of {all_labs}");
                let value = value_of(flag, inline, &mut rest, &allowed)?;
                lab = labs::by_command(value).ok_or_else(|| args::refuse("--lab", value, &allowed))?;
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

fn parse_labs(args: &[String]) -> Result<Command, UsageError> {
    match args {
        [] => Ok(Command::Labs { format: Format::Text }),
        [flag, value] if flag == "--format" && value == "json" => Ok(Command::Labs { format: Format::Json }),
        [flag, value] if flag == "--format" && value == "text" => Ok(Command::Labs { format: Format::Text }),
        [flag] if flag == "--format=json" => Ok(Command::Labs { format: Format::Json }),
        [flag, value] if flag == "--format" => Err(args::refuse(flag, value, "one of text, json")),
        _ => Err(UsageError("labs takes only --format text|json".to_owned())),
    }
}

/// Understands a command line that is not a lab's (without the program
/// name).
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    match args.first().map(String::as_str) {
        None => Err(UsageError(format!("missing command; allowed: {}", commands()))),
        Some("bench") if args.get(1).is_some_and(|a| a == "--trace") => match &args[2..] {
            [] => Ok(Command::BenchTrace { spans: 100_000, write: false }),
            [w] if w == "--write" => Ok(Command::BenchTrace { spans: 100_000, write: true }),
            _ => Err(UsageError("bench --trace takes only --write".to_owned())),
        },
        Some("bench") => parse_bench(&args[1..]),
        Some("labs") => parse_labs(&args[1..]),
        Some("opening") if args.len() == 1 => Ok(Command::Opening),
        Some("opening") => Err(UsageError("opening takes no options".to_owned())),
        Some("--help" | "-h" | "help") => Ok(Command::Help),
        Some(other) => Err(UsageError(format!(
            "unknown command \"{}\"; allowed: {}",
            crate::sim::params::shorten(other),
            commands()
        ))),
    }
}

/// The help text: one line per lab, from the registry, and the other
/// commands.
pub fn help() -> String {
    let mut out = format!("{NAME}: simulate retries, lost acknowledgements and idempotency keys\n\nUsage:\n");
    for lab in &LABS {
        let also = if lab.aliases.is_empty() { String::new() } else { format!(" (also: {})", lab.aliases.join(", ")) };
        out.push_str(&format!("  {NAME} {:<8} [options]  {}{also}\n", lab.id, lab.summary));
    }
    let all_labs = LABS.iter().map(|l| l.id).collect::<Vec<_>>().join("|");
    out.push_str(&format!(
        "  {NAME} bench [--runs N] [--lab {all_labs}]\n                          measure how fast a lab's core simulates (default {} runs)\n  \
         {NAME} explore --lab ack|risk [--max-faults 1|2|3] [the lab's options] [--format text|json]\n                          run every schedule of at most K aimed faults; per invariant, how many break it and the simplest\n  \
         {NAME} trace FILE [--format text|json] [rules]\n                          check an OpenTelemetry trace (OTLP/JSON): intents, effects, the checks, where it broke\n  \
         {NAME} labs [--format text|json]\n                          list the labs\n  \
         {NAME} opening           write the first lab's opening run as the page's markup (the build puts it in the page)\n  \
         {NAME} --help            show this help\n\n\
         Each lab's options: {NAME} LAB --help. Omitted options take the lab's opening settings.\n",
        bench::DEFAULT_RUNS
    ));
    out
}

/// The registry, a line per lab, or as JSON (for `make bench`).
fn list_labs(format: Format) -> String {
    match format {
        Format::Text | Format::Otlp => LABS.iter().map(|l| format!("{}\t{}\n", l.id, l.label)).collect(),
        Format::Json => {
            use crate::sim::json::Json;
            let labs = LABS
                .iter()
                .map(|l| {
                    Json::Obj(vec![
                        ("id".to_owned(), Json::Str(l.id.to_owned())),
                        ("label".to_owned(), Json::Str(l.label.to_owned())),
                        ("title".to_owned(), Json::Str(l.title.to_owned())),
                    ])
                })
                .collect();
            Json::Arr(labs).pretty() + "\n"
        }
    }
}

/// Runs the command line and returns the exit status.
pub fn main_with(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let result = match (args.first().map(String::as_str), args.first().and_then(|name| lab_command(name))) {
        (Some("explore"), _) => explore::command(&args[1..]),
        (Some("trace"), _) => trace::command(&args[1..]),
        (_, Some((_, command))) => command(&args[1..]),
        (_, None) => run_command(args),
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
    parse(args).map(|command| match command {
        Command::Help => help(),
        Command::Labs { format } => list_labs(format),
        Command::Opening => crate::view::ack::opening::page() + "\n",
        Command::BenchTrace { spans, write: true } => bench::trace_file(spans),
        Command::BenchTrace { spans, write: false } => bench::trace(spans),
        Command::Bench { runs, lab } => match lab.id {
            "risk" => bench::risk() + &bench::explore("risk"),
            "storms" => storm::bench(runs),
            _ => bench::run(runs).render() + &bench::explore("ack"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Millis;
    use crate::sim::ack::Settings;
    use crate::sim::params::Problem;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn ack(line: &str) -> Result<args::LabArgs<Settings>, UsageError> {
        args::parse_lab::<Settings>("ack", &args(line), &[])
    }

    #[test]
    fn flags_take_values_inline_or_separately() {
        let parsed = ack("--dedup=off --exec-ms 500 --format json --at-ms=10").unwrap();
        assert!(!parsed.settings.dedup());
        assert_eq!(parsed.settings.exec(), Millis(500));
        assert_eq!(parsed.format, Format::Json);
        assert_eq!(parsed.at_ms, Some(10));
    }

    #[test]
    fn a_flag_is_not_taken_as_the_previous_flags_value() {
        let err = ack("--timeout-ms --dedup off").unwrap_err();
        assert!(err.0.starts_with("--timeout-ms needs a value"), "{}", err.0);
    }

    #[test]
    fn refusals_name_flag_value_and_allowed() {
        let err = ack("--max-attempts 11").unwrap_err();
        assert_eq!(err.0, "--max-attempts: 11 is out of range; allowed: a whole number from 1 to 10");
        let err = ack("--bogus 1").unwrap_err();
        assert!(err.0.contains("\"--bogus\"") && err.0.contains("--fault"), "{}", err.0);
        let err = parse(&args("bench --runs 0")).unwrap_err();
        assert!(err.0.starts_with("--runs: 0 is out of range"), "{}", err.0);
    }

    #[test]
    fn problem_kinds_map_to_messages() {
        // Every field problem becomes a message mentioning the flag.
        for (line, problem) in [
            ("--fault x", Problem::UnknownChoice),
            ("--exec-ms x", Problem::NotANumber),
            ("--exec-ms 600001", Problem::OutOfRange),
        ] {
            let err = ack(line).unwrap_err();
            assert!(err.0.contains(line.split_whitespace().next().unwrap()), "{problem:?}: {}", err.0);
        }
    }

    #[test]
    fn every_lab_in_the_registry_has_a_command_under_its_id_and_aliases() {
        assert_eq!(LAB_COMMANDS.map(|(id, _)| id), LABS.map(|l| l.id));
        for lab in &LABS {
            for name in std::iter::once(&lab.id).chain(lab.aliases) {
                assert_eq!(lab_command(name).map(|(l, _)| l), Some(lab), "{name}");
            }
            assert!(help().contains(&format!("{NAME} {:<8} [options]", lab.id)), "help names {}", lab.id);
        }
        assert_eq!(
            parse(&args("bench --lab storm")),
            Ok(Command::Bench { runs: bench::DEFAULT_RUNS, lab: labs::STORMS })
        );
    }
}
