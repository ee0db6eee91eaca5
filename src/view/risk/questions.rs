//! One predict-then-reveal question per preset. The answer and its
//! explanation come from the run's own records and checks, so the same
//! question answers itself correctly in either mode and with any switch.

use crate::sim::Millis;
use crate::sim::risk::facts::{Actor, FORGED_ORDER, Heard, OrderId, Record, What};
use crate::sim::risk::{CheckName, Fig, Pattern, Preset, Run};

use super::checks::title;
use super::names;
use super::patterns::{buys, protects};
use super::verdicts::{number, said};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub text: &'static str,
    pub choices: &'static [&'static str],
}

const FEW: &[&str] = &["1", "2"];
const YES_NO: &[&str] = &["yes", "no"];

/// The preset's question.
pub fn question(preset: Preset) -> Question {
    Question { text: text(preset), choices: choices(preset) }
}

/// The question's words.
fn text(preset: Preset) -> &'static str {
    match preset {
        Preset::Incident => {
            "The first create's response is lost, and the agent calls again at 10:31:12.000 for the same intent. How many reviews will the Risk API hold for O20260728001?"
        }
        Preset::SameRequestKey => {
            "The same call, with the same request_key, reaches both replicas at once. How many rows will the table hold?"
        }
        Preset::SameBusinessKey => {
            "A second click sends a new request_key for the same order while the first create is under way. How many reviews will the Risk API create?"
        }
        Preset::LostCreateResponse => {
            "The Risk API creates the review, but its response is lost. What status does row R10086 end in?"
        }
        Preset::NotFoundResend => {
            "The create never reaches the Risk API, and both workers wake at the same instants. How many creates will the workers resend?"
        }
        Preset::ForgedOrder => {
            "The agent names O20260728999, which belongs to u-2002, not to the user it acts for. Does the Risk API get a call for that order?"
        }
        Preset::Overload => {
            "A burst of calls arrives at once, far more than the replicas' slots. Is every call answered within the client deadline?"
        }
        Preset::WorkerCrash => {
            "The create is lost, and the worker that resends it crashes right after sending. What status does row R10086 end in?"
        }
        Preset::ProbeRacesCreate => {
            "The first create is slow: the probe asks while it is still in flight, hears \"not found\", and a worker resends. How many reviews will the Risk API hold?"
        }
        Preset::CheckThenInsertRace => {
            "Two clicks for the same order reach the two replicas at the same instant, each with its own request_key. How many reviews will the Risk API hold for O20260728001?"
        }
        Preset::PausePastLease => {
            "The same two clicks; the replica that gets to its insert first pauses for 6 s, longer than any lease. How many reviews will the Risk API hold for O20260728001?"
        }
        Preset::NewGeneration => {
            "The first review is rejected and ends FAILED; a new request for the same order follows, then a second click while it is under way. How many reviews will the Risk API hold for O20260728001?"
        }
        Preset::ReplicaPause => {
            "The replica pauses for 6 s before its insert, and the agent gives up on the call after 5 s. Does the Risk API create a review after the agent gave up?"
        }
        Preset::WrongAudience => {
            "The agent's call carries a bearer token issued for another server. Does the Risk API get a call for it?"
        }
        Preset::UserInArguments => {
            "The agent asks for O20260728999, which belongs to u-2002, and names u-2002 as user_id in its arguments; its verified token is u-1001's. Does the Risk API get a call for that order?"
        }
        Preset::ExtraArgument => {
            "The agent's call carries an argument the tool's schema does not have, approved: true. Does that call write a row?"
        }
        Preset::LongReason => {
            "The agent's call carries a reason of 600 characters; the tool's schema allows 500. Does that call write a row?"
        }
        Preset::WideFleet => {
            "Twenty replicas with 64 slots each take a burst of 1 280 calls; the Risk API is verified for 100 at once. Does it ever work on more than 100?"
        }
        Preset::SlowFleet => {
            "The same burst, but every create takes 3 s, longer than the replicas' 2.5 s budget. Does the Risk API ever work on more than 100 calls at once?"
        }
        Preset::SlowingDownstream => {
            "Calls arrive at a steady ten per second while the Risk API slows from 0.41 s to 1.4 s. By the end of the stream, are more calls in flight at the replicas than after its first two seconds?"
        }
        Preset::RandomFaults => "Faults drawn from the seed hit this run. Will any of the checks fail?",
    }
}

