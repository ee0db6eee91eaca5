//! Flags in, validated settings out, for every command. Every command
//! reads its words through one reader, [`Flags`]: `--flag value` and
//! `--flag=value` alike, `--help` (or `-h`) anywhere, and one way of
//! refusing what it does not take. A lab's parameters come from its
//! [`Schema`]; the common flags (`--settings`, `--format`, `--at-ms`) and a
//! command's own extras are read here too, so every refusal reads the same
//! way.

use crate::sim::params::{Kind, ParamDef, Raw, Schema, shorten};
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

/// What `--format` takes where a trace is not among the outputs.
pub const FORMATS: &str = "one of text, json";
/// What a lab's `--format` takes (a lab with no trace refuses `otlp`).
pub const FORMATS_OTLP: &str = "one of text, json, otlp";

/// A flag a command takes besides its lab's parameters.
pub struct Extra {
    pub flag: &'static str,
    /// What it allows, for messages and help.
    pub allowed: String,
}

pub fn refuse(flag: &str, value: &str, allowed: &str) -> UsageError {
    UsageError(format!("{flag}: \"{}\" is not allowed; allowed: {allowed}", shorten(value)))
}

/// One word of a command line, as [`Flags`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word<'a> {
    /// `--flag` or `--flag=value` (its value is read with [`Flags::value`]).
    Flag(&'a str),
    /// `--help` or `-h`.
    Help,
    /// A word that is not a flag (a command's operand).
    Operand(&'a str),
}

/// The words after a command's name, read one at a time.
pub struct Flags<'a> {
    /// The command, for messages ("unknown option … for bench").
    command: &'a str,
    words: std::slice::Iter<'a, String>,
    /// The flag just read, and the value written after its `=`, if any.
    flag: &'a str,
    inline: Option<&'a str>,
}

impl<'a> Flags<'a> {
    pub fn new(command: &'a str, words: &'a [String]) -> Flags<'a> {
        Flags { command, words: words.iter(), flag: "", inline: None }
    }

    /// The next word, or `None` at the end. A flag's `=value` that was not
    /// read is refused: that flag takes no value.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Word<'a>>, UsageError> {
        if let Some(value) = self.inline.take() {
            return Err(UsageError(format!(
                "{}: takes no value, but was given \"{}\"; allowed: {} alone",
                self.flag,
                shorten(value),
                self.flag
            )));
        }
        let Some(word) = self.words.next() else { return Ok(None) };
        if word == "--help" || word == "-h" {
            return Ok(Some(Word::Help));
        }
        if !word.starts_with("--") {
            return Ok(Some(Word::Operand(word)));
        }
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value)),
            None => (word.as_str(), None),
        };
        self.flag = flag;
        self.inline = inline;
        Ok(Some(Word::Flag(flag)))
    }

    /// The value of the flag just read: after its `=`, or the next word
    /// (which may not itself be a flag).
    pub fn value(&mut self, allowed: &str) -> Result<&'a str, UsageError> {
        if let Some(value) = self.inline.take() {
            return Ok(value);
        }
        match self.words.as_slice().first() {
            Some(next) if !next.starts_with("--") => {
                self.words.next();
                Ok(next.as_str())
            }
            _ => Err(UsageError(format!("{} needs a value; allowed: {allowed}", self.flag))),
        }
    }

    /// Refuses `word`, which this command does not take; `allowed` lists
    /// what it does take.
    pub fn refuse(&self, word: Word<'_>, allowed: &str) -> UsageError {
        match word {
            Word::Flag(flag) => {
                UsageError(format!("unknown option \"{}\" for {}; allowed: {allowed}", shorten(flag), self.command))
            }
            Word::Operand(word) => {
                UsageError(format!("{} takes no \"{}\"; allowed: {allowed}", self.command, shorten(word)))
            }
            Word::Help => UsageError(format!("{} takes no --help", self.command)),
        }
    }

    /// The value `flag` is given in `words`, read as every command reads
    /// its flags (the last one counts), without judging the other words:
    /// the command reads them once it knows what this one says.
    pub fn find(words: &'a [String], flag: &str) -> Option<&'a str> {
        let mut reader = Flags::new("", words);
        let mut found = None;
        while let Ok(Some(word)) = reader.next() {
            if word == Word::Flag(flag) {
                found = Some(reader.value("").unwrap_or(""));
            } else if let Word::Flag(_) = word {
                // Whatever it is, its `=value` is its own.
                reader.inline = None;
            }
        }
        found
    }
}

