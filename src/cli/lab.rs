//! A lab's command, the same for every lab that describes a run at a
//! moment: flags in (the lab's parameters, `--settings`, `--format`,
//! `--at-ms`), the run out as text (the state at `--at-ms`, then every
//! event) or as its JSON report.

use crate::sim::Millis;
use crate::view::lab::LabModel;

use super::args::{self, Format, UsageError};

/// The help of `L`'s command.
pub fn help<L: LabModel>() -> String {
    let id = L::LAB.id;
    let mut out =
        format!("idempotency-lab {id}: {}\n\nUsage:\n  idempotency-lab {id} [options]\n\nOptions:\n", L::LAB.summary);
    out.push_str(&args::params_help::<L::Settings>());
    let common = [
        ("--settings FILE", "read settings from a JSON file first (- for standard input); flags override it"),
        (
            "--format text|json|otlp",
            "text: the state at --at-ms, then every event (default text); otlp: the run as an OpenTelemetry trace (OTLP/JSON)",
        ),
        ("--at-ms T", "the model time the text state describes (default: the end of the run)"),
    ];
    let common: Vec<(String, String)> = common.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect();
    out.push_str(&args::columns(&common));
    let presets = L::presets();
    if !presets.is_empty() {
        out.push_str("\nPresets and experiments:\n");
        let rows: Vec<(String, String)> = presets.iter().map(|p| (p.id.to_owned(), p.title.to_owned())).collect();
        out.push_str(&args::columns(&rows));
    }
    out
}

/// Runs `L`'s command with `args` (after the command's name).
pub fn command<L: LabModel>(args: &[String]) -> Result<String, UsageError> {
    let parsed = args::parse_lab::<L::Settings>(L::LAB.id, args, &[])?;
    if parsed.help {
        return Ok(help::<L>());
    }
    let run = L::simulate(&parsed.settings).map_err(|e| UsageError(format!("the run could not finish: {e}")))?;
    let last = L::last_moment(&run).ms();
    if let Some(t) = parsed.at_ms
        && t > last
    {
        return Err(UsageError(format!(
            "--at-ms: {t} is beyond the run; allowed: a whole number from 0 to {last} (the run ends at {last} ms)"
        )));
    }
    Ok(match parsed.format {
        Format::Json => L::document(&run),
        Format::Otlp => L::otlp(&run).ok_or_else(|| {
            UsageError(format!("--format: \"otlp\" is not allowed for {}; allowed: one of text, json", L::LAB.id))
        })?,
        Format::Text => {
            let mut out = L::text_mirror(&run, Millis(parsed.at_ms.unwrap_or(last)));
            let events = L::event_lines(&run);
            if !events.is_empty() {
                out.push_str("\nEvents:\n");
                out.push_str(&events);
            }
            out
        }
    })
}
