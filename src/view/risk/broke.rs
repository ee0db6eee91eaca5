//! Where the risk run broke: the worst harm in the run (a second review for
//! an order, a forged call that reached the Risk API, a row left UNKNOWN,
//! ...), where and when it happened, and for each check failing by then the
//! moment from which it has failed (its record, and so its lane) and the
//! switches protecting it that were off. "Nothing broke" only when every
//! check holds. The checks judge the records; this only asks them when.

use crate::sim::Millis;
use crate::sim::risk::checks::checks;
use crate::sim::risk::facts::{
    AgentDecision, CallId, CallShape, Credential, ErrorCode, FORGED_ORDER, Issuer, OrderId, RpcError, Status,
};
use crate::sim::risk::{Actor, CheckName, Fig, Pattern, Record, Run, What};

use super::checks::{guards, judges_eventually, title, worst_first};
use super::diagram::Lanes;
use super::names;
use super::verdicts::{number, said};

/// What the region says while the preset's question is still to be
/// answered.
pub const ANSWER_FIRST: &str = "Answer the preset's question first.";

/// A check failing at the end of the run: the record from which it has
/// failed, the record that says where (for all but a row left UNKNOWN, the
/// same), and which of the switches that protect it were off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub check: CheckName,
    /// The record from which the check has failed without a break (for
    /// all but the checks that judge what happens eventually, where it
    /// first failed).
    pub at: usize,
    /// The record the words and the ring point at.
    pub place: usize,
    pub patterns: Vec<Pattern>,
}

/// Where the run broke: every check failing at its end, worst first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broke {
    pub missing: Vec<Missing>,
}

impl Broke {
    /// The worst harm.
    pub fn headline(&self) -> &Missing {
        &self.missing[0]
    }

    /// When the worst harm happened: before that the region gives nothing
    /// away.
    pub fn t(&self, run: &Run) -> Millis {
        run.records()[self.headline().at].t
    }
}