/// What a lab command's flags said.
#[derive(Debug)]
pub struct LabArgs<S> {
    pub settings: S,
    pub format: Format,
    pub at_ms: Option<u64>,
    /// The command's own flags, as given, in order.
    pub extras: Vec<(&'static str, String)>,
    /// The lab's parameters the flags set, in order.
    pub given: Vec<&'static ParamDef>,
    pub help: bool,
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

/// `--format`'s value, among `allowed` ([`FORMATS`] or [`FORMATS_OTLP`]).
pub fn parse_format(flags: &mut Flags<'_>, allowed: &str) -> Result<Format, UsageError> {
    match flags.value(allowed)? {
        "text" => Ok(Format::Text),
        "json" => Ok(Format::Json),
        "otlp" if allowed == FORMATS_OTLP => Ok(Format::Otlp),
        other => Err(refuse("--format", other, allowed)),
    }
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
    let mut parsed = LabArgs {
        settings: S::opening(),
        format: Format::Text,
        at_ms: None,
        extras: Vec::new(),
        given: Vec::new(),
        help: false,
    };
    let mut flags = Flags::new(command, args);
    while let Some(word) = flags.next()? {
        let Word::Flag(flag) = word else {
            if word == Word::Help {
                parsed.help = true;
                return Ok(parsed);
            }
            return Err(flags.refuse(word, &all_flags::<S>(extras)));
        };
        if let Some(param) = S::by_flag(flag) {
            let value = flags.value(&param.allowed())?;
            parsed.given.push(param);
            // Aimed faults may be given one flag each: they add up.
            match (param.kind, raw.get(param)) {
                (Kind::Aimed { .. }, Some(before)) if !before.is_empty() => {
                    let joined = format!("{before},{value}");
                    raw.set(param, joined);
                }
                _ => raw.set(param, value),
            }
        } else if let Some(extra) = extras.iter().find(|e| e.flag == flag) {
            let value = flags.value(&extra.allowed)?;
            parsed.extras.push((extra.flag, value.to_owned()));
        } else {
            match flag {
                "--format" => parsed.format = parse_format(&mut flags, FORMATS_OTLP)?,
                "--at-ms" => {
                    let value = flags.value("a whole number of milliseconds within the run")?;
                    parsed.at_ms = Some(parse_count(flag, value, 0, u64::MAX)?);
                }
                "--settings" => {
                    let value = flags.value("the path of a JSON settings file, or - for standard input")?;
                    base = Some(read_settings_file(value)?);
                }
                _ => return Err(flags.refuse(word, &all_flags::<S>(extras))),
            }
        }
    }
    // Over a settings file, or over the defaults for what the flags give.
    parsed.settings = match &base {
        Some(base) => raw.validate_over(base),
        None => raw.validate(),
    }
    .map_err(|e| UsageError(e.message(e.param.flag)))?;
    Ok(parsed)
}

/// One line per parameter for a command's help: flag, allowed, default.
pub fn params_help<S: Schema>() -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_flag_takes_its_value_after_an_equals_sign_or_as_the_next_word() {
        let line = words("--a=1 --b 2 -h word --c=");
        let mut flags = Flags::new("test", &line);
        assert_eq!(flags.next(), Ok(Some(Word::Flag("--a"))));
        assert_eq!(flags.value("x"), Ok("1"));
        assert_eq!(flags.next(), Ok(Some(Word::Flag("--b"))));
        assert_eq!(flags.value("x"), Ok("2"));
        assert_eq!(flags.next(), Ok(Some(Word::Help)));
        assert_eq!(flags.next(), Ok(Some(Word::Operand("word"))));
        assert_eq!(flags.next(), Ok(Some(Word::Flag("--c"))));
        assert_eq!(flags.value("x"), Ok(""), "an empty value is a value, for the flag to judge");
        assert_eq!(flags.next(), Ok(None));
    }

    #[test]
    fn a_value_given_to_a_flag_that_takes_none_is_refused() {
        let line = words("--switch=on");
        let mut flags = Flags::new("test", &line);
        assert_eq!(flags.next(), Ok(Some(Word::Flag("--switch"))));
        let err = flags.next().unwrap_err();
        assert_eq!(err.0, "--switch: takes no value, but was given \"on\"; allowed: --switch alone");
    }

    #[test]
    fn find_reads_one_flag_without_judging_the_others() {
        let line = words("--max-faults 2 --lab=risk --mode patterns --lab ack --x=--lab");
        assert_eq!(Flags::find(&line, "--lab"), Some("ack"));
        assert_eq!(Flags::find(&words("--format json"), "--lab"), None);
        assert_eq!(Flags::find(&words("--lab"), "--lab"), Some(""));
    }
}
