//! Two lost-acknowledgement runs compared: the first event where they part
//! ways, and the increments one ledger holds and the other does not.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::sim::compare::{self, Side, Timed};
use crate::sim::time::Millis;

use super::facts::{Attempt, ClientId, Decision, OpKey, Payload, Record, Status, What};
use super::ledger::LedgerEntry;
use super::run::Run;

/// An event as a comparison sees it: when, about whom, what kind, and the
/// facts that change what happens next. A key's *name* is left out (with a
/// key per attempt, attempt 1's key is called `attempt-1` rather than
/// `intent-1` but is treated alike); which attempt first used it is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gist {
    pub t: Millis,
    pub client: ClientId,
    pub attempt: Attempt,
    pub kind: &'static str,
    /// The attempt that first sent this record's key.
    pub key_of: Option<Attempt>,
    pub status: Option<Status>,
    pub decision: Option<Decision>,
    pub payload: Option<Payload>,
}

/// The gists of a run's records, in order.
pub fn gists(records: &[Record]) -> Vec<Gist> {
    let mut first_use: BTreeMap<OpKey, Attempt> = BTreeMap::new();
    records
        .iter()
        .map(|r| {
            let key_of = r.key.map(|k| *first_use.entry(k).or_insert(r.attempt));
            let (status, decision, payload) = match r.what {
                What::AttemptSent { payload, .. } => (None, None, Some(payload)),
                What::OperationStarted { payload, .. } | What::OperationCommitted { payload, .. } => {
                    (None, None, Some(payload))
                }
                What::ResponseDelivered { status, decision, .. } => (Some(status), Some(decision), None),
                What::ResponseLate { status, .. } | What::ResponseLost { status, .. } => (Some(status), None, None),
                What::AttemptTimedOut { decision } => (None, Some(decision), None),
                _ => (None, None, None),
            };
            Gist { t: r.t, client: r.client, attempt: r.attempt, kind: r.kind(), key_of, status, decision, payload }
        })
        .collect()
}

/// Where two lost-acknowledgement runs first differ.
pub type Divergence = compare::Divergence<Record>;

/// What differs between run A and run B: the first divergence, and the
/// increments one ledger holds and the other does not.
pub type Comparison = compare::Comparison<Record, LedgerEntry>;

impl Timed for Record {
    fn at(&self) -> Millis {
        self.t
    }
}

/// Two increments are the same effect when the same attempt's operation
/// committed the same payload at the same time; the key's name does not
/// matter (see [`Gist`]).
fn same_increment(x: &LedgerEntry, y: &LedgerEntry) -> Ordering {
    (x.t, x.client, x.attempt, x.payload as u8).cmp(&(y.t, y.client, y.attempt, y.payload as u8))
}

impl Comparison {
    pub fn of(a: &Run, b: &Run) -> Comparison {
        let (ga, gb) = (gists(a.records()), gists(b.records()));
        compare::Comparison::between(
            Side { records: a.records(), gists: &ga, effects: a.ledger() },
            Side { records: b.records(), gists: &gb, effects: b.ledger() },
            same_increment,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::settings::{DEDUP, KEY, RESPONSE_TRANSIT, Settings};

    fn run(pairs: &[(&'static crate::sim::ParamDef, &str)]) -> Run {
        Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap()
    }

    #[test]
    fn a_run_compared_with_itself_is_identical() {
        let a = run(&[]);
        let c = Comparison::of(&a, &a);
        assert!(c.identical());
        assert!(c.agree_before(Millis(u64::MAX)));
    }

    #[test]
    fn key_names_alone_do_not_make_runs_differ() {
        // With one attempt that succeeds, a key per attempt changes only the
        // key's name.
        let a = run(&[(&crate::sim::ack::settings::FAULT, "none")]);
        let b = run(&[(&crate::sim::ack::settings::FAULT, "none"), (&KEY, "per-attempt")]);
        assert_ne!(a.records()[0].key, b.records()[0].key);
        assert!(Comparison::of(&a, &b).identical());
    }

    #[test]
    fn a_timing_change_diverges_at_the_first_moved_event() {
        // docs/model.md defaults: the lost response is at 2.00 + 0.05. With a
        // response transit of 80 ms it is at 2.08; everything before agrees.
        let a = run(&[]);
        let b = run(&[(&RESPONSE_TRANSIT, "80")]);
        let c = Comparison::of(&a, &b);
        let d = c.divergence.unwrap();
        assert_eq!(d.a.unwrap().t, Millis(2050));
        assert_eq!(d.b.unwrap().t, Millis(2080));
        assert_eq!(d.t(), Millis(2050));
        assert!(c.agree_before(Millis(2050)));
        assert!(!c.agree_before(Millis(2051)));
    }

    #[test]
    fn dedup_off_executes_attempt_two_where_dedup_on_replays_it() {
        let on = run(&[]);
        let off = run(&[(&DEDUP, "off")]);
        let c = Comparison::of(&on, &off);
        let d = c.divergence.unwrap();
        assert_eq!(d.t(), Millis(4000));
        assert_eq!(d.a.unwrap().kind(), "dedup-replayed");
        assert_eq!(d.b.unwrap().kind(), "operation-started");
        assert_eq!(d.a.unwrap().attempt, 2);
        assert!(c.only_a.is_empty());
        assert_eq!(c.only_b.len(), 1);
        assert_eq!((c.only_b[0].t, c.only_b[0].attempt), (Millis(6000), 2));
    }
}