/// The records the diagram marks once the playhead reaches them: where
/// each failing check failed.
pub fn marked(b: &Broke) -> Vec<usize> {
    let mut at: Vec<usize> = b.missing.iter().map(|m| m.place).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// The checks failing at the run's end that have already failed by `t`.
fn failed_by<'b>(run: &'b Run, b: &'b Broke, t: Millis) -> impl Iterator<Item = &'b Missing> {
    b.missing.iter().filter(move |m| run.records()[m.at].t <= t)
}

/// The records the diagram rings with the playhead at `t`: where each
/// check that has failed by then failed (nothing still to come).
pub fn marked_at(run: &Run, b: &Broke, t: Millis) -> Vec<usize> {
    let mut at: Vec<usize> = failed_by(run, b, t).map(|m| m.place).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// Whether `check` fails on the first `k` records (judged at the last
/// one's time).
fn fails_on(run: &Run, check: CheckName, k: usize) -> bool {
    let records = &run.records()[..k];
    let t = records.last().map_or(Millis::ZERO, |r| r.t);
    checks(run.settings(), records, t).iter().any(|c| c.name == check && c.holds == Some(false))
}

/// The record from which `check`, failing on the first `k` records, has
/// failed without a break: it holds (or has nothing to judge) on the
/// records before it and fails with it and every record after, up to the
/// k-th. For a check that stays failed, a bisection (a few dozen
/// judgements) finds its first failure. One that judges what happens
/// eventually may fail, hold and fail again: steps back from the k-th
/// record, doubling each time, find a moment it holds, and a bisection
/// between that and the k-th finds where its failing stretch began (a
/// stretch broken more than once within the last step may be found from
/// a later break than its first).
fn failing_since(run: &Run, check: CheckName, k: usize) -> usize {
    debug_assert!(fails_on(run, check, k));
    let (mut lo, mut hi) = (0, k);
    if judges_eventually(check) {
        let mut step = 1;
        while step < k && fails_on(run, check, k - step) {
            hi = k - step;
            step *= 2;
        }
        lo = k.saturating_sub(step);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fails_on(run, check, mid) { hi = mid } else { lo = mid }
    }
    hi - 1
}

/// The record that says where a check failed: for a row left UNKNOWN, the
/// move that made it so (a check that fails only once time has passed has
/// no record of its own); for a forged call, the create it got to the Risk
/// API if it got that far (the worst of what it did); otherwise the record
/// from which it failed.
fn place_of(run: &Run, check: CheckName, at: usize) -> usize {
    let records = run.records();
    match check {
        CheckName::UnknownResolved => {
            let unsettled: Vec<_> = run.rows().iter().filter(|r| !r.status.is_final()).map(|r| r.id).collect();
            records[..=at]
                .iter()
                .position(|r| r.row_move().is_some_and(|m| m.to == Status::Unknown && unsettled.contains(&m.row)))
                .unwrap_or(at)
        }
        CheckName::ForgedNoDownstream => {
            let forged = |call| {
                records.iter().any(|r| {
                    matches!(r.what, What::ToolCall { call: c, order, shape, .. }
                        if c == call && (order == Some(FORGED_ORDER) || shape == CallShape::WrongAudience))
                })
            };
            records
                .iter()
                .position(|r| matches!(r.what, What::CreateSent { by: Issuer::Replica(_, call), .. } if forged(call)))
                .unwrap_or(at)
        }
        _ => at,
    }
}

/// Whether `pattern`, off in `run`, is one that is there to keep `check`.
fn off_and_guarding(run: &Run, pattern: Pattern, check: CheckName) -> bool {
    !run.settings().switches.get(pattern) && guards(pattern, check)
}

/// Where the run broke, if any check fails at its end.
pub fn broke(run: &Run) -> Option<Broke> {
    let records = run.records();
    let end = run.checks();
    let mut missing: Vec<Missing> = worst_first()
        .into_iter()
        .filter(|&name| end.iter().any(|c| c.name == name && c.holds == Some(false)))
        .map(|check| {
            let at = failing_since(run, check, records.len());
            Missing {
                check,
                at,
                place: place_of(run, check, at),
                patterns: Pattern::ALL.into_iter().filter(|&p| off_and_guarding(run, p, check)).collect(),
            }
        })
        .collect();
    if missing.is_empty() {
        return None;
    }
    // The rest in the order the checks panel lists them.
    missing[1..].sort_by_key(|m| CheckName::ALL.iter().position(|&c| c == m.check));
    Some(Broke { missing })
}

/// The lane a record is drawn on (a claim on its worker's).
fn lane(run: &Run, r: &Record) -> String {
    let actor = match r.what {
        What::Claim { by, .. } => Actor::Worker(by),
        _ => r.actor,
    };
    Lanes::of_run(run).title(actor)
}

/// "“A” is off", "“A” and “B” are off".
fn switches_off(patterns: &[Pattern]) -> String {
    let names: Vec<String> = patterns.iter().map(|p| format!("\u{201c}{}\u{201d}", p.param().label)).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => format!("; the switch that protects it, {one}, is off"),
        [rest @ .., last] => format!("; the switches that protect it, {} and {last}, are off", rest.join(", ")),
    }
}

/// One failing check in words: where and when it first failed, and what
/// was missing.
fn missing_words(run: &Run, m: &Missing) -> String {
    let r = &run.records()[m.place];
    let since = if judges_eventually(m.check) { "has failed since" } else { "first failed at" };
    format!(
        "\u{201c}{}\u{201d} {since} {} on the {} lane{}.",
        title(m.check),
        names::when(r.t),
        lane(run, r),
        switches_off(&m.patterns)
    )
}

/// Who issued a statement or a call, as a sentence names it.
fn issuer(by: Issuer) -> String {
    match by {
        Issuer::Replica(r, _) => format!("replica {}", r.name()),
        Issuer::Worker(w) => format!("worker {}", w.name()),
    }
}

/// The harm a check's failure stands for, said from the record where it
/// happened.
pub(super) fn harm(run: &Run, m: &Missing) -> String {
    let r = &run.records()[m.place];
    // Judged only for the harms said in figures.
    let check = || run.checks().into_iter().find(|c| c.name == m.check);
    let figure = |fig| check().map_or_else(|| "?".to_owned(), |c| said(&c, fig));
    let number = |fig| check().and_then(|c| number(&c, fig));
    match (m.check, r.what) {
        (_, What::ReviewCreated { review, order, .. })
            if matches!(m.check, CheckName::OneReviewPerBusinessKey | CheckName::SameBusinessKeyOneReview) =>
        {
            format!(
                "the Risk API created a second review, {}, for order {}.",
                names::review(review),
                names::order(order)
            )
        }
        (CheckName::ForgedNoDownstream, What::CreateSent { order, credential, by, .. }) => {
            forged_reached(run, order, credential, by)
        }
        (CheckName::ForgedNoDownstream, What::RowInserted { insert, .. }) => {
            format!("a forged call for {} wrote row {}.", names::order(insert.order), names::row(insert.row))
        }
        (CheckName::ForgedNoDownstream, _) => "a forged call was not refused.".to_owned(),
        (CheckName::NoEffectAfterDeadline, What::RowInserted { by, insert }) => {
            format!("{} inserted {} after the agent had given up on the call.", issuer(by), names::row(insert.row))
        }
        (CheckName::NoEffectAfterDeadline, What::CreateSent { by, row, .. }) => {
            format!("{} sent a create for {} after the agent had given up on the call.", issuer(by), names::row(row))
        }
        (CheckName::SameBusinessKeyOneReview, What::RowInserted { insert, .. }) => format!(
            "order {} got a second row, {}, under request_key {}.",
            names::order(insert.order),
            names::row(insert.row),
            names::request_key(insert.request_key)
        ),
        (CheckName::SameRequestKeyOneRow, What::RowInserted { insert, .. }) => format!(
            "request_key {} got a second row, {}.",
            names::request_key(insert.request_key),
            names::row(insert.row)
        ),
        (CheckName::DownstreamWithinCapacity, _) => format!(
            "the Risk API worked on {} calls at once, past the {} it was verified for.",
            figure(Fig::PeakConcurrency),
            figure(Fig::SafeConcurrency)
        ),
        (CheckName::UnknownResolved, What::Transition { update, .. }) => {
            let now = run.rows().iter().find(|row| row.id == update.row).map_or("UNKNOWN", |row| row.status.name());
            format!("row {} became UNKNOWN and is still {now} at the end: nothing settled it.", names::row(update.row))
        }
        (CheckName::LostResponseConverges, _) => format!(
            "a performed create's answer was lost, and {}.",
            match (number(Fig::LaterCreates), number(Fig::Failed)) {
                (Some(n), _) if n > 0 => "a create was sent again for its request_key",
                (_, Some(n)) if n > 0 => "its row ended FAILED while the review exists",
                _ => "its row never settled",
            }
        ),
        (CheckName::SingleClaimWinner, What::CreateSent { by, row, .. }) => {
            let before = run.records()[..m.place].iter().rev().find_map(|r| match r.what {
                What::CreateSent { by: Issuer::Worker(w), row: earlier, .. } if earlier == row => Some(w),
                _ => None,
            });
            let other = before.map_or_else(String::new, |w| format!(" right after worker {} did", w.name()));
            format!("{} resent {}'s create{other}, at the same version: two claims won.", issuer(by), names::row(row))
        }
        (CheckName::LegalTransitions, _) if r.row_move().is_some() => {
            let m = r.row_move().expect("a move");
            format!(
                "{} moved {} to {} ({}), an illegal transition.",
                names::row(m.row),
                m.from.map_or("nothing", |s| s.name()),
                m.to.name(),
                m.cause.name()
            )
        }
        (CheckName::OverloadFastBounded, _) => format!(
            "the replicas held more than their gates allow or kept a call waiting past its budget (at most {} in flight of {}, {} queued of {}, {} waited past their budget).",
            figure(Fig::MaxInFlight),
            figure(Fig::ConcurrencyCap),
            figure(Fig::MaxQueue),
            figure(Fig::QueueCapacity),
            figure(Fig::WaitedPastBudget)
        ),
        (CheckName::CallerTokenNotForwarded, What::CreateSent { by, .. }) => {
            format!("{} forwarded the caller's token to the Risk API.", issuer(by))
        }
        (CheckName::BusinessErrorsAreResults | CheckName::OutsideSchemaRefused, _) => protocol_harm(run, m.check, r),
        (check, _) => format!("\u{201c}{}\u{201d} fails.", title(check)),
    }
}

/// A forged call's create, in words: whose order, and with which token.
fn forged_reached(run: &Run, order: OrderId, credential: Credential, by: Issuer) -> String {
    let token = if credential == Credential::Caller { " with the caller's token" } else { "" };
    let claimed = matches!(by, Issuer::Replica(_, call) if shape_of(run, call) == Some(CallShape::ClaimedUser));
    let whose = match (order == FORGED_ORDER, claimed) {
        (true, true) => format!(
            "for {}, naming its owner u-2002 as user_id in the arguments while its token is u-1001's,",
            names::order(order)
        ),
        (true, false) => format!("for {}, another user's order,", names::order(order)),
        _ => "with a token for another server".to_owned(),
    };
    format!("a forged call {whose} reached the Risk API{token}.")
}

/// The harm of the protocol checks: a business error thrown as a JSON-RPC
/// error, and arguments outside the schema that reached the handler.
fn protocol_harm(run: &Run, check: CheckName, r: &Record) -> String {
    match (check, r.what) {
        (CheckName::BusinessErrorsAreResults, What::RpcError { call, error: RpcError::Thrown(code) }) => {
            let replica = match r.actor {
                Actor::Replica(replica) => format!("replica {}", replica.name()),
                _ => "a replica".to_owned(),
            };
            format!(
                "{replica} threw {} at {} as a JSON-RPC error: the agent read a failed request, not \u{201c}{}\u{201d}{}.",
                code.name(),
                names::call(call),
                meant(code),
                gave_up(run, call)
            )
        }
        (CheckName::OutsideSchemaRefused, What::RowInserted { by, insert }) => format!(
            "{} inserted {} for a call {}: the arguments reached the handler.",
            issuer(by),
            names::row(insert.row),
            outside(run, by)
        ),
        (CheckName::OutsideSchemaRefused, What::CreateSent { by, row, .. }) => format!(
            "{} sent a create for {} for a call {}: the arguments reached the handler.",
            issuer(by),
            names::row(row),
            outside(run, by)
        ),
        (CheckName::OutsideSchemaRefused, _) => {
            "a call outside the input schema was answered rather than refused with INVALID_ARGUMENT.".to_owned()
        }
        _ => format!("\u{201c}{}\u{201d} fails.", title(check)),
    }
}

/// The shape of a call's arguments, from its `ToolCall` record.
fn shape_of(run: &Run, call: CallId) -> Option<CallShape> {
    run.records().iter().find_map(|r| match r.what {
        What::ToolCall { call: c, shape, .. } if c == call => Some(shape),
        _ => None,
    })
}

/// How a call broke the schema, as a clause: "carrying approved: true".
fn outside(run: &Run, by: Issuer) -> String {
    let Issuer::Replica(_, call) = by else { return String::new() };
    match shape_of(run, call) {
        Some(CallShape::ExtraArgument) => "carrying approved: true, an argument the schema does not have".to_owned(),
        Some(CallShape::LongReason) => format!("whose reason is {}", super::sentences::long_reason_words()),
        _ => "outside the schema".to_owned(),
    }
}

/// What a business error tells the agent when it can read it.
fn meant(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::InvalidArgument => "fix your arguments",
        ErrorCode::Overloaded | ErrorCode::TemporaryUnavailable => "retry later",
        ErrorCode::Forbidden => "not yours to ask for",
        ErrorCode::Unauthenticated => "sign in first",
        ErrorCode::NotFound => "no such review",
        ErrorCode::SubmissionFailed => "submission failed",
    }
}

