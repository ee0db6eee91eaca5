//! The rules the replicas and the workers share: what a create's answer
//! means for its row, what the agent is told, and when a row is next due.

use crate::sim::time::Millis;

use super::facts::{Answer, Cause, ErrorCode, Reply, RowId, Status, Update};

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
        // A create is never answered "not found"; treat it as no answer.
        Some(Answer::NotFound) | None => unclear(Cause::Timeout),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_then_stops_at_eight_times() {
        let b = |n| backoff(Millis(1000), n).ms();
        assert_eq!([b(0), b(1), b(2), b(3), b(4), b(40)], [1000, 2000, 4000, 8000, 8000, 8000]);
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
