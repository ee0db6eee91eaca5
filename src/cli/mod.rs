//! The command line: one command per lab of the registry (flags in, the
//! lab's run out as text or JSON), `explore` for the labs that explore, and
//! `bench`, `labs` and `opening`.
//!
//! Every refusal is one line on stderr naming the flag, the value given and
//! what is allowed, with exit status 2. Output is built completely before
//! anything is written, so a failure never leaves half a document behind.

pub mod args;
pub mod bench;
mod explore;
pub mod input;
pub mod lab;
mod pages;
pub mod storm;
pub mod trace;

use std::io::Write;

use crate::view::lab::LabModel;
use crate::view::labs::{Lab, Labs, PerLab, Registry};

use args::{Flags, Word};
pub use args::{Format, UsageError};

/// Exit status for a refused command line.
pub const USAGE_ERROR: i32 = 2;

const NAME: &str = "idempotency-lab";

/// A command's arguments (after its name) in, its output out.
pub type Run = fn(&[String]) -> Result<String, UsageError>;

/// `explore` for one lab: its arguments, and every lab that explores (for
/// messages).
pub type Explore = fn(&[String], &str) -> Result<String, UsageError>;

/// A lab as the command line runs it, made from the lab's type.
#[derive(Clone, Copy)]
pub struct LabCommand {
    pub lab: Lab,
    /// Its command (`idempotency-lab <id>`).
    pub run: Run,
    /// `bench --lab <id>`.
    pub bench: fn(u64) -> String,
    /// `explore --lab <id>`, if it explores (the second argument names
    /// every lab that does, for messages).
    pub explore: Option<Explore>,
    /// What makes its opening run as the page's markup, if it has one
    /// (`opening`).
    pub opening: Option<fn() -> String>,
}

struct Commands;

impl PerLab for Commands {
    type Item = LabCommand;
    fn of<L: LabModel>() -> LabCommand {
        let explore = explore::of::<L> as Explore;
        LabCommand {
            lab: L::LAB,
            run: L::command,
            bench: L::bench,
            explore: L::EXPLORER.map(|_| explore),
            opening: L::OPENING,
        }
    }
}

/// Every command, for messages.
fn commands(labs: &[LabCommand]) -> String {
    let mut names: Vec<&str> = labs.iter().map(|l| l.lab.id).collect();
    names.extend(["explore", "trace", "bench", "labs", "opening", "--help"]);
    names.join(", ")
}

/// The lab `name` names (its id or an older alias).
fn lab_named<'a>(labs: &'a [LabCommand], name: &str) -> Option<&'a LabCommand> {
    labs.iter().find(|l| l.lab.id == name || l.lab.aliases.contains(&name))
}

fn all_ids(labs: &[LabCommand], separator: &str) -> String {
    labs.iter().map(|l| l.lab.id).collect::<Vec<_>>().join(separator)
}

/// The spans of the trace `bench --trace` reads and checks.
const BENCH_SPANS: usize = 100_000;

/// `bench [--runs N] [--lab LAB]`: the figures of the lab's core; `bench
/// --trace [--write]`: how long a trace of 100 000 spans takes to read and
/// check, or the trace itself (for the browser's bench).
fn bench(labs: &[LabCommand], words: &[String]) -> Result<String, UsageError> {
    let mut runs = bench::DEFAULT_RUNS;
    let mut lab = &labs[0];
    let (mut trace, mut write) = (false, false);
    let mut flags = Flags::new("bench", words);
    while let Some(word) = flags.next()? {
        match word {
            Word::Help => return Ok(bench_help(labs)),
            Word::Flag("--trace") => trace = true,
            Word::Flag("--write") => write = true,
            Word::Flag("--runs") => {
                let allowed = format!("a whole number from 1 to {}", bench::MAX_RUNS);
                runs = args::parse_count("--runs", flags.value(&allowed)?, 1, bench::MAX_RUNS)?;
            }
            Word::Flag("--lab") => {
                let allowed = format!("one of {}", all_ids(labs, ", "));
                let value = flags.value(&allowed)?;
                lab = lab_named(labs, value).ok_or_else(|| args::refuse("--lab", value, &allowed))?;
            }
            other => return Err(flags.refuse(other, "--runs, --lab, --trace [--write]")),
        }
    }
    Ok(match (trace, write) {
        (true, true) => bench::trace_file(BENCH_SPANS),
        (true, false) => bench::trace(BENCH_SPANS),
        (false, true) => {
            return Err(UsageError("--write goes with --trace; allowed: bench --trace --write".to_owned()));
        }
        (false, false) => (lab.bench)(runs),
    })
}