/// ", and the agent gave up on the intent" when hearing it ended the
/// intent.
fn gave_up(run: &Run, call: CallId) -> &'static str {
    let ended = run
        .records()
        .iter()
        .any(|r| matches!(r.what, What::ResultReceived { call: c, decision: AgentDecision::Done(_), .. } if c == call));
    if ended { ", and gave up on the intent" } else { "" }
}

/// The region's words once the worst harm has happened: the harm, and each
/// check failing by `t` with where it first failed.
pub fn break_words(run: &Run, b: &Broke, t: Millis) -> Vec<String> {
    let head = b.headline();
    let r = &run.records()[head.place];
    let mut lines = vec![format!("{} lane, at {}: {}", lane(run, r), names::when(r.t), capitalised(&harm(run, head)))];
    lines.extend(b.missing.iter().filter(|m| run.records()[m.at].t <= t).map(|m| missing_words(run, m)));
    lines
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// What the "Where it broke" region says with the playhead at `t`: the
/// worst harm once it has happened, and before that nothing that gives it
/// away.
pub fn words_at(run: &Run, t: Millis) -> Vec<String> {
    words_with(run, broke(run).as_ref(), t)
}

/// [`words_at`] for a break already found.
///
/// Before the worst harm it names each check that has failed by `t`, where
/// and when, so it never says that nothing has broken while a check the
/// panel shows fails; what is still to come stays unsaid.
pub fn words_with(run: &Run, b: Option<&Broke>, t: Millis) -> Vec<String> {
    match b {
        Some(b) if b.t(run) <= t => break_words(run, b, t),
        Some(b) if failed_by(run, b, t).next().is_some() => {
            failed_by(run, b, t).map(|m| missing_words(run, m)).collect()
        }
        None if t >= super::diagram::end_of(run) => vec!["Nothing broke: every check holds.".to_owned()],
        _ => vec!["Nothing has broken so far.".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    fn flags(preset: Preset, pairs: &[(&'static crate::sim::ParamDef, &str)]) -> Run {
        use crate::sim::risk::settings::{MODE, PRESET};
        let mut all = vec![(PRESET.def(), preset.value()), (MODE.def(), "patterns")];
        all.extend_from_slice(pairs);
        Run::simulate(&Settings::from_pairs(&all).unwrap()).unwrap()
    }

    /// (check, when its place is in ms, the patterns it names)
    fn missing(run: &Run, b: &Broke) -> Vec<(CheckName, u64, Vec<Pattern>)> {
        b.missing.iter().map(|m| (m.check, run.records()[m.place].t.ms(), m.patterns.clone())).collect()
    }

    #[test]
    fn the_naive_incident_breaks_where_the_report_says() {
        // RISK-MODEL's incident, naive: replica A inserts R10086 at 121 and
        // sends the create with the caller's token; RV-1 is created at 531,
        // its answer lost; the timeout at 2621 marks the row FAILED, the
        // UPDATE ending at 2622 (illegal: a timeout is no rejection); the
        // retry at 3880 reaches replica B at 3900 and, with no unique key,
        // inserts R10087 with the same rk-0001 at 4001; the Risk API creates
        // RV-2 at 4001 + 410 = 4411: the worst harm, the headline. A lost
        // response has not converged from the moment it is lost (531), and
        // no switch alone protects that check. The agent's retry policy, off
        // in naive mode, guards the second review as idempotent create does.
        let naive = run(Preset::Incident, Mode::Naive);
        let b = broke(&naive).expect("it broke");
        assert_eq!(b.headline().check, CheckName::OneReviewPerBusinessKey);
        assert_eq!(b.t(&naive), Millis(4_411));
        assert_eq!(
            missing(&naive, &b),
            [
                (CheckName::OneReviewPerBusinessKey, 4_411, vec![Pattern::IdempotentCreate, Pattern::RetryPolicy]),
                (CheckName::SameRequestKeyOneRow, 4_001, vec![Pattern::UniqueRequestKey]),
                (CheckName::LostResponseConverges, 531, vec![]),
                (CheckName::LegalTransitions, 2_622, vec![Pattern::TimeoutIsUnknown]),
                (CheckName::CallerTokenNotForwarded, 121, vec![Pattern::OwnCredential]),
            ]
        );
        // Each on the lane of the record it names: the second row and the
        // illegal UPDATE are the database's statements (08.120 + 4.001 =
        // 12.121, + 2.622 = 10.742), RV-1's lost answer and RV-2 the Risk
        // API's, the token replica A's create (08.241).
        assert_eq!(
            words_at(&naive, Millis(4_411)),
            [
                "Risk API lane, at 10:31:12.531 (4.411 s): The Risk API created a second review, RV-2, for order O20260728001.",
                "\u{201c}One review per business key\u{201d} first failed at 10:31:12.531 (4.411 s) on the Risk API lane; the switches that protect it, \u{201c}Idempotent create\u{201d} and \u{201c}Agent polls the review_id\u{201d}, are off.",
                "\u{201c}Same request_key, one row\u{201d} first failed at 10:31:12.121 (4.001 s) on the Database lane; the switch that protects it, \u{201c}Unique request_key\u{201d}, is off.",
                "\u{201c}A lost response converges\u{201d} has failed since 10:31:08.651 (0.531 s) on the Risk API lane.",
                "\u{201c}Only legal transitions\u{201d} first failed at 10:31:10.742 (2.622 s) on the Database lane; the switch that protects it, \u{201c}Timeout is UNKNOWN\u{201d}, is off.",
                "\u{201c}The caller's token stays at the server\u{201d} first failed at 10:31:08.241 (0.121 s) on the Replica A lane; the switch that protects it, \u{201c}Own credential downstream\u{201d}, is off.",
            ]
        );
    }

    #[test]
    fn a_headline_names_the_harm_of_every_switch_it_takes() {
        use crate::sim::risk::settings::{AUTHORIZE, CAS, FIND_BY_KEY};
        // Authorization off: the forged call for O20260728999 is checked by
        // 120 and inserted at 121, and replica A sends the create at once,
        // with the server's own credential (that switch is still on).
        let r = flags(Preset::ForgedOrder, &[(AUTHORIZE.def(), "off")]);
        assert_eq!(
            words_at(&r, r.horizon())[0],
            "Replica A lane, at 10:31:08.241 (0.121 s): A forged call for O20260728999, another user's order, reached the Risk API."
        );
        // CAS off: both read-then-write claims of R10086 win at 5002 and
        // both workers resend, W1 first.
        let r = flags(Preset::NotFoundResend, &[(CAS.def(), "off")]);
        assert_eq!(
            words_at(&r, r.horizon())[0],
            "Worker 2 lane, at 10:31:13.122 (5.002 s): Worker W2 resent R10086's create right after worker W1 did, at the same version: two claims won."
        );
        // FindByRequestKey off: R10086 is UNKNOWN from 2622 (08.120 + 2.622
        // = 10.742) and nobody probes it.
        let r = flags(Preset::LostCreateResponse, &[(FIND_BY_KEY.def(), "off")]);
        assert_eq!(
            words_at(&r, r.horizon())[0],
            "Database lane, at 10:31:10.742 (2.622 s): Row R10086 became UNKNOWN and is still UNKNOWN at the end: nothing settled it."
        );
        // The headline waits until the check fails: three scans and the
        // backoff after 2622, 2622 + 3000 + 1000 = 6622. Until then the
        // region says only what had failed: the response lost at 0.531 s
        // (08.120 + 0.531 = 08.651), not converged.
        let b = broke(&r).unwrap();
        assert!(b.t(&r) > Millis(6_622));
        assert_eq!(
            words_at(&r, Millis(6_622)),
            ["\u{201c}A lost response converges\u{201d} has failed since 10:31:08.651 (0.531 s) on the Risk API lane."]
        );
        assert_eq!(words_at(&r, Millis(530)), ["Nothing has broken so far."]);
    }

    #[test]
    fn a_check_that_fails_and_then_holds_is_named_from_its_last_failing_stretch() {
        // The patterns incident: RV-1's answer is lost at 531 and the row
        // converges (SUCCEEDED by the probe) at 3102, so "A lost response
        // converges" fails from 531 until then and holds after. Asked at
        // the end, it holds; asked on the records up to 3101 it has failed
        // since 531, and the walk back finds that, not an earlier moment.
        let patterns = run(Preset::Incident, Mode::Patterns);
        let records = patterns.records();
        let k = records.iter().position(|r| r.t >= Millis(3_102)).expect("the probe's answer");
        let check = CheckName::LostResponseConverges;
        assert!(fails_on(&patterns, check, k));
        assert!(!fails_on(&patterns, check, records.len()));
        assert_eq!(records[failing_since(&patterns, check, k)].t, Millis(531));
        assert!(judges_eventually(CheckName::UnknownResolved));
        assert!(!judges_eventually(CheckName::LegalTransitions));
    }

    #[test]
    fn nothing_is_given_away_before_the_worst_harm_and_the_patterns_break_nothing() {
        let naive = run(Preset::Incident, Mode::Naive);
        assert_eq!(words_at(&naive, Millis(120)), ["Nothing has broken so far."]);
        // The token at 0.121 s, RV-1's lost answer at 0.531 s, the illegal
        // FAILED at 2.622 s and the second row at 4.001 s are where checks
        // first failed: each is said and rung once it has happened, and
        // RV-2 at 4.411 s, the worst, only then.
        let b = broke(&naive).expect("it broke");
        let rung = |t: u64| -> Vec<u64> {
            marked_at(&naive, &b, Millis(t)).iter().map(|&i| naive.records()[i].t.ms()).collect()
        };
        assert_eq!(rung(120), Vec::<u64>::new());
        assert_eq!(rung(2_621), [121, 531]);
        assert_eq!(rung(4_410), [121, 531, 2_622, 4_001]);
        assert_eq!(rung(4_411), [121, 531, 2_622, 4_001, 4_411]);
        let said = words_at(&naive, Millis(2_621));
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said.iter().all(|w| !w.contains("second review")), "{said:?}");
        assert!(words_at(&naive, Millis(4_411))[0].contains("second review, RV-2"));
        let patterns = run(Preset::Incident, Mode::Patterns);
        assert_eq!(broke(&patterns), None);
        // The run's end is the one the player's End goes to.
        let end = super::super::diagram::end_of(&patterns);
        assert_eq!(words_at(&patterns, end), ["Nothing broke: every check holds."]);
        assert_eq!(words_at(&patterns, Millis(end.ms() - 1)), ["Nothing has broken so far."]);
    }
}