/// The answers the reader chooses from; presets that ask the same kind of
/// question share them.
fn choices(preset: Preset) -> &'static [&'static str] {
    match preset {
        Preset::Incident
        | Preset::SameRequestKey
        | Preset::SameBusinessKey
        | Preset::ProbeRacesCreate
        | Preset::CheckThenInsertRace
        | Preset::PausePastLease => FEW,
        Preset::NewGeneration => &["0", "1", "2"],
        Preset::LostCreateResponse => &["SUCCEEDED", "FAILED", "UNKNOWN"],
        Preset::NotFoundResend => &["0", "1", "2"],
        Preset::ForgedOrder
        | Preset::Overload
        | Preset::RandomFaults
        | Preset::WrongAudience
        | Preset::UserInArguments
        | Preset::ExtraArgument
        | Preset::LongReason
        | Preset::WideFleet
        | Preset::SlowFleet
        | Preset::ReplicaPause
        | Preset::SlowingDownstream => YES_NO,
        Preset::WorkerCrash => &["SUCCEEDED", "FAILED", "PENDING"],
    }
}

fn reviews_for(run: &Run, order: OrderId) -> usize {
    run.reviews().iter().filter(|r| r.order == order).count()
}

fn first_row_status(run: &Run) -> String {
    run.rows().first().map_or_else(|| "no row".to_owned(), |r| r.status.name().to_owned())
}

fn resends(records: &[Record]) -> usize {
    records.iter().filter(|r| matches!((r.actor, r.what), (Actor::Worker(_), What::CreateSent { .. }))).count()
}

fn forged_creates(records: &[Record]) -> usize {
    records.iter().filter(|r| matches!(r.what, What::CreateSent { order, .. } if order == FORGED_ORDER)).count()
}

/// A count or duration `check` reports at the end of the run.
fn number_of(run: &Run, check: CheckName, fig: Fig) -> Option<u64> {
    run.checks().into_iter().find(|c| c.name == check).and_then(|c| number(&c, fig))
}

/// A figure `check` reports at the end of the run, as text.
fn said_of(run: &Run, check: CheckName, fig: Fig) -> String {
    run.checks().into_iter().find(|c| c.name == check).map_or_else(|| "?".to_owned(), |c| said(&c, fig))
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_owned()
}

/// The run's answer to its preset's question.
pub fn answer(run: &Run) -> String {
    let records = run.records();
    match run.settings().preset {
        Preset::Incident | Preset::CheckThenInsertRace | Preset::PausePastLease | Preset::NewGeneration => {
            reviews_for(run, OrderId(1)).to_string()
        }
        Preset::SameRequestKey => run.rows().len().to_string(),
        Preset::SameBusinessKey | Preset::ProbeRacesCreate => run.reviews().len().to_string(),
        Preset::LostCreateResponse | Preset::WorkerCrash => first_row_status(run),
        Preset::NotFoundResend => resends(records).to_string(),
        Preset::ForgedOrder | Preset::UserInArguments => yes_no(forged_creates(records) > 0),
        Preset::ExtraArgument | Preset::LongReason => {
            yes_no(number_of(run, CheckName::OutsideSchemaRefused, Fig::Rows).is_some_and(|n| n > 0))
        }
        Preset::WrongAudience => yes_no(records.iter().any(|r| matches!(r.what, What::CreateSent { .. }))),
        Preset::Overload => yes_no(late_answers(run) == 0),
        Preset::ReplicaPause => yes_no(reviews_after_giving_up(run) > 0),
        Preset::SlowingDownstream => {
            let s = super::series::Series::of(run);
            let at = |ms: u64| s.points.iter().find(|p| p.t == Millis(ms)).map_or(0, |p| p.at_replicas);
            yes_no(at(18_900) > at(1_900))
        }
        Preset::WideFleet | Preset::SlowFleet => {
            let figure = |fig| number_of(run, CheckName::DownstreamWithinCapacity, fig);
            yes_no(
                matches!((figure(Fig::PeakConcurrency), figure(Fig::SafeConcurrency)), (Some(peak), Some(safe)) if peak > safe),
            )
        }
        Preset::RandomFaults => yes_no(run.checks().iter().any(|c| c.holds == Some(false))),
    }
}