/// `labs [--format text|json] [--pages DIR]`: the registry, a line per lab
/// or as JSON (for `make bench`); or each lab's page for Trunk written into
/// DIR (for the build), its path printed on a line of its own.
fn labs_command(labs: &[LabCommand], words: &[String]) -> Result<String, UsageError> {
    let mut format = Format::Text;
    let mut pages = None;
    let mut flags = Flags::new("labs", words);
    while let Some(word) = flags.next()? {
        match word {
            Word::Help => return Ok(labs_help()),
            Word::Flag("--format") => format = args::parse_format(&mut flags, args::FORMATS)?,
            Word::Flag("--pages") => pages = Some(flags.value(pages::DIR_ALLOWED)?),
            other => return Err(flags.refuse(other, "--format text|json, --pages DIR")),
        }
    }
    if let Some(dir) = pages {
        return pages::write(labs, dir);
    }
    Ok(match format {
        Format::Text | Format::Otlp => labs.iter().map(|l| format!("{}\t{}\n", l.lab.id, l.lab.label)).collect(),
        Format::Json => {
            use crate::sim::json::Json;
            let entries = labs
                .iter()
                .map(|l| {
                    Json::obj([
                        ("id", Json::str(l.lab.id)),
                        ("label", Json::str(l.lab.label)),
                        ("title", Json::str(l.lab.title)),
                    ])
                })
                .collect();
            Json::Arr(entries).pretty() + "\n"
        }
    })
}

/// `opening [--lab LAB] [--dir DIR]`: a lab's opening run as the page's
/// markup (the first lab's by default, which the build writes into the
/// page that hosts every lab); or, with `--dir`, every other lab's that has
/// one written into `DIR/<lab>/opening.html` (which the page puts in place
/// for a link to that lab), their ids printed a line each.
fn opening(labs: &[LabCommand], words: &[String]) -> Result<String, UsageError> {
    let with: Vec<&str> = labs.iter().filter(|l| l.opening.is_some()).map(|l| l.lab.id).collect();
    let allowed = with.join("|");
    let mut lab = None;
    let mut dir = None;
    let mut flags = Flags::new("opening", words);
    while let Some(word) = flags.next()? {
        match word {
            Word::Help => {
                return Ok(format!(
                    "{NAME} opening: write a lab's opening run as the page's markup (the build puts it in the page)\n\n\
                     Usage:\n  {NAME} opening [--lab {allowed}]\n  {NAME} opening --dir DIR\n\n\
                     Options:\n  \
                     --lab LAB               the lab (default {}): one that has an opening run\n  \
                     --dir DIR               write every other lab's into DIR/<lab>/opening.html, and print their ids\n",
                    labs[0].lab.id
                ));
            }
            Word::Flag("--lab") => {
                let value = flags.value(&allowed)?;
                lab = Some(
                    lab_named(labs, value)
                        .filter(|l| with.contains(&l.lab.id))
                        .ok_or_else(|| args::refuse("--lab", value, &allowed))?,
                );
            }
            Word::Flag("--dir") => dir = Some(flags.value("a folder")?),
            other => return Err(flags.refuse(other, "--lab LAB, --dir DIR")),
        }
    }
    let Some(dir) = dir else {
        let make = lab.unwrap_or(&labs[0]).opening;
        return Ok(make.map(|make| make()).unwrap_or_default() + "\n");
    };
    if lab.is_some() {
        return Err(UsageError(
            "--lab and --dir go apart: --dir writes every other lab's; allowed: --lab LAB or --dir DIR".to_owned(),
        ));
    }
    let mut written = String::new();
    for l in &labs[1..] {
        let Some(markup) = l.opening.map(|make| make()) else { continue };
        let file = std::path::Path::new(dir).join(l.lab.id).join("opening.html");
        std::fs::write(&file, markup + "\n")
            .map_err(|e| UsageError(format!("--dir: cannot write \"{}\": {e}", file.display())))?;
        written.push_str(&format!("{}\n", l.lab.id));
    }
    Ok(written)
}

fn bench_help(labs: &[LabCommand]) -> String {
    format!(
        "{NAME} bench: how fast a lab's core simulates, a figure a line (name, a tab, the value)\n\n\
         Usage:\n  {NAME} bench [--runs N] [--lab {}]\n  {NAME} bench --trace [--write]\n\n\
         Options:\n  \
         --runs N                the whole runs to time, 1 to {} (default {}; labs with figures of their own take theirs)\n  \
         --lab LAB               the lab (default {})\n  \
         --trace                 how long a trace of 100 000 spans takes to read and check (--write: the trace itself)\n",
        all_ids(labs, "|"),
        bench::MAX_RUNS,
        bench::DEFAULT_RUNS,
        labs[0].lab.id,
    )
}

