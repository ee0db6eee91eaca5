//! Two risk-review runs compared: the first event where they part ways, and
//! the reviews one Risk API holds and the other does not (its reviews are
//! this lab's ledger).
//!
//! Records are compared whole: the ids in them (calls, rows, reviews,
//! downstream calls) are numbered in the order things happen, so two runs
//! that agree up to an event number them alike up to there.

use std::cmp::Ordering;

use crate::sim::compare::{self, Side, Timed};
use crate::sim::time::Millis;

use super::facts::Record;
use super::risk_api::Review;
use super::run::Run;

/// Where two risk-review runs first differ.
pub type Divergence = compare::Divergence<Record>;

/// What differs between run A and run B: the first divergence, and the
/// reviews one Risk API created that the other did not.
pub type Comparison = compare::Comparison<Record, Review>;

impl Timed for Record {
    fn at(&self) -> Millis {
        self.t
    }
}

/// Two reviews are the same effect when they were created at the same time
/// for the same order under the same request_key; their numbers may differ
/// once the runs have parted.
fn same_review(x: &Review, y: &Review) -> Ordering {
    (x.at, x.order, x.request_key).cmp(&(y.at, y.order, y.request_key))
}

impl Comparison {
    pub fn of(a: &Run, b: &Run) -> Comparison {
        compare::Comparison::between(
            Side { records: a.records(), gists: a.records(), effects: a.reviews() },
            Side { records: b.records(), gists: b.records(), effects: b.reviews() },
            same_review,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::settings::{IDEMPOTENT_CREATE, MODE, PRESET, SEED};
    use crate::sim::risk::{OrderId, RequestKey, What};

    fn run(pairs: &[(&'static crate::sim::ParamDef, &str)]) -> Run {
        Run::simulate(&crate::sim::risk::Settings::from_pairs(pairs).unwrap()).unwrap()
    }

    #[test]
    fn a_run_compared_with_itself_is_identical() {
        let a = run(&[]);
        let c = Comparison::of(&a, &a);
        assert!(c.identical());
        assert!(c.agree_before(Millis(u64::MAX)));
    }

    #[test]
    fn a_setting_the_preset_does_not_use_changes_nothing() {
        // The incident draws no random faults, so its seed is never read.
        let c = Comparison::of(&run(&[]), &run(&[(&SEED, "7")]));
        assert!(c.identical());
    }

    #[test]
    fn an_idempotent_create_replays_the_retry_where_the_naive_api_creates_a_second_review() {
        // RISK-MODEL.md's incident: the agent retries at 10:31:12.000 (model
        // 3.880 s) and the naive Risk API creates the second review at
        // 10:31:12.531 (4.411 s). With only the idempotent create switched on,
        // that create returns the first review instead; nothing before it
        // differs.
        let a = run(&[]);
        let b = run(&[(&IDEMPOTENT_CREATE, "on")]);
        let c = Comparison::of(&a, &b);
        let d = c.divergence.unwrap();
        assert_eq!(d.t(), Millis(4411));
        assert!(matches!(d.a.unwrap().what, What::ReviewCreated { .. }), "{:?}", d.a);
        assert!(matches!(d.b.unwrap().what, What::ReviewReplayed { .. }), "{:?}", d.b);
        assert!(c.agree_before(Millis(4411)));
        assert!(!c.agree_before(Millis(4412)));
        // A's second review, for O20260728001 under the retried request_key.
        assert_eq!(c.only_a.len(), 1);
        let extra = c.only_a[0];
        assert_eq!((extra.at, extra.order, extra.request_key), (Millis(4411), OrderId(1), RequestKey(1)));
        assert!(c.only_b.is_empty());
    }

    #[test]
    fn only_the_naive_run_holds_the_retrys_second_review() {
        // Both modes spend the same step costs, so the first review is
        // created at 0.121 + 0.410 = 0.531 s in both; the naive retry adds
        // the second at 4.411 s. The runs have parted by the time the first
        // create times out (2.622 s, where naive says FAILED and the
        // patterns UNKNOWN), if not before (the patterns check policy).
        let naive = run(&[(&PRESET, "incident"), (&MODE, "naive")]);
        let patterns = run(&[(&PRESET, "incident"), (&MODE, "patterns")]);
        let c = Comparison::of(&naive, &patterns);
        assert!(c.divergence.unwrap().t() <= Millis(2622), "{:?}", c.divergence);
        assert_eq!(c.only_a.iter().map(|r| r.at).collect::<Vec<_>>(), vec![Millis(4411)]);
        assert!(c.only_b.is_empty());
    }
}