/// Tool calls answered after their client deadline, or not at all by the
/// end of the run.
fn late_answers(run: &Run) -> usize {
    let deadline = run.settings().agent.deadline;
    let mut made: Vec<Millis> = Vec::new();
    let mut late = 0;
    for r in run.records() {
        match r.what {
            What::ToolCall { .. } => made.push(r.t),
            What::ResultReceived { call, made_at, .. } if r.t.since(made_at) > deadline => {
                late += usize::from(made.get((call.0 as usize).saturating_sub(1)).is_some());
            }
            _ => {}
        }
    }
    let received = run.records().iter().filter(|r| matches!(r.what, What::ResultReceived { .. })).count();
    late + made.len().saturating_sub(received)
}

/// Reviews the Risk API created after the agent gave up on the call that
/// led to them.
fn reviews_after_giving_up(run: &Run) -> u64 {
    number_of(run, CheckName::NoEffectAfterDeadline, Fig::CreatesAfter).unwrap_or_default()
}

fn when_of(records: &[Record], keep: impl Fn(&Record) -> bool) -> Option<Millis> {
    records.iter().find(|r| keep(r)).map(|r| r.t)
}

/// The patterns that decide a preset's answer.
fn deciding(preset: Preset) -> &'static [Pattern] {
    match preset {
        Preset::Incident => {
            &[Pattern::UniqueRequestKey, Pattern::TimeoutIsUnknown, Pattern::IdempotentCreate, Pattern::RetryPolicy]
        }
        Preset::SameRequestKey => &[Pattern::UniqueRequestKey, Pattern::UniqueBusinessKey],
        Preset::SameBusinessKey => &[Pattern::UniqueBusinessKey],
        Preset::LostCreateResponse => &[Pattern::TimeoutIsUnknown, Pattern::FindByKey],
        Preset::NotFoundResend | Preset::WorkerCrash => &[Pattern::Cas, Pattern::FindByKey],
        Preset::ProbeRacesCreate => &[Pattern::IdempotentCreate, Pattern::Cas],
        Preset::CheckThenInsertRace | Preset::PausePastLease | Preset::NewGeneration => &[Pattern::UniqueBusinessKey],
        Preset::ForgedOrder | Preset::WrongAudience => &[Pattern::Authorize],
        Preset::Overload => &[Pattern::Gates, Pattern::ErrorResults],
        Preset::UserInArguments => &[Pattern::SubjectFromToken, Pattern::Authorize],
        Preset::ExtraArgument | Preset::LongReason => &[Pattern::StrictSchema, Pattern::ErrorResults],
        Preset::WideFleet | Preset::SlowFleet => &[Pattern::GlobalGate, Pattern::DownstreamLimit],
        Preset::ReplicaPause => &[Pattern::DeadlinePropagation],
        Preset::SlowingDownstream => &[],
        Preset::RandomFaults => &[],
    }
}

/// Why the run came out so: each deciding pattern, on or off in this run,
/// what it does, and the verdict of the check it protects here.
pub fn why(run: &Run) -> String {
    let checks = run.checks();
    let clauses: Vec<String> = deciding(run.settings().preset)
        .iter()
        .map(|&p| {
            let check = protects(p);
            let verdict = super::sentences::verdict(checks.iter().find(|c| c.name == check).and_then(|c| c.holds));
            let label = p.param().label;
            let said = format!("\u{201c}{}\u{201d} {verdict}", title(check));
            if run.settings().switches.get(p) {
                format!("{label} is on: {} ({said})", buys(p).trim_end_matches('.'))
            } else {
                format!("{label} is off, so nothing guards {said}")
            }
        })
        .collect();
    if clauses.is_empty() { String::new() } else { format!("Why: {}.", clauses.join("; ")) }
}

