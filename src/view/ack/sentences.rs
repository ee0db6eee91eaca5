//! Words for the lost-acknowledgement lab's facts: one plain sentence per
//! event, and the short names the diagram and the mirror share.

use crate::sim::ack::{
    Attempt, CrashPoint, Decision, ExhaustedBy, MismatchWith, Outcome, Payload, Record, Status, What,
};

/// "1 increment", "2 increments": how every view counts the ledger.
pub fn increments(n: u64) -> String {
    plural(n, "increment", "increments")
}

pub use crate::view::num::plural;

/// An answer in one word, as diagram labels use it.
pub fn status_word(status: Status) -> &'static str {
    match status {
        Status::Success => "success",
        Status::Unavailable => "503",
        Status::Rejected => "400",
        Status::Conflict => "409",
        Status::Unprocessable => "422",
        Status::Refused => "refused",
    }
}

/// How a sentence names an answer.
pub fn status_noun(status: Status) -> &'static str {
    match status {
        Status::Success => "success response",
        Status::Unavailable => "503 response",
        Status::Rejected => "400 response",
        Status::Conflict => "409 response",
        Status::Unprocessable => "422 response",
        Status::Refused => "connection refusal",
    }
}

/// Why the client ended as it did, as a parenthesis to follow its outcome:
/// " (out of attempts)", " (422)"; empty for a success.
pub fn outcome_reason(outcome: Outcome) -> String {
    match outcome {
        Outcome::Succeeded => String::new(),
        Outcome::Rejected(status) => format!(" ({})", status_word(status)),
        Outcome::Exhausted(ExhaustedBy::Attempts) => " (out of attempts)".to_owned(),
        Outcome::Exhausted(ExhaustedBy::Deadline) => " (out of time: overall deadline)".to_owned(),
    }
}

/// The outcome with its reason: "exhausted (out of attempts)".
pub fn outcome_text(outcome: Outcome) -> String {
    format!("{}{}", outcome.name(), outcome_reason(outcome))
}

/// What giving up means, in the seed's words.
pub const RECONCILE: &str = "the real effect is unknown to the client, and the intent is kept for reconciliation";

fn exhausted_clause(by: ExhaustedBy) -> &'static str {
    match by {
        ExhaustedBy::Attempts => "no attempts are left",
        ExhaustedBy::Deadline => "the overall deadline leaves no time for another attempt",
    }
}

fn payload_clause(payload: Payload) -> &'static str {
    match payload {
        Payload::A => "",
        Payload::B => " and a rebuilt payload B",
    }
}

/// A crash point in words: "after the effect, before the result is stored".
pub fn crash_point_text(point: CrashPoint) -> &'static str {
    match point {
        CrashPoint::None => "no crash",
        CrashPoint::BeforeCommit => "before the commit",
        CrashPoint::AfterEffect => "after the effect, before the result is stored",
        CrashPoint::AfterRecord => "after the result is stored, before responding",
    }
}

/// One plain sentence saying what happened, in the words of the actor whose
/// fact it is: the client, the network, the server, the deduplication store
/// or the ledger.
pub fn sentence(record: &Record) -> String {
    let n = record.attempt;
    let key = record.key.map_or_else(String::new, |k| k.to_string());
    let what = record.what;
    match what {
        What::AttemptSent { .. }
        | What::ResponseDelivered { .. }
        | What::ResponseLate { .. }
        | What::AttemptTimedOut { .. } => client_sentence(what, n, &key),
        What::ResponseLost { .. } | What::RequestLost { .. } => network_sentence(what, n),
        What::RequestRefused { .. }
        | What::RequestRejected
        | What::RequestUnavailable
        | What::PayloadMismatch { .. }
        | What::InFlightConflict { .. }
        | What::OperationStarted { .. }
        | What::ServerRestarted { .. } => server_sentence(what, n, &key),
        What::DedupJoined { .. }
        | What::DedupReplayed { .. }
        | What::StoredResultExpired { .. }
        | What::LeaseEnded { .. } => store_sentence(what, n, &key),
        What::OperationCommitted { .. } | What::ServerCrashed { .. } => ledger_sentence(what, n, &key),
    }
}

