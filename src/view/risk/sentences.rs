//! Words for the parts of the risk lab's facts: actors, results, decisions,
//! retries, call shapes, the SQL a database step stands for, checks. Each
//! event's sentence is said with the rest of its kind's words in
//! [`super::kinds`]; the mirror and the trace share these.

use crate::sim::Millis;
use crate::sim::risk::facts::{
    Actor, AgentDecision, CallShape, Cause, ErrorCode, Heard, IntentOutcome, LONG_REASON_CHARS, MAX_REASON_CHARS,
    Record, Reply, RetryChoice, RpcError, Stmt,
};
use crate::sim::risk::{Check, Figure, Value};

pub use super::kinds::sentence;

use super::{names, sql};

/// An actor as a sentence names it: "Replica A", "Worker W1".
pub fn actor(actor: Actor) -> String {
    match actor {
        Actor::Agent => "The agent".to_owned(),
        Actor::LoadBalancer => "The load balancer".to_owned(),
        Actor::Replica(r) => format!("Replica {}", r.name()),
        Actor::Database => "The database".to_owned(),
        Actor::RiskApi => "The Risk API".to_owned(),
        Actor::Worker(w) => format!("Worker {}", w.name()),
    }
}

/// An actor in the middle of a sentence: "replica A", "worker W1".
pub fn actor_object(actor: Actor) -> String {
    match actor {
        Actor::Replica(r) => format!("replica {}", r.name()),
        Actor::Worker(w) => format!("worker {}", w.name()),
        Actor::Agent => "the agent".to_owned(),
        Actor::LoadBalancer => "the load balancer".to_owned(),
        Actor::Database => "the database".to_owned(),
        Actor::RiskApi => "the Risk API".to_owned(),
    }
}

/// A tool result in words: "UNKNOWN for review R10086", "error
/// SUBMISSION_FAILED for review R10086".
pub fn heard(heard: Heard) -> String {
    match heard {
        Heard::Result(Reply::Review { row, status }) => format!("{} for review {}", status.name(), names::row(row)),
        Heard::Result(Reply::Error { code, row }) => {
            let about = row.map_or_else(String::new, |r| format!(" for review {}", names::row(r)));
            format!("error {}{about} ({})", code.name(), error_meaning(code))
        }
        Heard::Rpc(error @ RpcError::Thrown(code)) => {
            format!("JSON-RPC error {} ({}, {} in its data)", error.code(), error.name(), code.name())
        }
        Heard::Rpc(error) => format!("JSON-RPC error {} ({})", error.code(), error.name()),
    }
}

pub(super) fn error_meaning(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::InvalidArgument => "the arguments fail validation",
        ErrorCode::Unauthenticated => "no subject in the trusted context",
        ErrorCode::Forbidden => "this subject may not act on this order",
        ErrorCode::Overloaded => "retry later",
        ErrorCode::SubmissionFailed => "\"submission failed\"",
        ErrorCode::NotFound => "no such review for this subject",
        ErrorCode::TemporaryUnavailable => "too little of the call's deadline is left; retry later",
    }
}

/// How an intent ended, as the agent knows it.
pub fn outcome(outcome: IntentOutcome) -> String {
    match outcome {
        IntentOutcome::Succeeded(row) => format!("review {} SUCCEEDED", names::row(row)),
        IntentOutcome::Failed(row) => format!("review {} FAILED", names::row(row)),
        IntentOutcome::Refused(code) => format!("refused with {}", code.name()),
        IntentOutcome::Protocol(error) => format!("JSON-RPC error {}", error.code()),
        IntentOutcome::GaveUp => "out of retries or polls".to_owned(),
        IntentOutcome::NoAnswer => "no answer within the client deadline".to_owned(),
    }
}

/// What the agent decided on hearing back (or not), as a clause.
pub fn decision(decision: AgentDecision) -> String {
    match decision {
        AgentDecision::Done(o) => format!("the intent is done: {}", outcome(o)),
        AgentDecision::PollAt(at) => format!("it will poll the review's status at {}", names::when(at)),
        AgentDecision::RetryAt(at) => format!("it will retry with the same request_key at {}", names::when(at)),
        AgentDecision::FixAt(at) => {
            format!("it drops what the server refused and calls again with the same request_key at {}", names::when(at))
        }
        AgentDecision::Ignored => "it is no longer waiting for this answer".to_owned(),
    }
}

pub(super) fn cause_text(cause: Cause, legal: bool) -> String {
    if legal { cause.name().to_owned() } else { format!("{}, illegal", cause.name()) }
}

fn sql_clause(stmt: Stmt, rows: u32) -> String {
    format!("{}; -- {}", sql::statement(&stmt), sql::rows(rows))
}