/// What happened and why, in the run's own figures: each preset's lesson
/// explains itself.
pub fn explain(run: &Run) -> String {
    let why = why(run);
    let what = what_happened(run);
    if why.is_empty() { what } else { format!("{what} {why}") }
}

fn what_happened(run: &Run) -> String {
    match run.settings().preset {
        Preset::Incident => explain_incident(run),
        Preset::SameRequestKey
        | Preset::SameBusinessKey
        | Preset::CheckThenInsertRace
        | Preset::PausePastLease
        | Preset::NewGeneration => explain_unique_keys(run),
        Preset::LostCreateResponse | Preset::WorkerCrash => explain_lost_response(run),
        Preset::NotFoundResend | Preset::ProbeRacesCreate => explain_resends(run),
        Preset::ForgedOrder => explain_forged_order(run),
        Preset::UserInArguments => explain_claimed_user(run),
        Preset::ExtraArgument | Preset::LongReason => explain_schema(run),
        Preset::WrongAudience => explain_wrong_audience(run),
        Preset::Overload => explain_overload(run),
        Preset::WideFleet | Preset::SlowFleet => explain_fleet(run),
        Preset::ReplicaPause => explain_pause(run),
        Preset::SlowingDownstream => super::series::Series::of(run).describe(),
        Preset::RandomFaults => explain_random_faults(run),
    }
}

/// Every status the run's first row (R10086) went through, with when, and
/// why for an illegal move; empty without a row.
fn first_row_moves(run: &Run) -> String {
    let Some(first) = run.rows().first().map(|r| r.id) else {
        return String::new();
    };
    run.records()
        .iter()
        .filter_map(|r| r.row_move().filter(|m| m.row == first).map(|m| (r.t, m)))
        .map(|(t, m)| {
            format!(
                "{} at {}{}",
                m.to.name(),
                names::clock(t),
                if m.is_legal() { String::new() } else { format!(" ({}, illegal)", m.cause.name()) }
            )
        })
        .collect::<Vec<_>>()
        .join(", then ")
}

/// The incident: the reviews the retry left at the Risk API, and where the
/// first row went.
fn explain_incident(run: &Run) -> String {
    let list: Vec<String> =
        run.reviews().iter().map(|r| format!("{} at {}", names::review(r.review), names::clock(r.at))).collect();
    format!(
        "The Risk API holds {} review(s) for O20260728001 ({}). The table has {} row(s); R10086 went {}.",
        reviews_for(run, OrderId(1)),
        list.join(", "),
        run.rows().len(),
        first_row_moves(run)
    )
}

/// Two inserts for one key: the unique constraints they ran into.
fn explain_unique_keys(run: &Run) -> String {
    let records = run.records();
    let conflicts = records.iter().filter(|r| matches!(r.what, What::InsertConflict { .. })).count();
    let checked = records
        .iter()
        .filter(|r| {
            matches!(r.what, What::RowRead { read: crate::sim::risk::facts::Read::Existing { .. }, found: None, .. })
        })
        .count();
    let paused = records.iter().filter(|r| matches!(r.what, What::ReplicaPaused { .. })).count();
    let mut said = format!(
        "{} row(s) and {} review(s): {} insert(s) ran into a unique key and read the existing row instead.",
        run.rows().len(),
        run.reviews().len(),
        conflicts
    );
    if checked > 0 {
        said.push_str(&format!(" {checked} check(s) for an existing row found nothing and went on to insert."));
    }
    if paused > 0 {
        said.push_str(&format!(" {paused} replica(s) paused before inserting and went on without looking again."));
    }
    said
}

/// A lost create response (or a crashed worker): how the row converged,
/// and the probes and resends on the way.
fn explain_lost_response(run: &Run) -> String {
    let records = run.records();
    let probes = records.iter().filter(|r| matches!(r.what, What::ProbeSent { .. })).count();
    format!(
        "R10086 went {}. Probes sent: {probes}; creates resent by workers: {}; reviews at the Risk API: {}.",
        first_row_moves(run),
        resends(records),
        run.reviews().len()
    )
}