/// What the client sends, hears and decides about attempt `n`.
fn client_sentence(what: What, n: Attempt, key: &str) -> String {
    match what {
        What::AttemptSent { deadline, payload, .. } => format!(
            "Client sends attempt {n} with key {key}{}; it times out at {deadline} unless answered.",
            payload_clause(payload)
        ),
        What::ResponseDelivered { status, decision, .. } => {
            let noun = status_noun(status);
            match decision {
                Decision::Done(Outcome::Succeeded) => {
                    format!("Attempt {n}'s {noun} reaches the client: the client reports success.")
                }
                Decision::Done(Outcome::Rejected(_)) => {
                    format!("Attempt {n}'s {noun} reaches the client: outcome rejected, never retried.")
                }
                Decision::Done(Outcome::Exhausted(by)) => format!(
                    "Attempt {n}'s {noun} reaches the client and {}: outcome exhausted; {RECONCILE}.",
                    exhausted_clause(by)
                ),
                Decision::Retry { next, at, delay } => format!(
                    "Attempt {n}'s {noun} reaches the client: it will send attempt {next} at {at} (backoff {delay})."
                ),
            }
        }
        What::ResponseLate { status, .. } => format!(
            "Attempt {n}'s {} arrives late: the client is no longer waiting for it and ignores it.",
            status_noun(status)
        ),
        What::AttemptTimedOut { decision } => match decision {
            Decision::Retry { next, at, delay } => format!(
                "Attempt {n} times out unanswered: the client will send attempt {next} at {at} (backoff {delay})."
            ),
            Decision::Done(outcome) => {
                let by = outcome.exhausted_by().unwrap_or(ExhaustedBy::Attempts);
                format!(
                    "Attempt {n} times out unanswered and {}: outcome exhausted; {RECONCILE}.",
                    exhausted_clause(by)
                )
            }
        },
        _ => unreachable!("sentence() hands the client only its own facts"),
    }
}

/// What the network does to a request or a response: it loses it.
fn network_sentence(what: What, n: Attempt) -> String {
    match what {
        What::ResponseLost { status, .. } => {
            format!("Attempt {n}'s {} is lost in the network; the client never sees it.", status_noun(status))
        }
        What::RequestLost { .. } => {
            format!("Attempt {n}'s request is lost in the network; the server never sees it.")
        }
        _ => unreachable!("sentence() hands the network only its own facts"),
    }
}

/// How the server answers attempt `n`'s request (or starts its operation),
/// and its restart after a crash.
fn server_sentence(what: What, n: Attempt, key: &str) -> String {
    match what {
        What::RequestRefused { delivers_at } => format!(
            "The server is down: attempt {n}'s request is refused, and the client hears \"connection refused\" at {delivers_at}."
        ),
        What::RequestRejected => {
            format!("Server rejects attempt {n} with 400 (bad input); nothing is reserved or executed.")
        }
        What::RequestUnavailable => {
            format!("Server answers attempt {n} with 503 (unavailable); nothing is reserved or executed.")
        }
        What::PayloadMismatch { with, origin, expected } => {
            let holder = match with {
                MismatchWith::StoredResult => "stored result",
                MismatchWith::Reservation => "operation in flight",
            };
            let other = if expected == Payload::A { "B" } else { "A" };
            format!(
                "Key {key} belongs to attempt {origin}'s {holder} with payload {}, but attempt {n} carries payload \
                 {other}: the server answers 422 and does nothing.",
                expected.name()
            )
        }
        What::InFlightConflict { origin } => format!(
            "Key {key} is still held by attempt {origin}'s operation: the server answers attempt {n} with 409 \
             Conflict instead of joining it."
        ),
        What::OperationStarted { reserved: false, commits_at, .. } => format!(
            "Server starts an operation for attempt {n} without looking at its key; it commits at {commits_at}."
        ),
        What::OperationStarted { reserved: true, took_over, commits_at, lease_ends, .. } => {
            let fresh = if took_over { " (the previous reservation's lease had ended)" } else { "" };
            let lease = match lease_ends {
                Some(ends) if ends < commits_at => format!("; its lease ends at {ends}, before the commit"),
                _ => String::new(),
            };
            format!(
                "Server reserves key {key}{fresh} and starts attempt {n}'s operation; it commits at {commits_at}{lease}."
            )
        }
        What::ServerRestarted { crashed_at } => {
            format!("The server restarts (down since {crashed_at}) and serves requests again.")
        }
        _ => unreachable!("sentence() hands the server only its own facts"),
    }
}

