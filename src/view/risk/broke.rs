//! Where the risk run broke: the second review the Risk API created for an
//! order, and for each check failing by then, the moment from which it has
//! failed (its record, and so its lane) and the switches protecting it that
//! were off. The checks judge the records; this only asks them when.

use std::collections::BTreeSet;

use crate::sim::Millis;
use crate::sim::risk::checks::checks;
use crate::sim::risk::{Actor, CheckName, OrderId, Pattern, Record, ReviewRef, Run, What};

use super::diagram::Lanes;
use super::names;
use super::patterns::protects;
use super::verdicts::title;

/// What the region says while the preset's question is still to be
/// answered.
pub const ANSWER_FIRST: &str = "Answer the preset's question first.";

/// A check failing at the second review: since when it has failed, and
/// which of the switches that protect it were off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub check: CheckName,
    /// The record from which the check has failed without a break (for
    /// all but the checks that judge what happens eventually, where it
    /// first failed).
    pub at: usize,
    pub patterns: Vec<Pattern>,
}

/// An order's second review, and what let it happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondReview {
    /// The record of the second `ReviewCreated` for the order.
    pub at: usize,
    pub order: OrderId,
    pub review: ReviewRef,
    pub missing: Vec<Missing>,
}

impl SecondReview {
    pub fn t(&self, run: &Run) -> Millis {
        run.records()[self.at].t
    }
}

