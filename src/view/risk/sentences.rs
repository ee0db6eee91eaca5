//! Words for the risk lab's facts: one plain sentence per event (database
//! steps with the SQL they stand for and the rows they touched), and the
//! words for results, decisions and checks that the mirror shares.

use crate::sim::Millis;
use crate::sim::risk::facts::{
    Actor, AgentDecision, BudgetStep, CallShape, Cause, Claim, Credential, ErrorCode, Heard, IntentOutcome,
    LONG_REASON_CHARS, MAX_REASON_CHARS, Policy, Read, Record, Reply, RetryChoice, Route, RpcError, Status, Stmt, Tool,
    UniqueKey, Wait, What, is_legal,
};
use crate::sim::risk::{Check, Figure, Value};

use super::sql;
use super::{kinds, names};

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

fn error_meaning(code: ErrorCode) -> &'static str {
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

fn cause_text(cause: Cause, legal: bool) -> String {
    if legal { cause.name().to_owned() } else { format!("{}, illegal", cause.name()) }
}

fn sql_clause(stmt: Stmt, rows: u32) -> String {
    format!("{}; -- {}", sql::statement(&stmt), sql::rows(rows))
}

fn shape_clause(shape: CallShape) -> String {
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
fn retry_words(choice: RetryChoice) -> String {
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

/// One plain sentence saying what happened, in the words of the actor whose
/// fact it is.
pub fn sentence(record: &Record) -> String {
    match record.what {
        What::ToolCall { .. }
        | What::ResultReceived { .. }
        | What::DeadlinePassed { .. }
        | What::ScriptedRetry { .. } => agent_sentence(record),
        What::Routed { .. } => balancer_sentence(record),
        What::CallAdmitted { .. }
        | What::CallQueued { .. }
        | What::Overloaded { .. }
        | What::CallStarted { .. }
        | What::Policy { .. }
        | What::ToolResult { .. }
        | What::RpcError { .. }
        | What::ReplicaPaused { .. }
        | What::OutOfBudget { .. }
        | What::SlotReleased { .. } => replica_sentence(record),
        What::RowInserted { .. }
        | What::InsertConflict { .. }
        | What::RowRead { .. }
        | What::Scanned { .. }
        | What::LockTried { .. }
        | What::LockReleased { .. }
        | What::RetryCounted { .. } => database_rows_sentence(record),
        What::Transition { .. } | What::WriteSkipped { .. } | What::Claim { .. } => database_updates_sentence(record),
        What::CreateSent { .. }
        | What::DownstreamReply { .. }
        | What::DownstreamTimeout { .. }
        | What::LateReply { .. }
        | What::ReplyUnheard { .. } => caller_sentence(record),
        What::ProbeSent { .. } | What::WorkerCrashed { .. } => worker_sentence(record),
        What::RequestLost { .. }
        | What::FindHangs { .. }
        | What::ReviewCreated { .. }
        | What::ReviewReplayed { .. }
        | What::ResponseLost { .. } => risk_api_sentence(record),
    }
}

/// What the agent does: the tool calls it makes, and what it hears back or
/// stops waiting for.
fn agent_sentence(record: &Record) -> String {
    match record.what {
        What::ToolCall { call, tool: Tool::RequestRiskReview, attempt, request_key, order, shape, .. } => {
            let key = request_key.map_or_else(String::new, names::request_key);
            let order = order.map_or_else(String::new, names::order);
            let again =
                if attempt > 1 { format!(", attempt {attempt} with the same request_key") } else { String::new() };
            format!(
                "The agent, acting for u-1001, calls request_risk_review for order {order} with request_key {key}{}{again} ({}).",
                shape_clause(shape),
                names::call(call)
            )
        }
        What::ToolCall { call, review, attempt, shape, .. } => {
            let review = review.map_or_else(String::new, names::row);
            format!(
                "The agent calls get_risk_review_status for review {review}{} (poll {attempt}, {}).",
                shape_clause(shape),
                names::call(call)
            )
        }
        What::ResultReceived { call, made_at, decision: d } => {
            format!("The agent hears back on {} after {}: {}.", names::call(call), record.t.since(made_at), decision(d))
        }
        What::DeadlinePassed { call, made_at, decision: d } => format!(
            "{} is still unanswered {} after it was made (the client deadline): {}.",
            capitalised(&names::call(call)),
            record.t.since(made_at),
            decision(d)
        ),
        What::ScriptedRetry { intent, choice } => {
            format!("The script retries intent {}: {}.", intent.0, retry_words(choice))
        }
        _ => unreachable!("sentence() sends only the agent's facts here"),
    }
}

/// Where the load balancer sends a call (twice, under the duplicate-delivery
/// fault).
fn balancer_sentence(record: &Record) -> String {
    match record.what {
        What::Routed { call, replica, route: Route::RoundRobin } => {
            format!("The load balancer sends {} to replica {} (round robin).", names::call(call), replica.name())
        }
        What::Routed { call, replica, route: Route::Duplicate } => format!(
            "The same call is delivered twice: {} goes to replica {} at the same moment.",
            names::call(call),
            replica.name()
        ),
        _ => unreachable!("sentence() sends only the load balancer's facts here"),
    }
}

/// How a replica handles a call: its gates (a slot, the queue or
/// OVERLOADED), the authorization policy, and the result it returns.
fn replica_sentence(record: &Record) -> String {
    let who = actor(record.actor);
    match record.what {
        What::CallAdmitted { call, in_flight, queued } => {
            format!("{who} takes {} into a slot ({in_flight} in flight, {queued} queued).", names::call(call))
        }
        What::OutOfBudget { call, made_at, step } => {
            let (call, made) = (names::call(call), names::clock(made_at));
            match step {
                BudgetStep::Queue => format!(
                    "{who} answers {call} TEMPORARY_UNAVAILABLE without starting it: made at {made}, what is left of its deadline no longer covers auth, the database and the Risk API."
                ),
                BudgetStep::Insert => format!(
                    "{who} writes nothing for {call}: made at {made}, its client's deadline has passed, so it answers TEMPORARY_UNAVAILABLE."
                ),
                BudgetStep::Create => format!(
                    "{who} sends no create for {call}: made at {made}, its client's deadline has passed; the row is left as a timeout leaves it."
                ),
            }
        }
        What::SlotReleased { call, ds, answered_at } => format!(
            "{who} frees the slot {} held after its answer at {}: the Risk API is done with create {}.",
            names::call(call),
            names::clock(answered_at),
            ds.0
        ),
        What::ReplicaPaused { call, until } => format!(
            "{who} pauses with {} before its insert, and goes on at {} without looking again.",
            names::call(call),
            names::when(until)
        ),
        What::CallQueued { call, in_flight, queued, waits: Wait::Slot } => format!(
            "{who}'s slots are full: {} waits in the queue ({in_flight} in flight, {queued} queued).",
            names::call(call)
        ),
        What::CallQueued { call, queued, waits: Wait::Fleet { working, quota }, .. } => format!(
            "The fleet works on its quota ({working} of {quota} calls in the slots of all replicas): {} waits in {who}'s queue for a place ({queued} queued).",
            names::call(call)
        ),
        What::Overloaded { call, in_flight, queued } => format!(
            "{who}'s queue is full ({in_flight} in flight, {queued} queued): {} gets OVERLOADED at once.",
            names::call(call)
        ),
        What::CallStarted { call, queued_at, in_flight, queued, freed_by }
            if record.actor == Actor::Replica(freed_by) =>
        {
            format!(
                "{who} gives a freed slot to {}, queued since {} ({in_flight} in flight, {queued} queued).",
                names::call(call),
                names::clock(queued_at)
            )
        }
        What::CallStarted { call, queued_at, in_flight, queued, freed_by } => format!(
            "Replica {} answered a call and freed a place in the fleet: {who} starts {}, the oldest waiting, queued since {} ({in_flight} in flight, {queued} queued).",
            freed_by.name(),
            names::call(call),
            names::clock(queued_at)
        ),
        What::Policy { call, subject, claimed, order, owner, decision } => {
            let (subject, order, owner) = (names::user(subject), names::order(order), names::user(owner));
            let from = if claimed { "taken from the user_id in the arguments" } else { "from the trusted context" };
            match decision {
                Policy::Allowed => {
                    format!("{who} allows {}: {subject} ({from}) owns order {order}.", names::call(call))
                }
                Policy::Forbidden => format!(
                    "{who} refuses {}: order {order} belongs to {owner}, not to {subject}; no database write and no Risk API call.",
                    names::call(call)
                ),
                Policy::NotChecked => format!(
                    "{who} does not check authorization and trusts the arguments: {subject} acts on order {order}, which {owner} owns ({}).",
                    names::call(call)
                ),
            }
        }
        What::ToolResult { call, reply, .. } => {
            format!("{who} returns to {}: {}.", names::call(call), heard(Heard::Result(reply)))
        }
        What::RpcError { call, error: error @ RpcError::Thrown(code) } => format!(
            "{who} throws {} at {} as JSON-RPC error {} ({}) rather than a Tool Result: the agent reads a failed request, not \"{}\".",
            code.name(),
            names::call(call),
            error.code(),
            error.name(),
            error_meaning(code)
        ),
        What::RpcError { call, error } => {
            format!("{who} answers {} with {}, never a tool result.", names::call(call), heard(Heard::Rpc(error)))
        }
        _ => unreachable!("sentence() sends only a replica's facts here"),
    }
}

/// The database's inserts, reads and scans, with the SQL they stand for and
/// the rows they touched.
fn database_rows_sentence(record: &Record) -> String {
    match record.what {
        What::RowInserted { by, insert } => format!(
            "{} inserts row {} for {} as PENDING: {}",
            actor(by.actor()),
            names::row(insert.row),
            names::request_key(insert.request_key),
            stmt_clause(record)
        ),
        What::InsertConflict { by, on, existing, .. } => {
            let key = match on {
                UniqueKey::RequestKey => "request_key",
                UniqueKey::BusinessKey => "business_key",
            };
            format!(
                "{}'s insert runs into the unique {key} of row {}: no new row. {}",
                actor(by.actor()),
                names::row(existing),
                stmt_clause(record)
            )
        }
        What::RowRead { by, read, found } => {
            let what = match read {
                Read::ById { .. } => "reads the review's status",
                Read::Existing { .. } => "checks for an existing row before inserting",
                _ => "reads the existing row",
            };
            let found = found.map_or_else(
                || "nothing".to_owned(),
                |(row, status)| format!("{} is {}", names::row(row), status.name()),
            );
            format!("{} {what}: {found}. {}", actor(by.actor()), stmt_clause(record))
        }
        What::Scanned { by, due, unfinished: false, .. } => {
            format!("Worker {}'s scan finds {} due: {}", by.name(), sql::rows(due), stmt_clause(record))
        }
        What::Scanned { by, due, unfinished: true, .. } => format!(
            "Worker {}'s scan finds {} not SUCCEEDED with retry_count below 3: {}",
            by.name(),
            sql::rows(due),
            stmt_clause(record)
        ),
        What::LockTried { lock, taken: true } => format!(
            "Call {} takes the lock {} until {}: {}",
            lock.holder.0,
            names::lock(lock.name),
            names::when(lock.until),
            stmt_clause(record)
        ),
        What::LockTried { lock, taken: false } => format!(
            "The lock {} is held by another call: call {} waits and tries again. {}",
            names::lock(lock.name),
            lock.holder.0,
            stmt_clause(record)
        ),
        What::LockReleased { holder } => {
            format!("Call {} is answered and its lock goes: {}", holder.0, stmt_clause(record))
        }
        What::RetryCounted { by, row, retry_count } => format!(
            "Worker {} counts a resend of row {} (retry_count {retry_count}), without asking the Risk API first: {}",
            by.name(),
            names::row(row),
            stmt_clause(record)
        ),
        _ => unreachable!("sentence() sends only the database's inserts and reads here"),
    }
}

/// The database's guarded updates and claims, with the SQL they stand for and
/// whether they changed the row.
fn database_updates_sentence(record: &Record) -> String {
    match record.what {
        What::Transition { by, update, cause } => format!(
            "{} moves row {} {} -> {} ({}): {}",
            actor(by.actor()),
            names::row(update.row),
            update.from.name(),
            update.to.name(),
            cause_text(cause, is_legal(Some(update.from), update.to, cause)),
            stmt_clause(record)
        ),
        What::WriteSkipped { by, update, cause } => format!(
            "{}'s write ({}) finds row {} changed since it read it: nothing happens. {}",
            actor(by.actor()),
            cause.name(),
            names::row(update.row),
            stmt_clause(record)
        ),
        What::Claim { by, claim, version, won, from } => {
            let row = names::row(claim.row());
            let how = match claim {
                Claim::Cas { .. } => "compare-and-set",
                Claim::Blind { .. } => "read-then-write",
            };
            match (won, from) {
                (true, Some(from)) => format!(
                    "Worker {} claims row {row} ({how}, read at version {version}) and wins: {} -> PENDING ({}). {}",
                    by.name(),
                    from.name(),
                    cause_text(Cause::ClaimWon, is_legal(Some(from), Status::Pending, Cause::ClaimWon)),
                    stmt_clause(record)
                ),
                _ => format!(
                    "Worker {}'s claim of row {row} ({how}, read at version {version}) loses: another claim got there first. {}",
                    by.name(),
                    stmt_clause(record)
                ),
            }
        }
        _ => unreachable!("sentence() sends only the database's updates here"),
    }
}

/// A Risk API call as its caller (a replica or a worker) sees it: sent,
/// answered, timed out, answered too late or after a crash.
fn caller_sentence(record: &Record) -> String {
    let who = actor(record.actor);
    match record.what {
        What::CreateSent { row, request_key, credential, .. } => format!(
            "{who} calls the Risk API: CreateReview({}) for row {}{}.",
            names::request_key(request_key),
            names::row(row),
            match credential {
                Credential::Service => "",
                Credential::Caller => ", passing the caller's token on",
            }
        ),
        What::DownstreamReply { kind, answer: a, sent_at, request_key, .. } => format!(
            "{who} hears from the Risk API after {} ({}({})): {}.",
            record.t.since(sent_at),
            kinds::call(kind).operation,
            names::request_key(request_key),
            kinds::answer(a).phrase
        ),
        What::DownstreamTimeout { kind, sent_at, request_key, row, .. } => format!(
            "{who} gives up on {}({}) for row {} after {}: timeout.",
            kinds::call(kind).operation,
            names::request_key(request_key),
            names::row(row),
            record.t.since(sent_at)
        ),
        What::LateReply { kind, answer: a, sent_at, request_key, .. } => format!(
            "The Risk API's answer to {}({}) ({}) reaches {} {} after it was sent, past the timeout: ignored.",
            kinds::call(kind).operation,
            names::request_key(request_key),
            kinds::answer(a).phrase,
            actor_object(record.actor),
            record.t.since(sent_at)
        ),
        What::ReplyUnheard { kind, answer: a, request_key, .. } => format!(
            "The Risk API's answer to {}({}) ({}) reaches {}, which crashed: nobody hears it.",
            kinds::call(kind).operation,
            names::request_key(request_key),
            kinds::answer(a).phrase,
            actor_object(record.actor)
        ),
        _ => unreachable!("sentence() sends only a Risk API call's caller's facts here"),
    }
}

/// A worker's own acts: probing the Risk API, and crashing.
fn worker_sentence(record: &Record) -> String {
    let who = actor(record.actor);
    match record.what {
        What::ProbeSent { row, request_key, .. } => format!(
            "{who} probes the Risk API: FindByRequestKey({}) for row {}.",
            names::request_key(request_key),
            names::row(row)
        ),
        What::WorkerCrashed { worker } => format!(
            "Worker {} crashes right after sending its create: its claimed row stays PENDING until the claim lease ends.",
            worker.name()
        ),
        _ => unreachable!("sentence() sends only a worker's own facts here"),
    }
}

/// What the Risk API does with a call: creates or returns a review, or a
/// fault loses the call, its answer, or hangs it.
fn risk_api_sentence(record: &Record) -> String {
    match record.what {
        What::RequestLost { request_key, .. } => format!(
            "The create for {} is lost on the way: it never reaches the Risk API.",
            names::request_key(request_key)
        ),
        What::FindHangs { request_key, .. } => {
            format!("The Risk API's FindByRequestKey({}) hangs: no answer will come.", names::request_key(request_key))
        }
        What::ReviewCreated { review, request_key, order, .. } => format!(
            "The Risk API creates review {} for {} (order {}).",
            names::review(review),
            names::request_key(request_key),
            names::order(order)
        ),
        What::ReviewReplayed { review, request_key, .. } => format!(
            "The Risk API already has review {} for {} and returns it: no new review (idempotent create).",
            names::review(review),
            names::request_key(request_key)
        ),
        What::ResponseLost { answer: a, request_key, .. } => format!(
            "The Risk API's answer to the create for {} ({}) is lost on the way back: its caller never hears it.",
            names::request_key(request_key),
            kinds::answer(a).phrase
        ),
        _ => unreachable!("sentence() sends only the Risk API's facts here"),
    }
}

/// The SQL a database record stands for, with the rows it touched.
fn stmt_clause(record: &Record) -> String {
    record.statement().map(|(stmt, rows)| sql_clause(stmt, rows)).unwrap_or_default()
}

/// The text with its first letter a capital. The lab's words are ASCII;
/// keeping to ASCII spares the browser bundle Unicode's case tables.
fn capitalised(text: &str) -> String {
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