/// A create that never arrived: which worker won the claim to resend it.
fn explain_resends(run: &Run) -> String {
    let records = run.records();
    let claims: Vec<String> = records
        .iter()
        .filter_map(|r| match r.what {
            What::Claim { by, won, .. } => {
                Some(format!("{} {} at {}", by.name(), if won { "won" } else { "lost" }, names::clock(r.t)))
            }
            _ => None,
        })
        .collect();
    let claims = if claims.is_empty() { "no claims".to_owned() } else { format!("claims: {}", claims.join(", ")) };
    format!(
        "R10086 went {}; {claims}; {} resend(s) and {} review(s).",
        first_row_moves(run),
        resends(records),
        run.reviews().len()
    )
}

/// A token for another audience: refused at the protocol boundary, or
/// trusted and passed on to the Risk API.
fn explain_wrong_audience(run: &Run) -> String {
    let records = run.records();
    let refused = records
        .iter()
        .find(|r| matches!(r.what, What::RpcError { error: crate::sim::risk::facts::RpcError::WrongAudience, .. }));
    let passed_on = records
        .iter()
        .filter(|r| matches!(r.what, What::CreateSent { credential: crate::sim::risk::facts::Credential::Caller, .. }))
        .count();
    match refused {
        Some(r) => format!(
            "The replica refused the call at {} with a JSON-RPC error, before any tool ran: no row, no Risk API call.",
            names::clock(r.t)
        ),
        None => format!(
            "The replica trusted the token: {} row(s), and {passed_on} Risk API call(s) carried the caller's token.",
            run.rows().len()
        ),
    }
}

/// The fleet against the Risk API: its peak load beside what it was
/// verified for.
fn explain_fleet(run: &Run) -> String {
    let peak = said_of(run, CheckName::DownstreamWithinCapacity, Fig::PeakConcurrency);
    let safe = said_of(run, CheckName::DownstreamWithinCapacity, Fig::SafeConcurrency);
    let overloaded = run.summary().overloaded;
    let waited = said_of(run, CheckName::OverloadFastBounded, Fig::WaitedForFleet);
    let late = late_answers(run);
    let refused = run
        .records()
        .iter()
        .filter(|r| matches!(r.what, What::DownstreamReply { answer: crate::sim::risk::Answer::Unavailable, .. }))
        .count();
    let out_of_budget = run.records().iter().filter(|r| matches!(r.what, What::OutOfBudget { .. })).count();
    format!(
        "The Risk API worked on at most {peak} calls at once (verified for {safe}) and refused {refused} with 503; {waited} call(s) waited for a place in the fleet, {overloaded} were answered OVERLOADED, {out_of_budget} TEMPORARY_UNAVAILABLE, and {late} answered past the client deadline or not at all; {} review(s).",
        run.reviews().len()
    )
}

/// A replica that pauses past its caller's deadline: what it did once it
/// went on.
fn explain_pause(run: &Run) -> String {
    let records = run.records();
    let gave_up = when_of(records, |r| matches!(r.what, What::DeadlinePassed { .. }));
    let refused = when_of(records, |r| matches!(r.what, What::OutOfBudget { .. }));
    let created = when_of(records, |r| matches!(r.what, What::ReviewCreated { .. }));
    let gave_up = gave_up.map_or_else(|| "never gave up".to_owned(), |t| format!("gave up at {}", names::clock(t)));
    match (refused, created) {
        (Some(at), _) => format!(
            "The agent {gave_up}; the replica went on at {} and wrote nothing: its caller's deadline had passed.",
            names::clock(at)
        ),
        (None, Some(at)) => {
            format!(
                "The agent {gave_up}; the replica went on anyway, and the Risk API created a review at {}.",
                names::clock(at)
            )
        }
        (None, None) => format!("The agent {gave_up}; no review was created."),
    }
}

