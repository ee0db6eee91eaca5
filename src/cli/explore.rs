//! `idempotency-lab explore`: every schedule of at most K aimed faults over
//! the risk lab's settings, and for each check how many break it and the
//! shortest that does, with the link and the flags that replay it.

use crate::sim::json::Json;
use crate::sim::risk::Settings;
use crate::sim::risk::explore::{Exploration, MAX_FAULTS, Schedule, explore};
use crate::view::labs;
use crate::view::risk::verdicts::title;
use crate::view::url::{LinkState, to_query};

use super::UsageError;
use super::args::{self, Extra, Format};

const EXTRAS: &[Extra] =
    &[Extra { flag: "--lab", allowed: "risk" }, Extra { flag: "--max-faults", allowed: "a whole number from 1 to 3" }];

/// The link that opens `schedule` over `base` as the lab's run.
fn link(base: &Settings, schedule: &Schedule) -> String {
    let lab = labs::by_id("risk").unwrap_or_else(labs::opening);
    match schedule.settings(base) {
        Some(settings) => format!("?{}", to_query(&LinkState::of(lab, &settings, None, Default::default()))),
        None => String::new(),
    }
}

/// The flags that replay `schedule` with `risk`.
fn flags(schedule: &Schedule) -> String {
    let mut out: Vec<String> = schedule.fault_texts().iter().map(|f| format!("--fault {f}")).collect();
    if out.is_empty() {
        out.push("--fault none".to_owned());
    }
    out.push(format!("--worker-order {}", schedule.order.value()));
    out.join(" ")
}

fn json(base: &Settings, e: &Exploration) -> String {
    let checks = e
        .checks
        .iter()
        .map(|b| {
            let shortest = b.shortest.as_ref().map_or(Json::Null, |s| {
                Json::obj([
                    ("faults", Json::Arr(s.fault_texts().into_iter().map(Json::Str).collect())),
                    ("worker_order", Json::str(s.order.value())),
                    ("link", Json::Str(link(base, s))),
                ])
            });
            Json::obj([("name", Json::str(b.check.name())), ("broken", Json::num(b.broken)), ("shortest", shortest)])
        })
        .collect();
    Json::obj([("explored", Json::num(e.explored)), ("distinct", Json::num(e.distinct)), ("checks", Json::Arr(checks))])
        .pretty()
        + "\n"
}

fn text(base: &Settings, k: usize, e: &Exploration) -> String {
    let mut out = format!(
        "Explored {} schedules of at most {k} fault(s), {} distinct, over preset {}.\n",
        e.explored,
        e.distinct,
        base.preset.value()
    );
    let broken: Vec<_> = e.checks.iter().filter(|b| b.broken > 0).collect();
    if broken.is_empty() {
        out.push_str(&format!("No schedule of at most {k} fault(s) breaks a check ({} explored).\n", e.explored));
    }
    for b in broken {
        let Some(s) = &b.shortest else { continue };
        out.push_str(&format!(
            "{} ({}): broken by {} schedule(s); the simplest: {}\n",
            b.check.name(),
            title(b.check),
            b.broken,
            flags(s)
        ));
    }
    out
}

/// The explore command's arguments after its name.
pub fn command(rest: &[String]) -> Result<String, UsageError> {
    let parsed = args::parse_lab::<Settings>("explore", rest, EXTRAS)?;
    let mut k = 2usize;
    for (flag, value) in &parsed.extras {
        match *flag {
            "--lab" if value == "risk" => {}
            "--lab" => return Err(args::refuse(flag, value, "risk")),
            _ => k = args::parse_count(flag, value, 1, MAX_FAULTS as u64)? as usize,
        }
    }
    let base = parsed.settings;
    let e = explore(&base, k, |_, _| true);
    Ok(match parsed.format {
        Format::Json => json(&base, &e),
        Format::Text => text(&base, k, &e),
    })
}