pub(super) fn shape_clause(shape: CallShape) -> String {
    let words = match shape {
        CallShape::Valid => "",
        CallShape::Malformed => " as a malformed JSON-RPC request",
        CallShape::UnknownTool => " under a tool name the server does not offer",
        CallShape::InvalidArgument => " with an empty reason",
        CallShape::NoSubject => " with no subject in its trusted context",
        CallShape::WrongAudience => " with a token issued for another audience",
        CallShape::ClaimedUser => " naming u-2002 as user_id in its arguments",
        CallShape::ExtraArgument => " with an extra argument the schema does not have, approved: true",
        CallShape::LongReason => return format!(" with a reason of {}", long_reason_words()),
    };
    words.to_owned()
}

/// How long a long reason is, said once for the sentences that name it.
pub fn long_reason_words() -> String {
    format!("{LONG_REASON_CHARS} characters, past the schema's {MAX_REASON_CHARS}")
}

/// What a scripted retry did under the agent's retry policy.
pub(super) fn retry_words(choice: RetryChoice) -> String {
    match choice {
        RetryChoice::Again => "the agent calls request_risk_review again at once, with the same request_key".to_owned(),
        RetryChoice::AgainDeclared => {
            "request_risk_review declares idempotentHint, so the agent calls it again with the same request_key"
                .to_owned()
        }
        RetryChoice::AgainNoHandle => {
            "no answer gave the agent a review_id to poll, so it calls request_risk_review again with the same request_key"
                .to_owned()
        }
        RetryChoice::Poll(row) => format!(
            "instead of calling again, the agent polls get_risk_review_status for {}, the review_id an earlier answer gave it",
            names::row(row)
        ),
        RetryChoice::Withheld => {
            "request_risk_review does not declare idempotentHint, so the agent does not call it again".to_owned()
        }
    }
}

/// The SQL a database record stands for, with the rows it touched.
pub(super) fn stmt_clause(record: &Record) -> String {
    record.statement().map(|(stmt, rows)| sql_clause(stmt, rows)).unwrap_or_default()
}

/// The text with its first letter a capital. The lab's words are ASCII;
/// keeping to ASCII spares the browser bundle Unicode's case tables.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| std::iter::once(c.to_ascii_uppercase()).chain(chars).collect())
}

/// A figure's value as text (ids as the report writes them).
pub fn value(value: Value) -> String {
    match value {
        Value::Count(n) => n.to_string(),
        Value::Ms(ms) => Millis(ms).to_string(),
        Value::Row(r) => names::row(r),
        Value::Order(o) => names::order(o),
        Value::Key(k) => names::request_key(k),
        Value::Replica(r) => r.name().to_owned(),
    }
}

/// "max_reviews 2, worst_order O20260728001".
pub fn figures(figures: &[Figure]) -> String {
    figures.iter().map(|f| format!("{} {}", f.name.name(), value(f.value))).collect::<Vec<_>>().join(", ")
}

/// "holds", "fails" or "not applicable".
pub fn verdict(holds: Option<bool>) -> &'static str {
    match holds {
        Some(true) => "holds",
        Some(false) => "fails",
        None => "not applicable",
    }
}

/// One line per check: "legal_transitions: fails (transitions 3, illegal 1, ...)".
pub fn check_line(check: &Check) -> String {
    format!("{}: {} ({})", check.name.name(), verdict(check.holds), figures(&check.figures))
}

/// Presenter mode's caption: the latest moment at or before `t` with what
/// happened then (at most four events, and how many more).
pub fn caption(records: &[Record], t: Millis) -> String {
    let past = &records[..records.partition_point(|r| r.t <= t)];
    let Some(last) = past.last() else {
        return format!("{}: the agent has not called the tool server yet.", names::when(t));
    };
    let here: Vec<&Record> = past.iter().rev().take_while(|r| r.t == last.t).collect();
    let shown: Vec<String> = here.iter().rev().take(4).map(|r| sentence(r)).collect();
    let more = match here.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(" And {n} more events at this moment."),
    };
    format!("{}: {}{more}", names::when(last.t), shown.join(" "))
}

#[cfg(test)]
mod caption_tests {
    use super::*;
    use crate::sim::risk::{Run, Settings};

    #[test]
    fn the_caption_says_the_latest_moment_and_nothing_after_it() {
        let run = Run::simulate(&Settings::default()).unwrap();
        // Before the first record there is nothing to say but the moment.
        let first = run.records()[0].t;
        if first > Millis::ZERO {
            assert!(caption(run.records(), Millis::ZERO).ends_with("the agent has not called the tool server yet."));
        }
        let at_first = caption(run.records(), first);
        assert!(at_first.starts_with(&names::when(first)), "{at_first}");
        let later = run.records()[run.records().len() / 2].t;
        let text = caption(run.records(), later);
        assert!(text.starts_with(&names::when(later)), "{text}");
    }
}