/// Someone else's order: whether a replica refused it before any write.
fn explain_forged_order(run: &Run) -> String {
    let records = run.records();
    let refused = when_of(records, |r| {
        matches!(r.what, What::Policy { decision: crate::sim::risk::facts::Policy::Forbidden, .. })
    });
    match refused {
        Some(at) => format!(
            "The replica refused the call at {} with FORBIDDEN: no row, and {} Risk API call(s) for O20260728999.",
            names::clock(at),
            forged_creates(records)
        ),
        None => format!(
            "Nobody checked who owns the order: {} row(s) and {} Risk API call(s) for O20260728999.",
            run.rows().len(),
            forged_creates(records)
        ),
    }
}

/// Another user named in the arguments: where the server took the end user
/// from, and what that let through.
fn explain_claimed_user(run: &Run) -> String {
    let records = run.records();
    let took = records.iter().find_map(|r| match r.what {
        What::Policy { subject, claimed: true, .. } => Some(subject),
        _ => None,
    });
    let first = match took {
        Some(user) => format!(
            "The server took the end user from the arguments' user_id, {}, not from the verified token, u-1001.",
            names::user(user)
        ),
        None => "The server took the end user from the verified token, u-1001, never from the arguments.".to_owned(),
    };
    format!("{first} {}", explain_forged_order(run))
}

/// A call outside the input schema: how the server answered it, what it
/// wrote, and what the agent did next.
fn explain_schema(run: &Run) -> String {
    let records = run.records();
    let Some(call) = records.iter().find_map(|r| match r.what {
        What::ToolCall { call, shape, .. } if shape.breaks_schema() => Some(call),
        _ => None,
    }) else {
        return "No call broke the input schema.".to_owned();
    };
    let answer = records.iter().find_map(|r| match r.what {
        What::ToolResult { call: c, reply, .. } if c == call => Some(Heard::Result(reply)),
        What::RpcError { call: c, error } if c == call => Some(Heard::Rpc(error)),
        _ => None,
    });
    let next = records.iter().find_map(|r| match r.what {
        What::ResultReceived { call: c, decision, .. } if c == call => Some(decision),
        _ => None,
    });
    let figure = |fig| said_of(run, CheckName::OutsideSchemaRefused, fig);
    format!(
        "{} was answered {} and wrote {} row(s) and {} create(s); then {}. The Risk API holds {} review(s).",
        capitalised(&names::call(call)),
        answer.map_or_else(|| "nothing".to_owned(), super::sentences::heard),
        figure(Fig::Rows),
        figure(Fig::Creates),
        next.map_or_else(|| "the agent heard nothing".to_owned(), super::sentences::decision),
        run.reviews().len()
    )
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The longest the agent waited for an answer it heard.
fn slowest_answer(run: &Run) -> Millis {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::ResultReceived { made_at, .. } => Some(r.t.since(made_at)),
            _ => None,
        })
        .max()
        .unwrap_or(Millis::ZERO)
}

/// The burst: how fast OVERLOADED came back, and whether answers stayed
/// within the deadline. The slowest answer and the late ones are the
/// agent's, read from its records: the gates' check does not judge them.
fn explain_overload(run: &Run) -> String {
    let figure = |fig| said_of(run, CheckName::OverloadFastBounded, fig);
    format!(
        "{} OVERLOADED result(s), the slowest {} after its call arrived; the slowest answer took {} of the {} deadline; {} answer(s) came late.",
        figure(Fig::Overloaded),
        figure(Fig::SlowestOverloadedMs),
        slowest_answer(run),
        run.settings().agent.deadline,
        late_answers(run),
    )
}

/// Faults from the seed: the checks they made fail.
fn explain_random_faults(run: &Run) -> String {
    let failed: Vec<&str> = run.checks().iter().filter(|c| c.holds == Some(false)).map(|c| c.name.name()).collect();
    if failed.is_empty() {
        "Every check holds or has nothing to judge.".to_owned()
    } else {
        format!("Failing: {}.", failed.join(", "))
    }
}