fn labs_help() -> String {
    format!(
        "{NAME} labs: the labs of the registry, a line each (its id, a tab, its label)\n\n\
         Usage:\n  {NAME} labs [--format text|json]\n  {NAME} labs --pages DIR\n\n\
         Options:\n  \
         --format text|json      text, or JSON with each lab's id, label and title (default text)\n  \
         --pages DIR             write each lab's page for Trunk into DIR/<lab>/index.html, and print their paths\n"
    )
}

/// The help text: one line per lab, from the registry, and the other
/// commands.
pub fn help(labs: &[LabCommand]) -> String {
    let mut out = format!("{NAME}: simulate retries, lost acknowledgements and idempotency keys\n\nUsage:\n");
    for lab in labs.iter().map(|l| l.lab) {
        let also = if lab.aliases.is_empty() { String::new() } else { format!(" (also: {})", lab.aliases.join(", ")) };
        out.push_str(&format!("  {NAME} {:<8} [options]  {}{also}\n", lab.id, lab.summary));
    }
    let exploring: Vec<&str> = labs.iter().filter(|l| l.explore.is_some()).map(|l| l.lab.id).collect();
    out.push_str(&format!(
        "  {NAME} bench [--runs N] [--lab {}]\n                          measure how fast a lab's core simulates (default {} runs)\n  \
         {NAME} explore --lab {} [--max-faults 1|2|3] [the lab's options] [--format text|json]\n                          run every schedule of at most K aimed faults; per invariant, how many break it and the simplest\n  \
         {NAME} trace FILE [--format text|json] [rules]\n                          check an OpenTelemetry trace (OTLP/JSON): intents, effects, the checks, where it broke\n  \
         {NAME} labs [--format text|json]\n                          list the labs (--pages DIR: write each lab's page for Trunk into DIR)\n  \
         {NAME} opening [--lab LAB] write a lab's opening run as the page's markup (the build puts it in the page;\n                          --dir DIR: every other lab's beside its bundle)\n  \
         {NAME} --help            show this help\n\n\
         Each command's options: {NAME} COMMAND --help. Omitted options take the lab's opening settings.\n",
        all_ids(labs, "|"),
        bench::DEFAULT_RUNS,
        exploring.join("|"),
    ));
    out
}

/// Runs the command line and returns the exit status.
pub fn main_with(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    main_among::<Registry>(args, stdout, stderr)
}

/// Runs the command line over the labs `R` (the registry, or in a test a
/// list with a lab of its own) and returns the exit status.
pub fn main_among<R: Labs>(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let labs = R::each::<Commands>();
    match run(&labs, args) {
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

fn run(labs: &[LabCommand], args: &[String]) -> Result<String, UsageError> {
    let Some((name, rest)) = args.split_first() else {
        return Err(UsageError(format!("missing command; allowed: {}", commands(labs))));
    };
    if let Some(lab) = lab_named(labs, name) {
        return (lab.run)(rest);
    }
    match name.as_str() {
        "explore" => {
            let exploring: Vec<LabCommand> = labs.iter().filter(|l| l.explore.is_some()).copied().collect();
            explore::command(rest, &exploring)
        }
        "trace" => trace::command(rest),
        "bench" => bench(labs, rest),
        "labs" => labs_command(labs, rest),
        "opening" => opening(labs, rest),
        "--help" | "-h" | "help" => Ok(help(labs)),
        other => Err(UsageError(format!(
            "unknown command \"{}\"; allowed: {}",
            crate::sim::params::shorten(other),
            commands(labs)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Millis;
    use crate::sim::ack::Settings;
    use crate::sim::params::Problem;
    use crate::view::labs::LABS;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn ack(line: &str) -> Result<args::LabArgs<Settings>, UsageError> {
        args::parse_lab::<Settings>("ack", &args(line), &[])
    }

    fn registry() -> Vec<LabCommand> {
        Registry::each::<Commands>()
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
        let err = run(&registry(), &args("bench --runs 0")).unwrap_err();
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
        let labs = registry();
        assert_eq!(labs.iter().map(|l| l.lab).collect::<Vec<_>>(), LABS);
        for lab in LABS {
            for name in std::iter::once(&lab.id).chain(lab.aliases) {
                assert_eq!(lab_named(&labs, name).map(|l| l.lab), Some(*lab), "{name}");
            }
            assert!(help(&labs).contains(&format!("{NAME} {:<8} [options]", lab.id)), "help names {}", lab.id);
        }
    }
}
