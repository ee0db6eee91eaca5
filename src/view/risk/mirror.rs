//! The text mirror: the risk lab's state at one moment, in plain lines. It
//! says in words what the page draws: the agent's calls and what it heard,
//! each replica's gates, the database table, the Risk API's reviews, the
//! workers' last claims and the checks.

use crate::sim::Millis;
use crate::sim::risk::agent::IntentState;
use crate::sim::risk::calls::Stage;
use crate::sim::risk::settings::Pattern;
use crate::sim::risk::worker::WorkerState;
use crate::sim::risk::{IntentOutcome, Run, Settings, Snapshot, Status};

use super::names;
use super::sentences::{check_line, heard, outcome, sentence};

/// Above this many calls or rows, the mirror summarises the older ones.
const LIST_LIMIT: usize = 24;

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn intent_state(state: IntentState) -> String {
    match state {
        IntentState::NotInvoked => "not invoked yet".to_owned(),
        IntentState::AwaitingResult => "waiting for a result".to_owned(),
        IntentState::BackingOff { until } => format!("backing off until {}", names::clock(until)),
        IntentState::Polling { review, at } => format!("will poll {} at {}", names::row(review), names::clock(at)),
        IntentState::AwaitingPoll { review, .. } => format!("waiting for the status of {}", names::row(review)),
        IntentState::Done { outcome: o, at } => format!("done at {}: {}", names::clock(at), outcome(o)),
    }
}

pub(super) fn intent_kind(state: IntentState) -> &'static str {
    match state {
        IntentState::NotInvoked => "not invoked yet",
        IntentState::AwaitingResult => "waiting for a result",
        IntentState::BackingOff { .. } => "backing off",
        IntentState::Polling { .. } | IntentState::AwaitingPoll { .. } => "polling",
        IntentState::Done { outcome: IntentOutcome::Succeeded(_), .. } => "done, SUCCEEDED",
        IntentState::Done { outcome: IntentOutcome::Failed(_), .. } => "done, FAILED",
        IntentState::Done { outcome: IntentOutcome::Refused(_) | IntentOutcome::Protocol(_), .. } => "done, refused",
        IntentState::Done { outcome: IntentOutcome::GaveUp | IntentOutcome::NoAnswer, .. } => "done, gave up",
    }
}