/// What the page says once the reader has predicted.
pub fn verdict(prediction: &str, answer: &str) -> String {
    if prediction.is_empty() {
        format!("Answer: {answer}.")
    } else if prediction == answer {
        format!("Right: {answer}.")
    } else {
        format!("Not quite: you said {prediction}; the run shows {answer}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Settings};

    #[test]
    fn every_preset_answers_with_one_of_its_choices_in_both_modes() {
        for preset in Preset::ALL {
            for mode in [Mode::Naive, Mode::Patterns] {
                let run = Run::simulate(&Settings::preset(preset, mode)).unwrap();
                let a = answer(&run);
                assert!(question(preset).choices.contains(&a.as_str()), "{preset:?} {mode:?}: {a}");
                assert!(!explain(&run).is_empty());
            }
        }
    }

    #[test]
    fn the_answers_differ_between_the_modes_where_the_lesson_is() {
        let a = |preset, mode| answer(&Run::simulate(&Settings::preset(preset, mode)).unwrap());
        // Hand-worked from the contract's table of presets.
        assert_eq!((a(Preset::Incident, Mode::Naive), a(Preset::Incident, Mode::Patterns)), ("2".into(), "1".into()));
        assert_eq!(a(Preset::SameRequestKey, Mode::Patterns), "1");
        assert_eq!(a(Preset::SameBusinessKey, Mode::Patterns), "1");
        assert_eq!(a(Preset::LostCreateResponse, Mode::Patterns), "SUCCEEDED");
        assert_eq!(a(Preset::LostCreateResponse, Mode::Naive), "FAILED");
        assert_eq!(a(Preset::NotFoundResend, Mode::Patterns), "1");
        assert_eq!(
            (a(Preset::ForgedOrder, Mode::Naive), a(Preset::ForgedOrder, Mode::Patterns)),
            ("yes".into(), "no".into())
        );
        assert_eq!(a(Preset::Overload, Mode::Patterns), "yes");
    }

    /// The explanation once read the slowest answer and the late ones from
    /// figures the gates' check had stopped reporting, and said "0 ms" and
    /// "0" whatever happened.
    #[test]
    fn the_burst_is_explained_with_its_slowest_answer() {
        // Per replica, the first wave's calls made at 0 and queued 9th to
        // 16th at 20 start at 1044 and are answered at 1044 + 512 = 1556,
        // heard at 1576; each later wave waits 16 ms less. No answer is
        // later than the 5 s deadline. The OVERLOADED ones are heard 20 +
        // 20 = 40 ms after their call was made.
        let run = Run::simulate(&Settings::preset(Preset::Overload, Mode::Patterns)).unwrap();
        assert_eq!(
            explain_overload(&run),
            "440 OVERLOADED result(s), the slowest 0.04 s after its call arrived; the slowest answer took 1.576 s of the 5.00 s deadline; 0 answer(s) came late."
        );
    }

    #[test]
    fn the_incident_explains_with_the_runs_clocks() {
        let run = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let why = explain(&run);
        assert!(why.contains("RV-2 at 10:31:12.531"), "{why}");
        assert!(why.contains("FAILED at 10:31:10.742 (timeout, illegal)"), "{why}");
        // The naive incident has every pattern off: the checks they guard
        // fail (the second row, the illegal FAILED, the second review).
        assert!(
            why.ends_with(
                "Why: Unique request_key is off, so nothing guards \u{201c}Same request_key, one row\u{201d} fails; \
                 Timeout is UNKNOWN is off, so nothing guards \u{201c}Only legal transitions\u{201d} fails; \
                 Idempotent create is off, so nothing guards \u{201c}One review per business key\u{201d} fails; \
                 Agent polls the review_id is off, so nothing guards \u{201c}One review per business key\u{201d} fails."
            ),
            "{why}"
        );
        let safe = explain(&Run::simulate(&Settings::preset(Preset::Incident, Mode::Patterns)).unwrap());
        assert!(
            safe.contains("Why: Unique request_key is on: A retry with the same request_key finds the first row"),
            "{safe}"
        );
        assert_eq!(verdict("2", "2"), "Right: 2.");
        assert_eq!(verdict("1", "2"), "Not quite: you said 1; the run shows 2.");
        assert_eq!(verdict("", "2"), "Answer: 2.");
    }
}