/// What the deduplication store holds for key `key`: an operation to join,
/// a result to replay, and the ends of both.
fn store_sentence(what: What, n: Attempt, key: &str) -> String {
    match what {
        What::DedupJoined { origin, commits_at: Some(commits_at), mismatched } => format!(
            "Key {key} is already in flight: attempt {n} joins attempt {origin}'s operation and will be answered \
             when it commits at {commits_at} (deduplication hit){}.",
            mismatch_note(mismatched)
        ),
        What::DedupJoined { origin, commits_at: None, mismatched } => format!(
            "Key {key} is still reserved by attempt {origin}'s operation, which died in the crash: attempt {n} joins \
             it and will never be answered (deduplication hit){}.",
            mismatch_note(mismatched)
        ),
        What::DedupReplayed { origin, committed_at, value, mismatched } => format!(
            "Key {key} has a stored result (attempt {origin}'s commit at {committed_at}, counter {value}): the \
             server answers attempt {n} with it at once and does not execute again (deduplication hit){}.",
            mismatch_note(mismatched)
        ),
        What::StoredResultExpired { .. } => {
            format!("The stored result for key {key} expires: a request with this key would now execute again.")
        }
        What::LeaseEnded { reserved_at, orphaned: true } => format!(
            "The lease on key {key} (reserved at {reserved_at} by attempt {n}'s operation, which died in the crash) \
             ends: the orphaned reservation no longer blocks the key."
        ),
        What::LeaseEnded { reserved_at, orphaned: false } => format!(
            "The lease on key {key} (reserved at {reserved_at} by attempt {n}'s operation, still running) ends: \
             a duplicate would now reserve the key again and execute."
        ),
        _ => unreachable!("sentence() hands the store only its own facts"),
    }
}

/// What attempt `n`'s commit does to the ledger: the counter moves, or a
/// crash interrupts the commit at its crash point.
fn ledger_sentence(what: What, n: Attempt, key: &str) -> String {
    match what {
        What::OperationCommitted { value, payload, stored_until, released, answered, .. } => {
            let applied = if payload == Payload::B { " with payload B" } else { "" };
            let stored = match stored_until {
                Some(until) if !released => {
                    format!("; the result is stored for key {key} until {until}, and the key's newer reservation stays")
                }
                Some(until) => format!("; the result is stored for key {key} until {until}"),
                None => String::new(),
            };
            let answered = match answered {
                0 => "no one is waiting for an answer".to_owned(),
                1 => format!("a success response goes to attempt {n}"),
                more => format!("success responses go to attempt {n} and {} joined attempt(s)", more - 1),
            };
            format!("Attempt {n}'s operation commits{applied}: the counter becomes {value}{stored}; {answered}.")
        }
        What::ServerCrashed { point, applied, stored_until, released, lost_operations, wiped, restarts_at, .. } => {
            let mut text = format!("The server crashes during attempt {n}'s commit, {}", crash_point_text(point));
            match applied {
                Some(value) => text.push_str(&format!(": the counter became {value}")),
                None => text.push_str(": no increment"),
            }
            match stored_until {
                Some(_) => text.push_str(", the result was stored"),
                None => text.push_str(", no result stored"),
            }
            text.push_str(", no response sent");
            if lost_operations > 0 {
                text.push_str(&format!(
                    ", {} lost",
                    plural(lost_operations.into(), "other operation", "other operations")
                ));
            }
            if wiped {
                text.push_str("; the in-memory store loses every reservation and stored result");
            } else if stored_until.is_none() || !released {
                text.push_str(&format!("; the durable store keeps key {key}'s reservation, now orphaned"));
            }
            text.push_str(&format!(". It is down until {restarts_at}."));
            text
        }
        _ => unreachable!("sentence() hands the ledger only its own facts"),
    }
}

fn mismatch_note(mismatched: bool) -> &'static str {
    if mismatched {
        "; its payload differs from the one the key was first used with, and the server did not check \
         (mismatched hit)"
    } else {
        ""
    }
}