/// The text mirror of `run` at model time `t` (clamped to the horizon): the
/// run's settings, then a section per actor in the page's order (the agent,
/// the replicas' gates, the database table, the Risk API's reviews, the
/// workers), the checks and the latest event.
pub fn text_mirror(run: &Run, t: Millis) -> String {
    let t = t.min(run.horizon());
    let s = run.snapshot_at(t);
    let mut lines: Vec<String> = Vec::with_capacity(64);

    header_lines(run, t, &mut lines);
    lines.push("Agent (acting for u-1001):".to_owned());
    call_lines(&s, &mut lines);
    intent_lines(&s, &mut lines);
    gate_lines(&s, &mut lines);
    table_lines(&s, run.settings(), &mut lines);
    lines.push(reviews_line(&s));
    worker_lines(&s, &mut lines);

    lines.push("Checks:".to_owned());
    for check in run.checks_at(t) {
        lines.push(format!("  {}", check_line(&check)));
    }

    if let Some(latest) = run.records_until(t).last() {
        lines.push(format!("Latest event ({}): {}", names::clock(latest.t), sentence(latest)));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The preset, the mode, the moment and which patterns are on.
fn header_lines(run: &Run, t: Millis, lines: &mut Vec<String>) {
    let settings = run.settings();
    lines.push(format!("Risk-review lab: preset {}, mode {}.", settings.preset.value(), settings.mode.value()));
    lines.push(format!(
        "Model time: {t}, {} on the wall clock (the run ends at its horizon, {}).",
        names::clock(t),
        run.horizon()
    ));
    let switches: Vec<String> =
        Pattern::ALL.iter().map(|p| format!("{} {}", p.name(), on_off(settings.switches.get(*p)))).collect();
    lines.push(format!("Patterns: {}.", switches.join(", ")));
}

/// The agent's calls, the older ones summarised once there are many.
fn call_lines(s: &Snapshot, lines: &mut Vec<String>) {
    if s.calls.is_empty() {
        lines.push("  no calls yet.".to_owned());
    }
    let skipped = s.calls.len().saturating_sub(LIST_LIMIT);
    if skipped > 0 {
        let heard_by_then = s.calls[..skipped].iter().filter(|c| c.received_at.is_some()).count();
        lines.push(format!("  {skipped} earlier calls, {heard_by_then} of them answered; the latest {LIST_LIMIT}:"));
    }
    for c in &s.calls[skipped..] {
        let what = match (c.request_key, c.review) {
            (Some(key), _) => format!(
                "request_risk_review for {} with {}",
                c.order.map_or_else(String::new, names::order),
                names::request_key(key)
            ),
            (None, Some(review)) => format!("get_risk_review_status for {}", names::row(review)),
            (None, None) => c.tool.name().to_owned(),
        };
        let state = match (c.answered, c.received_at, c.stage) {
            (Some((_, h)), Some(at), _) => format!("heard {} at {}", heard(h), names::clock(at)),
            (Some((_, h)), None, _) => format!("answered {}, on its way back", heard(h)),
            (None, _, Stage::Queued { since }) => format!("queued since {}", names::clock(since)),
            (None, _, Stage::Travelling) => "on its way to the replica".to_owned(),
            (None, _, _) => "being handled".to_owned(),
        };
        lines.push(format!(
            "  {} at {}: {what} via replica {}: {state}.",
            names::call(c.id),
            names::clock(c.made_at),
            c.replica.name()
        ));
    }
}

/// Every intent the agent has invoked; a burst's are counted by state.
fn intent_lines(s: &Snapshot, lines: &mut Vec<String>) {
    let invoked: Vec<_> = s.intents.iter().filter(|i| i.state != IntentState::NotInvoked).collect();
    if invoked.len() <= LIST_LIMIT {
        for intent in invoked {
            lines.push(format!(
                "  intent {} ({}, order {}): {}.",
                intent.id.0,
                names::request_key(intent.request_key),
                names::order(intent.order),
                intent_state(intent.state)
            ));
        }
    } else {
        // Many intents (the burst): how many are in each state.
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for intent in &invoked {
            let kind = intent_kind(intent.state);
            match counts.iter_mut().find(|(k, _)| *k == kind) {
                Some(entry) => entry.1 += 1,
                None => counts.push((kind, 1)),
            }
        }
        let parts: Vec<String> = counts.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
        lines.push(format!("  {} intents: {}.", invoked.len(), parts.join(", ")));
    }
}

/// The global gate, then each replica's gates: how full they are now, and
/// at most so far.
fn gate_lines(s: &Snapshot, lines: &mut Vec<String>) {
    if let Some(quota) = s.fleet_quota {
        let (working, queued) = s.fleet();
        lines.push(format!(
            "Global gate: {working} of {quota} calls working across the fleet; {queued} queued at the replicas."
        ));
    }
    for g in &s.gates {
        let limits = if g.on {
            format!("{} of {} slots in flight, {} of {} queued", g.in_flight, g.cap, g.queued, g.capacity)
        } else {
            format!(
                "gates off, {} in flight, {} queued and no queue bound (cap {} unused)",
                g.in_flight, g.queued, g.cap
            )
        };
        lines.push(format!(
            "Replica {}: {limits}; so far at most {} in flight and {} queued, {} OVERLOADED.",
            g.replica.name(),
            g.max_in_flight,
            g.max_queued,
            g.overloaded
        ));
    }
}

/// The database table, the rows past the limit counted by status.
fn table_lines(s: &Snapshot, settings: &Settings, lines: &mut Vec<String>) {
    lines.push(format!(
        "Database table risk_requests ({}; unique request_key {}, unique business_key {}):",
        super::sql::rows(s.rows.len() as u32),
        on_off(settings.switches.unique_request_key),
        on_off(settings.switches.unique_business_key)
    ));
    if !s.rows.is_empty() {
        lines.push(format!(
            "  {:<7} {:<12} {:<20} {:<10} {:<8} {:<12} {}",
            "id", "request_key", "business_key", "status", "version", "retry_count", "next_retry_at"
        ));
    }
    for row in s.rows.iter().take(LIST_LIMIT) {
        let next = row.next_retry_at.map_or_else(|| "-".to_owned(), names::clock);
        lines.push(format!(
            "  {:<7} {:<12} {:<20} {:<10} {:<8} {:<12} {next}",
            names::row(row.id),
            names::request_key(row.request_key),
            names::business_key(row.business_key()),
            row.status.name(),
            row.version,
            row.retry_count
        ));
    }
    if s.rows.len() > LIST_LIMIT {
        let by_status: Vec<String> = Status::ALL
            .iter()
            .map(|st| (st, s.rows[LIST_LIMIT..].iter().filter(|r| r.status == *st).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(st, n)| format!("{n} {}", st.name()))
            .collect();
        lines.push(format!("  ... and {} more rows: {}.", s.rows.len() - LIST_LIMIT, by_status.join(", ")));
    }
}

/// The Risk API's reviews: this lab's ledger.
fn reviews_line(s: &Snapshot) -> String {
    if s.reviews.is_empty() {
        return "Risk API reviews: none.".to_owned();
    }
    let parts: Vec<String> = s
        .reviews
        .iter()
        .take(LIST_LIMIT)
        .map(|r| {
            format!(
                "{} for {} (order {}) at {}",
                names::review(r.review),
                names::request_key(r.request_key),
                names::order(r.order),
                names::clock(r.at)
            )
        })
        .collect();
    let more = s.reviews.len().saturating_sub(LIST_LIMIT);
    let more = if more > 0 { format!("; and {more} more") } else { String::new() };
    format!("Risk API reviews ({}): {}{more}.", s.reviews.len(), parts.join("; "))
}

/// Each worker's state and its last claim.
fn worker_lines(s: &Snapshot, lines: &mut Vec<String>) {
    for w in &s.workers {
        let state = match w.state {
            WorkerState::Crashed { at } => format!("crashed at {}", names::clock(at)),
            other => other.name().replace('_', " "),
        };
        let claim = match w.last_claim {
            None => "no claims yet".to_owned(),
            Some(c) => format!(
                "last claim {} at version {} at {}: {}",
                names::row(c.row),
                c.version,
                names::clock(c.at),
                if c.won { "won" } else { "lost" }
            ),
        };
        lines.push(format!("Worker {}: {state}; {claim}.", w.worker.name()));
    }
}
