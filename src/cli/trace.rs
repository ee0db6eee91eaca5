//! `idempotency-lab trace FILE`: reads an OpenTelemetry trace (OTLP/JSON,
//! one document or one per line) and says what it finds: the checks over
//! the whole trace and per intent, and where it broke.

use crate::sim::trace::read::{Limits, MAX_BYTES};
use crate::sim::trace::rules::{RULES, Rules};
use crate::sim::trace::{Findings, read};
use crate::view::traces;

use super::args::{self, Format, UsageError};

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

/// Reads at most `limit` bytes of `source` (a path, or `-` for standard
/// input), refusing a larger one with the limit in the message.
pub fn read_bounded(source: &str, limit: u64) -> Result<String, UsageError> {
    use std::io::Read;
    let name = crate::sim::params::shorten(source);
    let cannot =
        |e: std::io::Error| UsageError(format!("trace: cannot read \"{name}\": {e}; allowed: a readable file"));
    let reader: Box<dyn Read> =
        if source == "-" { Box::new(std::io::stdin()) } else { Box::new(std::fs::File::open(source).map_err(cannot)?) };
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(UsageError(format!(
            "trace: \"{name}\" is larger than {limit} bytes; allowed: a file of at most {limit} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "trace: \"{name}\" is not UTF-8 text (byte {}); allowed: an OTLP/JSON file",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Runs `trace` with its arguments (after the command's name).
pub fn command(rest: &[String]) -> Result<String, UsageError> {
    let mut file = None;
    let mut format = Format::Text;
    let mut rules = Rules::default();
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = |allowed: &str| match inline.clone().or_else(|| it.next().cloned()) {
            Some(v) => Ok(v),
            None => Err(UsageError(format!("{flag} needs a value; allowed: {allowed}"))),
        };
        if let Some(rule) = RULES.iter().find(|r| r.flag == flag) {
            rule.apply(&mut rules, &value("a name")?).map_err(UsageError)?;
            continue;
        }
        match flag {
            "--help" | "-h" => return Ok(help()),
            "--format" => {
                let v = value("one of text, json")?;
                format = match v.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => return Err(args::refuse("--format", other, "one of text, json")),
                };
            }
            f if f.starts_with("--") => {
                let flags: Vec<&str> = RULES.iter().map(|r| r.flag).chain(["--format"]).collect();
                return Err(UsageError(format!(
                    "unknown option \"{}\" for trace; allowed: {}",
                    crate::sim::params::shorten(f),
                    flags.join(", ")
                )));
            }
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(UsageError("trace reads one file; allowed: trace FILE [options]".to_owned())),
        }
    }
    let Some(file) = file else {
        return Err(UsageError("trace needs a file; allowed: trace FILE [--format text|json]".to_owned()));
    };
    let text = read_bounded(&file, MAX_BYTES as u64)?;
    let reading = read(&text, Limits::default())
        .map_err(|e| UsageError(format!("trace \"{}\": {e}", crate::sim::params::shorten(&file))))?;
    let findings = Findings::of(reading, &rules);
    Ok(match format {
        Format::Json => traces::json(&findings),
        _ => traces::text(&findings),
    })
}
