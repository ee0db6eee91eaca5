//! Flags in, validated settings out, for every lab's command. A lab's
//! parameters come from its [`Schema`]; the common flags (`--settings`,
//! `--format`, `--at-ms`) and a command's own extras are handled here too,
//! so every refusal reads the same way.

use crate::sim::params::{Raw, Schema, shorten};
use crate::sim::params_file::{MAX_FILE_BYTES, parse_settings_file};

use super::input::read_bounded;

/// A refused command line, already phrased for the user.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// An OpenTelemetry trace in the protocol's JSON encoding (the first
    /// two labs' commands).
    Otlp,
}

/// Refuses `--format otlp` for a command that has no trace to give.
pub fn text_or_json(format: Format, command: &str) -> Result<Format, UsageError> {
    match format {
        Format::Otlp => Err(UsageError(format!(
            "--format: \"otlp\" is not allowed for {command}; allowed: one of text, json (a trace is the ack and risk commands' output)"
        ))),
        other => Ok(other),
    }
}

/// A flag a command takes besides its lab's parameters.
pub struct Extra {
    pub flag: &'static str,
    /// What it allows, for messages and help.
    pub allowed: &'static str,
}

/// What a lab command's flags said.
#[derive(Debug)]
pub struct LabArgs<S> {
    pub settings: S,
    pub format: Format,
    pub at_ms: Option<u64>,
    /// The command's own flags, as given, in order (read by the commands
    /// that declare extras).
    #[allow(dead_code)]
    pub extras: Vec<(&'static str, String)>,
    pub help: bool,
}

pub fn refuse(flag: &str, value: &str, allowed: &str) -> UsageError {
    UsageError(format!("{flag}: \"{}\" is not allowed; allowed: {allowed}", shorten(value)))
}

/// `--flag=value` as (`--flag`, Some(`value`)); anything else as itself.
fn split_flag(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
        _ => (arg, None),
    }
}

/// Takes the value of `--flag=value` or `--flag value`; a following word
/// that is itself a flag is not taken as a value.
fn take_value<'a>(
    flag: &str,
    inline: Option<&'a str>,
    rest: &mut impl Iterator<Item = &'a String>,
    allowed: &str,
) -> Result<&'a str, UsageError> {
    if let Some(v) = inline {
        return Ok(v);
    }
    match rest.next() {
        Some(v) if !v.starts_with("--") => Ok(v.as_str()),
        _ => Err(UsageError(format!("{flag} needs a value; allowed: {allowed}"))),
    }
}

pub fn parse_count(flag: &str, text: &str, min: u64, max: u64) -> Result<u64, UsageError> {
    let allowed = format!("a whole number from {min} to {max}");
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = text.parse::<u64>()
            && (min..=max).contains(&n)
        {
            return Ok(n);
        }
        return Err(UsageError(format!("{flag}: {} is out of range; allowed: {allowed}", shorten(text))));
    }
    Err(UsageError(format!("{flag}: \"{}\" is not a whole number; allowed: {allowed}", shorten(text))))
}

/// Reads a settings file for `--settings` (`-`: standard input), at most
/// [`MAX_FILE_BYTES`] of it.
pub fn read_settings_file<S: Schema>(path: &str) -> Result<S, UsageError> {
    let bytes = read_bounded(path, MAX_FILE_BYTES).map_err(|e| {
        UsageError(format!(
            "--settings: \"{}\" {e}; allowed: a JSON settings file of at most {MAX_FILE_BYTES} bytes, or - for standard input",
            shorten(path)
        ))
    })?;
    parse_settings_file(&bytes).map_err(|e| UsageError(format!("--settings \"{}\": {e}", shorten(path))))
}

/// Every flag `command` takes, for the "unknown option" message.
fn all_flags<S: Schema>(extras: &[Extra]) -> String {
    let mut flags: Vec<&str> = S::PARAMS.iter().map(|p| p.flag).collect();
    flags.extend(extras.iter().map(|e| e.flag));
    flags.extend(["--settings", "--format", "--at-ms"]);
    flags.join(", ")
}

