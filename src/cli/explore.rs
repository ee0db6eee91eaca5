//! `idempotency-lab explore`: every schedule of at most K aimed faults over
//! a lab's settings, and for each check or invariant how many break it and
//! the simplest that does, with the flags and the link that replay it. Any
//! lab that explores (`view::explore::Explores`) has it.

use crate::sim::explore::MAX_FAULTS;
use crate::view::lab::LabModel;

use super::UsageError;
use super::args::{self, Extra, Flags, Format};

/// The explore command of the lab `--lab` names among the labs that
/// explore (the first of them without `--lab`); `rest` is what follows
/// `explore`.
pub fn command(rest: &[String], exploring: &[super::LabCommand]) -> Result<String, UsageError> {
    let allowed = exploring.iter().map(|l| l.lab.id).collect::<Vec<_>>().join(" or ");
    let lab = match Flags::find(rest, "--lab") {
        None => exploring.first(),
        Some(value) => {
            Some(exploring.iter().find(|l| l.lab.id == value).ok_or_else(|| args::refuse("--lab", value, &allowed))?)
        }
    };
    let explore = lab.and_then(|l| l.explore).ok_or_else(|| UsageError("no lab explores".to_owned()))?;
    explore(rest, &allowed)
}

/// `explore` for lab `L`, which explores; `labs` names every lab that does.
pub fn of<L: LabModel>(rest: &[String], labs: &str) -> Result<String, UsageError> {
    let explorer = L::EXPLORER.ok_or_else(|| args::refuse("--lab", L::LAB.id, labs))?;
    let extras = [
        Extra { flag: "--lab", allowed: format!("one of {labs}") },
        Extra { flag: "--max-faults", allowed: format!("a whole number from 1 to {MAX_FAULTS}") },
    ];
    let parsed = args::parse_lab::<L::Settings>(&format!("explore --lab {}", L::LAB.id), rest, &extras)?;
    if parsed.help {
        return Ok(help(labs));
    }
    let mut k = 2usize;
    for (flag, value) in &parsed.extras {
        if *flag == "--max-faults" {
            k = args::parse_count(flag, value, 1, MAX_FAULTS as u64)? as usize;
        }
    }
    let found = (explorer.explore)(&parsed.settings, k, &mut |_, _| true);
    Ok(match args::text_or_json(parsed.format, "explore")? {
        Format::Json => found.json(),
        Format::Text | Format::Otlp => found.text(),
    })
}

/// `explore --help`.
pub fn help(labs: &str) -> String {
    format!(
        "idempotency-lab explore: every schedule of at most K aimed faults over a lab's settings\n\n\
         Usage:\n  idempotency-lab explore [--lab {labs}] [--max-faults 1|2|3] [the lab's options] [--format text|json]\n\n\
         For each check or invariant: how many distinct schedules break it, and the simplest that does,\n\
         with the flags and the link that replay it. --lab (default {first}) picks the lab; its options are\n\
         those of `idempotency-lab LAB --help`. --max-faults is at most {MAX_FAULTS} (default 2).\n",
        labs = labs.replace(" or ", "|"),
        first = labs.split(" or ").next().unwrap_or_default(),
    )
}
