//! The rules the replicas and the workers share: what a create's answer
//! means for its row, what the agent is told, and when a row is next due.

use crate::sim::time::Millis;

use super::facts::{Answer, Cause, ErrorCode, Heard, Reply, RowId, RpcError, Status, Update};

/// How long the database may take in one call's budget: room for the
/// insert, a conflict's read and the outcome's update, with headroom (the
/// report's plan: auth/policy 0.1 s, database 0.3 s, Risk API 2.5 s,
/// reserve 2.1 s of the client's 5.0 s).
pub const DATABASE_BUDGET: Millis = Millis(300);

/// What a call must still have of its deadline to start its work, with
/// deadline propagation: its auth and policy steps, the database's budget
/// and the Risk API's whole timeout.
pub fn budget_needed(auth_policy: Millis, downstream_timeout: Millis) -> Millis {
    auth_policy + DATABASE_BUDGET + downstream_timeout
}

/// Whether a call whose deadline is at `deadline_at` may still start work
/// that needs `needed` at `now`.
pub fn budget_covers(now: Millis, needed: Millis, deadline_at: Millis) -> bool {
    now + needed <= deadline_at
}

/// The first instant at which `budget_covers` no longer holds.
pub fn budget_lapses_at(needed: Millis, deadline_at: Millis) -> Millis {
    Millis((deadline_at.ms() + 1).saturating_sub(needed.ms()))
}

/// The wait before a row is tried again: `base` doubled for each resend so
/// far, capped at eight times `base` so a row that met several faults still
/// settles within the horizon.
pub fn backoff(base: Millis, retry_count: u32) -> Millis {
    Millis(base.ms().saturating_mul(1 << retry_count.min(3)))
}

/// The guarded update a create's answer (`None`: the caller's timeout)
/// makes to a PENDING row at `version`. With the pattern, a timeout, reset
/// or 5xx makes the row UNKNOWN, due for a probe at once if anyone can
/// probe; without it, the naive server marks it FAILED.
pub fn create_outcome(
    now: Millis,
    row: RowId,
    version: u32,
    answer: Option<Answer>,
    timeout_is_unknown: bool,
    find_by_key: bool,
) -> (Update, Cause) {
    let update = |to, downstream_ref, next_retry_at| Update {
        row,
        from: Status::Pending,
        version,
        to,
        downstream_ref,
        next_retry_at,
    };
    let unclear = |cause| {
        if timeout_is_unknown {
            (update(Status::Unknown, None, find_by_key.then_some(now)), cause)
        } else {
            (update(Status::Failed, None, None), cause)
        }
    };
    match answer {
        Some(Answer::Created(review) | Answer::Existing(review) | Answer::Found(review)) => {
            (update(Status::Succeeded, Some(review), None), Cause::CreateSucceeded)
        }
        Some(Answer::Rejected) => (update(Status::Failed, None, None), Cause::BusinessRejection),
        Some(Answer::Unavailable | Answer::ServerError) => unclear(Cause::Downstream5xx),
        Some(Answer::Reset) => unclear(Cause::Reset),
        // A create is never answered as a probe is; treat it as no answer.
        Some(Answer::NotFound | Answer::InProgress) | None => unclear(Cause::Timeout),
    }
}

/// What the replica tells the agent once the outcome is written. A FAILED
/// row that no business rule rejected is the naive server's "submission
/// failed", an error result.
pub fn reply_for(update: &Update, cause: Cause) -> Reply {
    match update.to {
        Status::Failed if cause != Cause::BusinessRejection => {
            Reply::Error { code: ErrorCode::SubmissionFailed, row: Some(update.row) }
        }
        status => Reply::Review { row: update.row, status },
    }
}

/// An answer as it goes on the wire. With business errors as Tool Results
/// it goes as it is; the wrong design throws the server's refusals as
/// JSON-RPC errors. The handler's own answer after the Risk API, the naive
/// server's SUBMISSION_FAILED, stays a result in both, as the incident
/// report's server returned it.
pub fn on_the_wire(heard: Heard, error_results: bool) -> Heard {
    match heard {
        Heard::Result(Reply::Error { code, row }) if !error_results && code != ErrorCode::SubmissionFailed => {
            debug_assert!(row.is_none(), "only SUBMISSION_FAILED names a review");
            Heard::Rpc(RpcError::Thrown(code))
        }
        heard => heard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_then_stops_at_eight_times() {
        let b = |n| backoff(Millis(1000), n).ms();
        assert_eq!([b(0), b(1), b(2), b(3), b(4), b(40)], [1000, 2000, 4000, 8000, 8000, 8000]);
    }

    #[test]
    fn the_budget_covers_the_work_until_it_lapses() {
        // 0.1 + 0.3 + 2.5 = 2.9 s of a deadline at 5.0 s: work may start up
        // to 2.1 s, and from 2.101 s it may not.
        let needed = budget_needed(Millis(100), Millis(2500));
        assert_eq!(needed, Millis(2900));
        assert!(budget_covers(Millis(2100), needed, Millis(5000)));
        assert!(!budget_covers(Millis(2101), needed, Millis(5000)));
        assert_eq!(budget_lapses_at(needed, Millis(5000)), Millis(2101));
    }

    #[test]
    fn a_timeout_is_unknown_with_the_pattern_and_failed_without() {
        let (u, c) = create_outcome(Millis(2621), RowId(10086), 1, None, true, true);
        assert_eq!((u.to, u.next_retry_at, c), (Status::Unknown, Some(Millis(2621)), Cause::Timeout));
        let (u, c) = create_outcome(Millis(2621), RowId(10086), 1, None, true, false);
        assert_eq!((u.to, u.next_retry_at, c), (Status::Unknown, None, Cause::Timeout), "nobody can probe");
        let (u, c) = create_outcome(Millis(2621), RowId(10086), 1, None, false, true);
        assert_eq!((u.to, c), (Status::Failed, Cause::Timeout));
        assert_eq!(reply_for(&u, c), Reply::Error { code: ErrorCode::SubmissionFailed, row: Some(RowId(10086)) });
        let (u, c) = create_outcome(Millis(9), RowId(10086), 1, Some(Answer::Rejected), false, false);
        assert_eq!(reply_for(&u, c), Reply::Review { row: RowId(10086), status: Status::Failed });
    }
}
