//! The first lab's invariants, judged from a run's records alone: the
//! ledger's effects are the commits and crashes that applied one, and the
//! client's outcome is the delivery or timeout that decided it.

use super::facts::{Decision, Outcome, Record, What};

/// An invariant of one intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckName {
    /// The ledger holds at most one increment for the intent.
    CommittedAtMostOnce,
    /// A client that reports success has exactly one increment behind it;
    /// one told "rejected" has none.
    StatusAgreesWithLedger,
    /// No increment lands after the client gave up (exhausted or rejected).
    NoIncrementAfterGivingUp,
}

impl CheckName {
    pub const ALL: [CheckName; 3] =
        [CheckName::CommittedAtMostOnce, CheckName::StatusAgreesWithLedger, CheckName::NoIncrementAfterGivingUp];

    /// The machine name, as JSON gives it.
    pub fn name(self) -> &'static str {
        match self {
            CheckName::CommittedAtMostOnce => "committed_at_most_once",
            CheckName::StatusAgreesWithLedger => "status_agrees_with_ledger",
            CheckName::NoIncrementAfterGivingUp => "no_increment_after_giving_up",
        }
    }
}

/// Whether the record applied an increment to the ledger.
fn is_effect(r: &Record) -> bool {
    matches!(r.what, What::OperationCommitted { .. } | What::ServerCrashed { applied: Some(_), .. })
}

/// The client's outcome and the index of the record that decided it.
fn outcome(records: &[Record]) -> Option<(usize, Outcome)> {
    records.iter().enumerate().find_map(|(i, r)| match r.what {
        What::ResponseDelivered { decision: Decision::Done(o), .. }
        | What::AttemptTimedOut { decision: Decision::Done(o) } => Some((i, o)),
        _ => None,
    })
}

/// The checks `records` break, in [`CheckName::ALL`]'s order.
pub fn broken(records: &[Record]) -> Vec<CheckName> {
    let effects: Vec<usize> = records.iter().enumerate().filter(|(_, r)| is_effect(r)).map(|(i, _)| i).collect();
    let decided = outcome(records);
    let agrees = match decided {
        Some((_, Outcome::Succeeded)) => effects.len() == 1,
        Some((_, Outcome::Rejected(_))) => effects.is_empty(),
        Some((_, Outcome::Exhausted(_))) | None => true,
    };
    let late = match decided {
        Some((at, Outcome::Rejected(_) | Outcome::Exhausted(_))) => effects.iter().any(|&i| i > at),
        _ => false,
    };
    let mut out = Vec::new();
    if effects.len() > 1 {
        out.push(CheckName::CommittedAtMostOnce);
    }
    if !agrees {
        out.push(CheckName::StatusAgreesWithLedger);
    }
    if late {
        out.push(CheckName::NoIncrementAfterGivingUp);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Run;
    use crate::sim::ack::settings::{DEDUP, EXEC, FAULT, MAX_ATTEMPTS_PARAM, Settings};

    fn broken_for(pairs: &[(&'static crate::sim::params::ParamDef, &str)]) -> Vec<CheckName> {
        let settings = Settings::from_pairs(pairs).unwrap();
        broken(Run::simulate(&settings).unwrap().records())
    }

    #[test]
    fn each_check_fails_for_the_run_that_breaks_it() {
        // The opening run: the lost success is replayed from the store.
        assert_eq!(broken_for(&[]), vec![]);
        // Deduplication off: attempt 2 executes again and succeeds; the
        // client reports one success over two increments.
        assert_eq!(
            broken_for(&[(DEDUP.def(), "off")]),
            vec![CheckName::CommittedAtMostOnce, CheckName::StatusAgreesWithLedger]
        );
        // One attempt whose success is lost: the increment at 2.00 s lands
        // before the client gives up at 3.00 s.
        assert_eq!(broken_for(&[(MAX_ATTEMPTS_PARAM.def(), "1")]), vec![]);
        // Every success lost, no deduplication: increments at 2.00, 6.00
        // and 11.00 s (attempts sent at 0, 4.00 and 9.00 s, 2 s each), all
        // before the client gives up at 12.00 s.
        assert_eq!(
            broken_for(&[(DEDUP.def(), "off"), (FAULT.def(), "lose-all")]),
            vec![CheckName::CommittedAtMostOnce]
        );
        // One attempt that times out at 3.00 s while its operation runs to
        // 4.00 s: the increment lands after the client gave up.
        assert_eq!(
            broken_for(&[(MAX_ATTEMPTS_PARAM.def(), "1"), (EXEC.def(), "4000")]),
            vec![CheckName::NoIncrementAfterGivingUp]
        );
        // A 400 before any execution: rejected, nothing committed.
        assert_eq!(broken_for(&[(FAULT.def(), "reject-400")]), vec![]);
    }
}
