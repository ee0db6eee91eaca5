//! `idempotency-lab trace FILE`: reads an OpenTelemetry trace (OTLP/JSON,
//! one document or one per line) and says what it finds: the checks over
//! the whole trace and per intent, and where it broke.

use crate::sim::trace::read::{Limits, MAX_BYTES};
use crate::sim::trace::rules::{RULES, Rules};
use crate::sim::trace::{Findings, read};
use crate::view::traces;

use super::args::{self, Format, UsageError};
use super::input::read_bounded;

pub fn help() -> String {
    let mut out = String::from(
        "idempotency-lab trace: check an OpenTelemetry trace for idempotency\n\nUsage:\n  \
         idempotency-lab trace FILE [--format text|json] [rules]\n\n\
         FILE is an OTLP/JSON trace export (one document, or the Collector's file exporter's one\n\
         document per line), at most 64 MiB and 200000 spans; - reads standard input.\n\nOptions:\n  \
         --format text|json      text: checks, intents, where it broke, then the spans (default text)\n",
    );
    let defaults = Rules::default();
    for rule in &RULES {
        out.push_str(&format!(
            "  {:<24}{} (default {})\n",
            format!("{} NAME", rule.flag),
            rule.label,
            (rule.get)(&defaults)
        ));
    }
    out
}

/// Reads the trace at `source` (a path, or `-` for standard input) through
/// the command line's one bounded reader, as UTF-8 text (a byte-order mark
/// ignored).
fn read_trace(source: &str) -> Result<String, UsageError> {
    let name = crate::sim::params::shorten(source);
    let bytes = read_bounded(source, MAX_BYTES).map_err(|e| {
        UsageError(format!(
            "trace: \"{name}\" {e}; allowed: an OTLP/JSON file of at most {MAX_BYTES} bytes, or - for standard input"
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "trace: \"{name}\" is not UTF-8 text (byte {}); allowed: an OTLP/JSON file",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(text.strip_prefix('\u{feff}').map(str::to_owned).unwrap_or(text))
}

/// Runs `trace` with its arguments (after the command's name).
pub fn command(rest: &[String]) -> Result<String, UsageError> {
    let mut file: Option<&str> = None;
    let mut format = Format::Text;
    let mut rules = Rules::default();
    let mut flags = args::Flags::new("trace", rest);
    while let Some(word) = flags.next()? {
        match word {
            args::Word::Help => return Ok(help()),
            args::Word::Flag("--format") => {
                format = args::parse_format(&mut flags, args::FORMATS)?;
            }
            args::Word::Flag(flag) => {
                let Some(rule) = RULES.iter().find(|r| r.flag == flag) else {
                    let known: Vec<&str> = RULES.iter().map(|r| r.flag).chain(["--format"]).collect();
                    return Err(flags.refuse(word, &known.join(", ")));
                };
                rule.apply(&mut rules, flags.value("a name")?).map_err(UsageError)?;
            }
            args::Word::Operand(path) if file.is_none() => file = Some(path),
            args::Word::Operand(_) => {
                return Err(UsageError("trace reads one file; allowed: trace FILE [options]".to_owned()));
            }
        }
    }
    let Some(file) = file else {
        return Err(UsageError("trace needs a file; allowed: trace FILE [--format text|json]".to_owned()));
    };
    let text = read_trace(file)?;
    let reading = read(&text, Limits::default())
        .map_err(|e| UsageError(format!("trace \"{}\": {e}", crate::sim::params::shorten(file))))?;
    let findings = Findings::of(reading, &rules);
    Ok(match format {
        Format::Json => traces::json(&findings),
        _ => traces::text(&findings),
    })
}
