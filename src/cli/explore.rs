//! `idempotency-lab explore`: every schedule of at most K aimed faults over
//! a lab's settings, and for each check or invariant how many break it and
//! the simplest that does, with the flags and the link that replay it.

use crate::sim::explore::MAX_FAULTS;
use crate::sim::{ack, risk};
use crate::view::explore::{Found, explore_ack, explore_risk};

use super::UsageError;
use super::args::{self, Extra, Format};

const LABS: &str = "ack or risk";
const EXTRAS: &[Extra] =
    &[Extra { flag: "--lab", allowed: LABS }, Extra { flag: "--max-faults", allowed: "a whole number from 1 to 3" }];

/// The lab `--lab` names (the first lab without one).
fn lab_of(rest: &[String]) -> Result<&'static str, UsageError> {
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let value = match word.split_once('=') {
            Some(("--lab", value)) => value,
            None if word == "--lab" => words.next().map_or("", String::as_str),
            _ => continue,
        };
        return match value {
            "ack" => Ok("ack"),
            "risk" => Ok("risk"),
            _ => Err(args::refuse("--lab", value, LABS)),
        };
    }
    Ok("ack")
}

fn max_faults(extras: &[(&'static str, String)]) -> Result<usize, UsageError> {
    let mut k = 2usize;
    for (flag, value) in extras {
        if *flag == "--max-faults" {
            k = args::parse_count(flag, value, 1, MAX_FAULTS as u64)? as usize;
        }
    }
    Ok(k)
}

/// The explore command's arguments after its name.
pub fn command(rest: &[String]) -> Result<String, UsageError> {
    let (found, format): (Found, Format) = match lab_of(rest)? {
        "risk" => {
            let parsed = args::parse_lab::<risk::Settings>("explore --lab risk", rest, EXTRAS)?;
            (explore_risk(&parsed.settings, max_faults(&parsed.extras)?, |_, _| true), parsed.format)
        }
        _ => {
            let parsed = args::parse_lab::<ack::Settings>("explore --lab ack", rest, EXTRAS)?;
            (explore_ack(&parsed.settings, max_faults(&parsed.extras)?, |_, _| true), parsed.format)
        }
    };
    Ok(match args::text_or_json(format, "explore")? {
        Format::Json => found.json(),
        Format::Text | Format::Otlp => found.text(),
    })
}