/// Parses a lab command's flags. Flags override a settings file, whatever
/// order they come in.
pub fn parse_lab<S: Schema>(command: &str, args: &[String], extras: &[Extra]) -> Result<LabArgs<S>, UsageError> {
    let mut raw = Raw::<S>::core();
    let mut base: Option<S> = None;
    let mut format = Format::Text;
    let mut at_ms = None;
    let mut given = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = split_flag(arg);
        if let Some(param) = S::by_flag(flag) {
            let value = take_value(flag, inline, &mut rest, &param.allowed())?;
            // Aimed faults may be given one flag each: they add up.
            match (param.kind, raw.get(param)) {
                (crate::sim::params::Kind::Aimed { .. }, Some(before)) if !before.is_empty() => {
                    let joined = format!("{before},{value}");
                    raw.set(param, joined);
                }
                _ => raw.set(param, value),
            }
            continue;
        }
        if let Some(extra) = extras.iter().find(|e| e.flag == flag) {
            let value = take_value(flag, inline, &mut rest, extra.allowed)?;
            given.push((extra.flag, value.to_owned()));
            continue;
        }
        match flag {
            "--format" => {
                let value = take_value(flag, inline, &mut rest, "one of text, json, otlp")?;
                format = match value {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "otlp" => Format::Otlp,
                    other => return Err(refuse(flag, other, "one of text, json, otlp")),
                };
            }
            "--at-ms" => {
                let value = take_value(flag, inline, &mut rest, "a whole number of milliseconds within the run")?;
                at_ms = Some(parse_count(flag, value, 0, u64::MAX)?);
            }
            "--settings" => {
                let value =
                    take_value(flag, inline, &mut rest, "the path of a JSON settings file, or - for standard input")?;
                base = Some(read_settings_file(value)?);
            }
            "--help" | "-h" => {
                return Ok(LabArgs { settings: S::opening(), format, at_ms, extras: given, help: true });
            }
            other => {
                return Err(UsageError(format!(
                    "unknown option \"{}\" for {command}; allowed: {}",
                    shorten(other),
                    all_flags::<S>(extras)
                )));
            }
        }
    }
    // Over a settings file, or over the defaults for what the flags give.
    let settings = match &base {
        Some(base) => raw.validate_over(base),
        None => raw.validate(),
    }
    .map_err(|e| UsageError(e.message(e.param.flag)))?;
    Ok(LabArgs { settings, format, at_ms, extras: given, help: false })
}

/// One line per parameter for a command's help: flag, allowed, default.
pub fn params_help<S: Schema>() -> String {
    use crate::sim::params::Kind;
    let mut rows = Vec::new();
    for param in S::PARAMS {
        let allowed = match param.kind {
            Kind::Choice(options) => options.iter().map(|o| o.value).collect::<Vec<_>>().join("|"),
            Kind::Switch { off, on } => format!("{on}|{off}"),
            Kind::Millis { min, max } => format!("{min}..={max} ms"),
            Kind::MillisOrOff { min, max } => format!("off|{min}..={max} ms"),
            Kind::CountOrAuto { min, max } => format!("auto|{min}..={max}"),
            Kind::Count { min, max } => format!("{min}..={max}"),
            Kind::Flag | Kind::Colour | Kind::Moment | Kind::Aimed { .. } => param.allowed(),
        };
        rows.push((param.flag.to_owned(), format!("{allowed} (default {})", param.format(param.default))));
    }
    columns(&rows)
}

/// Help's two columns, a row a line: each name, then its text from the
/// same column for all, at least two spaces after the longest name (and
/// from the 25th character at the least, where the common options'
/// texts start).
pub fn columns(rows: &[(String, String)]) -> String {
    let width = rows.iter().map(|(name, _)| name.chars().count() + 2).max().unwrap_or(0).max(24);
    rows.iter().map(|(name, text)| format!("  {name:<width$}{text}\n")).collect()
}