/// The records the diagram marks once the playhead reaches them: the
/// second review and where each failing check first failed.
pub fn marked(b: &SecondReview) -> Vec<usize> {
    let mut at: Vec<usize> = b.missing.iter().map(|m| m.at).chain([b.at]).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// The records the diagram rings with the playhead at `t`: none until the
/// second review has been created (the checks that failed earlier would
/// give it away), then the second review and where each failing check
/// first failed.
pub fn marked_at(run: &Run, b: &SecondReview, t: Millis) -> Vec<usize> {
    if b.t(run) <= t { marked(b) } else { Vec::new() }
}

/// Whether `check` fails on the first `k` records (judged at the last
/// one's time).
fn fails_on(run: &Run, check: CheckName, k: usize) -> bool {
    let records = &run.records()[..k];
    let t = records.last().map_or(Millis::ZERO, |r| r.t);
    checks(run.settings(), records, t).iter().any(|c| c.name == check && c.holds == Some(false))
}

/// Whether `check` judges what happens eventually: it fails while a lost
/// response or an UNKNOWN row is still unsettled and holds again once that
/// settles, so it can fail and then hold. Every other check, once failed,
/// stays failed.
pub fn judges_eventually(check: CheckName) -> bool {
    matches!(check, CheckName::LostResponseConverges | CheckName::UnknownResolved)
}

/// How far back [`failing_since`] walks for a check that judges what
/// happens eventually, before it settles for a bisection.
const WALK: usize = 2_000;

/// The record from which `check`, failing on the first `k` records, has
/// failed without a break: it holds (or has nothing to judge) on the
/// records before it and fails with it and every record after, up to the
/// k-th. For a check that stays failed, a bisection (a few dozen
/// judgements), which finds its first failure; for one that judges what
/// happens eventually, a walk back from the k-th record.
fn failing_since(run: &Run, check: CheckName, k: usize) -> usize {
    debug_assert!(fails_on(run, check, k));
    let (mut lo, mut hi) = (0, k);
    if judges_eventually(check) {
        while hi > 1 && k - hi < WALK && fails_on(run, check, hi - 1) {
            hi -= 1;
        }
        if k - hi < WALK {
            return hi - 1;
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fails_on(run, check, mid) { hi = mid } else { lo = mid }
    }
    hi - 1
}

/// The first order the Risk API created a second review for, if any.
pub fn second_review(run: &Run) -> Option<SecondReview> {
    let records = run.records();
    let mut reviewed = BTreeSet::new();
    let (at, order, review) = records.iter().enumerate().find_map(|(i, r)| match r.what {
        What::ReviewCreated { order, review, .. } if !reviewed.insert(order) => Some((i, order, review)),
        _ => None,
    })?;
    let k = at + 1;
    let failing = checks(run.settings(), &records[..k], records[at].t);
    let missing = failing
        .iter()
        .filter(|c| c.holds == Some(false))
        .map(|c| Missing {
            check: c.name,
            at: failing_since(run, c.name, k),
            patterns: Pattern::ALL
                .into_iter()
                .filter(|&p| protects(p) == c.name && !run.settings().switches.get(p))
                .collect(),
        })
        .collect();
    Some(SecondReview { at, order, review, missing })
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
    let r = &run.records()[m.at];
    let since = if judges_eventually(m.check) { "has failed since" } else { "first failed at" };
    format!(
        "\u{201c}{}\u{201d} {since} {} on the {} lane{}.",
        title(m.check),
        names::when(r.t),
        lane(run, r),
        switches_off(&m.patterns)
    )
}

/// The region's words for the second review.
pub fn break_words(run: &Run, b: &SecondReview) -> Vec<String> {
    let r = &run.records()[b.at];
    let mut lines = vec![format!(
        "{} lane, at {}: the Risk API created a second review, {}, for order {}.",
        lane(run, r),
        names::when(r.t),
        names::review(b.review),
        names::order(b.order)
    )];
    lines.extend(b.missing.iter().map(|m| missing_words(run, m)));
    lines
}

/// What the "Where it broke" region says with the playhead at `t`: the
/// second review once it has been created, and before that nothing that
/// gives it away.
pub fn words_at(run: &Run, t: Millis) -> Vec<String> {
    words_with(run, second_review(run).as_ref(), t)
}

/// [`words_at`] for a second review already found.
pub fn words_with(run: &Run, b: Option<&SecondReview>, t: Millis) -> Vec<String> {
    match b {
        Some(b) if b.t(run) <= t => break_words(run, b),
        _ if t >= super::diagram::end_of(run) => vec!["Nothing broke: no order got a second review.".to_owned()],
        _ => vec!["No order has a second review so far.".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    /// (check, when it first failed in ms, the patterns it names)
    fn missing(run: &Run, b: &SecondReview) -> Vec<(CheckName, u64, Vec<Pattern>)> {
        b.missing.iter().map(|m| (m.check, run.records()[m.at].t.ms(), m.patterns.clone())).collect()
    }

    #[test]
    fn the_naive_incident_breaks_where_the_report_says() {
        // RISK-MODEL's incident, naive: R10086 is inserted at 121 and RV-1
        // created at 531, its answer lost; the timeout at 2621 marks the
        // row FAILED, the UPDATE ending at 2622 (illegal: a timeout is no
        // rejection); the retry at 3880 reaches replica B at 3900 and, with
        // no unique key, inserts R10087 with the same rk-0001 at 4001; the
        // Risk API creates RV-2 at 4001 + 410 = 4411. A lost response has
        // not converged from the moment it is lost (531), and no switch
        // alone protects that check.
        let naive = run(Preset::Incident, Mode::Naive);
        let b = second_review(&naive).expect("a second review");
        assert_eq!(b.t(&naive), Millis(4_411));
        assert_eq!(naive.records()[b.at].actor, Actor::RiskApi);
        assert_eq!(names::review(b.review), "RV-2");
        assert_eq!(
            missing(&naive, &b),
            [
                (CheckName::SameRequestKeyOneRow, 4_001, vec![Pattern::UniqueRequestKey]),
                (CheckName::LostResponseConverges, 531, vec![]),
                (CheckName::OneReviewPerBusinessKey, 4_411, vec![Pattern::IdempotentCreate]),
                (CheckName::LegalTransitions, 2_622, vec![Pattern::TimeoutIsUnknown]),
            ]
        );
        // Each on the lane of the record it names: the second row and the
        // illegal UPDATE are the database's statements (08.120 + 4.001 =
        // 12.121, + 2.622 = 10.742), RV-1's lost answer and RV-2 the Risk
        // API's. The lost response never converges, so it has failed
        // since it was lost.
        assert_eq!(
            words_at(&naive, Millis(4_411)),
            [
                "Risk API lane, at 10:31:12.531 (4.411 s): the Risk API created a second review, RV-2, for order O20260728001.",
                "\u{201c}Same request_key, one row\u{201d} first failed at 10:31:12.121 (4.001 s) on the Database lane; the switch that protects it, \u{201c}Unique request_key\u{201d}, is off.",
                "\u{201c}A lost response converges\u{201d} has failed since 10:31:08.651 (0.531 s) on the Risk API lane.",
                "\u{201c}One review per business key\u{201d} first failed at 10:31:12.531 (4.411 s) on the Risk API lane; the switch that protects it, \u{201c}Idempotent create\u{201d}, is off.",
                "\u{201c}Only legal transitions\u{201d} first failed at 10:31:10.742 (2.622 s) on the Database lane; the switch that protects it, \u{201c}Timeout is UNKNOWN\u{201d}, is off.",
            ]
        );
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
    fn nothing_is_given_away_before_the_second_review_and_the_patterns_break_nothing() {
        let naive = run(Preset::Incident, Mode::Naive);
        assert_eq!(words_at(&naive, Millis(4_410)), ["No order has a second review so far."]);
        // The illegal FAILED at 2.622 s and the second row at 4.001 s are
        // where two checks first failed, but no ring shows before RV-2 at
        // 4.411 s; then all of them do.
        let b = second_review(&naive).expect("a second review");
        assert_eq!(marked_at(&naive, &b, Millis(4_410)), Vec::<usize>::new());
        let rung: Vec<u64> = marked_at(&naive, &b, Millis(4_411)).iter().map(|&i| naive.records()[i].t.ms()).collect();
        assert_eq!(rung, [531, 2_622, 4_001, 4_411]);
        let patterns = run(Preset::Incident, Mode::Patterns);
        assert_eq!(second_review(&patterns), None);
        // The run's end is the one the player's End goes to.
        let end = super::super::diagram::end_of(&patterns);
        assert_eq!(words_at(&patterns, end), ["Nothing broke: no order got a second review."]);
        assert_eq!(words_at(&patterns, Millis(end.ms() - 1)), ["No order has a second review so far."]);
    }
}
