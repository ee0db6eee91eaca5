//! What the views say about each kind of fact, said once. For every kind
//! of record, one arm gives its part of the page (the actor whose lane
//! draws it and in whose words it is said), its label on the timeline, the
//! label of a group of like records, its sentence, and the words the trace
//! and the report need; one row per Risk API answer and per kind of Risk
//! API call gives their words. The timeline, the sentences (and so the
//! event list, the caption, the text mirror and the report), the trace,
//! the alerts and the OTLP export read them here.

use crate::sim::risk::IntentOutcome;
use crate::sim::risk::facts::{
    Actor, AgentDecision, Answer, BudgetStep, Cause, Claim, Credential, DsKind, Heard, Policy, Read, Record, Reply,
    RetryChoice, ReviewRef, Route, RpcError, Status, Tool, UniqueKey, UserId, Wait, What, is_legal,
};

use super::sentences::{
    actor, actor_object, capitalised, cause_text, decision, error_meaning, heard, retry_words, shape_clause,
    stmt_clause,
};
use super::{names, sql};

/// The part of the page a kind of record belongs to: the actor whose lane
/// draws it and in whose words its sentence is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The tool calls the agent makes, and what it hears back or stops
    /// waiting for.
    Agent,
    /// Where the load balancer sends a call.
    Balancer,
    /// A replica's gates: a slot, the queue, OVERLOADED, a pause, a deadline
    /// run out.
    Gates,
    /// A replica's policy decision and the result it returns.
    Replica,
    /// The database's inserts, reads, scans and locks.
    DatabaseRows,
    /// The database's guarded updates and claims.
    DatabaseUpdates,
    /// A Risk API call as its caller (a replica or a worker) sees it.
    Caller,
    /// A worker's own acts: its probes and its crash.
    Worker,
    /// What the Risk API does with a call, or a fault does to it.
    RiskApi,
}

/// The part of the page a record belongs to.
pub fn part(what: &What) -> Part {
    match what {
        What::ToolCall { .. }
        | What::ResultReceived { .. }
        | What::DeadlinePassed { .. }
        | What::ScriptedRetry { .. } => Part::Agent,
        What::Routed { .. } => Part::Balancer,
        What::CallAdmitted { .. }
        | What::CallQueued { .. }
        | What::CallStarted { .. }
        | What::Overloaded { .. }
        | What::ReplicaPaused { .. }
        | What::OutOfBudget { .. }
        | What::SlotReleased { .. } => Part::Gates,
        What::Policy { .. } | What::ToolResult { .. } | What::RpcError { .. } => Part::Replica,
        What::RowInserted { .. }
        | What::InsertConflict { .. }
        | What::RowRead { .. }
        | What::Scanned { .. }
        | What::LockTried { .. }
        | What::LockReleased { .. }
        | What::RetryCounted { .. } => Part::DatabaseRows,
        What::Transition { .. } | What::WriteSkipped { .. } | What::Claim { .. } => Part::DatabaseUpdates,
        What::CreateSent { .. }
        | What::DownstreamReply { .. }
        | What::DownstreamTimeout { .. }
        | What::LateReply { .. }
        | What::ReplyUnheard { .. } => Part::Caller,
        What::ProbeSent { .. } | What::WorkerCrashed { .. } => Part::Worker,
        What::RequestLost { .. }
        | What::FindHangs { .. }
        | What::ReviewCreated { .. }
        | What::ReviewReplayed { .. }
        | What::ResponseLost { .. } => Part::RiskApi,
    }
}

/// What the views know about a record beyond the record itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// What the agent heard for the call (a heard result's label).
    pub heard: Option<Heard>,
    /// Who sent the Risk API call (a lost response's label).
    pub issuer: Option<Actor>,
    /// The end user of the call's verified token (the trace's policy line).
    pub caller: Option<UserId>,
}

/// Which of a record's words a view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// Its label on the timeline.
    Label,
    /// The label of a group of like records, after their count.
    Group,
    /// Its sentence.
    Sentence,
    /// Its line in a call's trace (the call menu's entry, the policy line).
    Trace,
    /// A Risk API call's outcome in the report.
    Outcome,
}

impl Ask {
    /// The label, the group label or the sentence, whichever is asked for
    /// (a kind with no trace line or outcome says nothing for those).
    fn say(self, label: impl FnOnce() -> String, group: &str, sentence: impl FnOnce() -> String) -> String {
        match self {
            Ask::Label => label(),
            Ask::Group => group.to_owned(),
            Ask::Sentence => sentence(),
            Ask::Trace | Ask::Outcome => String::new(),
        }
    }
}

/// A record's label on the timeline (empty for the kinds drawn without
/// words of their own: a slot taken, a result's arrow).
pub fn label(r: &Record, seen: Seen) -> String {
    say(r, seen, Ask::Label)
}

/// The label of a group of `n` like records, from its first record.
pub fn group(r: &Record, n: usize) -> String {
    format!("{n} {}", say(r, Seen::default(), Ask::Group))
}

/// One plain sentence saying what happened, in the words of the actor
/// whose fact it is.
pub fn sentence(r: &Record) -> String {
    say(r, Seen::default(), Ask::Sentence)
}

/// A record's line in a call's trace: a tool call's entry in the menu of
/// calls, a policy decision's reason (empty for other kinds).
pub fn trace_line(r: &Record, seen: Seen) -> String {
    say(r, seen, Ask::Trace)
}

/// What became of a Risk API call, as the report names it, if the record
/// says (empty for other kinds).
pub fn outcome(r: &Record) -> String {
    say(r, Seen::default(), Ask::Outcome)
}

fn say(r: &Record, seen: Seen, ask: Ask) -> String {
    match part(&r.what) {
        Part::Agent => agent(r, seen, ask),
        Part::Balancer => balancer(r, ask),
        Part::Gates => gates(r, ask),
        Part::Replica => replica(r, seen, ask),
        Part::DatabaseRows => database_rows(r, ask),
        Part::DatabaseUpdates => database_updates(r, ask),
        Part::Caller => caller(r, ask),
        Part::Worker => worker(r, ask),
        Part::RiskApi => risk_api(r, seen, ask),
    }
}

/// Everything the views say about one Risk API answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerWords {
    /// The timeline's label: "created RV-1", "503".
    pub short: String,
    /// Without the review it names, for a group of answers: "created".
    pub word: &'static str,
    /// The class of the answer's arrow on the timeline.
    pub class: &'static str,
    /// The report's outcome: "created", "unavailable_503".
    pub report: &'static str,
    /// In a sentence: "review RV-1 created", "503, over capacity".
    pub phrase: String,
    /// The HTTP status the Risk API answers with, and the error its caller
    /// sees (OTLP).
    pub http: Http,
    /// A number that tells the answers apart (a timeline group's detail).
    pub code: u32,
}

/// A row of [`ANSWERS`]: the timeline's word (before the review it names),
/// the group's word, the arrow's class, the report's outcome, the sentence's
/// phrase (around the review it names), and the HTTP status and error.
type AnswerRow = (&'static str, &'static str, &'static str, &'static str, (&'static str, &'static str), Http);

/// An HTTP status and the error its caller sees.
type Http = (Option<i64>, Option<&'static str>);

/// One row per answer, in [`Answer`]'s order.
#[rustfmt::skip]
const ANSWERS: [AnswerRow; 9] = [
    ("created", "created", "response success", "created", ("review ", " created"), (Some(201), None)),
    ("existing", "existing review", "response success", "existing", ("the existing review ", " (idempotent create)"), (Some(200), None)),
    ("rejected", "rejected", "response failed", "rejected", ("an explicit business rejection", ""), (Some(422), Some("422"))),
    ("503", "503", "response error", "unavailable_503", ("503, over capacity", ""), (Some(503), Some("503"))),
    ("500", "500", "response error", "server_error_500", ("500, nothing created", ""), (Some(500), Some("500"))),
    ("reset", "reset", "response lost", "reset", ("a connection reset", ""), (None, Some("connection_reset"))),
    ("found", "found", "response success", "found", ("found, review ", ""), (Some(200), None)),
    ("not found", "not found", "response pending", "not_found", ("not found", ""), (Some(404), Some("404"))),
    // A find that meets a create still under way: accepted, not done.
    ("in progress", "in progress", "response pending", "in_progress", ("a create with this key is still under way", ""), (Some(202), None)),
];

/// The words of an answer, from its row.
pub fn answer(answer: Answer) -> AnswerWords {
    let (row, review): (usize, Option<ReviewRef>) = match answer {
        Answer::Created(r) => (0, Some(r)),
        Answer::Existing(r) => (1, Some(r)),
        Answer::Rejected => (2, None),
        Answer::Unavailable => (3, None),
        Answer::ServerError => (4, None),
        Answer::Reset => (5, None),
        Answer::Found(r) => (6, Some(r)),
        Answer::NotFound => (7, None),
        Answer::InProgress => (8, None),
    };
    let (short, word, class, report, (before, after), http) = ANSWERS[row];
    let review = review.map(names::review);
    AnswerWords {
        short: review.as_ref().map_or_else(|| short.to_owned(), |r| format!("{short} {r}")),
        word,
        class,
        report,
        phrase: format!("{before}{}{after}", review.unwrap_or_default()),
        http,
        code: row as u32,
    }
}

/// The HTTP status and error of a Risk API call's end: its answer's, or a
/// timeout's when none came.
pub fn http(answer: Option<Answer>) -> Http {
    answer.map_or((None, Some("timeout")), |a| self::answer(a).http)
}

/// Everything the views say about one kind of Risk API call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallWords {
    /// On the timeline: "Create".
    pub short: &'static str,
    /// The operation, in sentences and alerts: "CreateReview".
    pub operation: &'static str,
    /// The HTTP method and the span's name (OTLP).
    pub method: &'static str,
    pub route: &'static str,
}

/// One row per kind of Risk API call.
pub fn call(kind: DsKind) -> CallWords {
    match kind {
        DsKind::Create => {
            CallWords { short: "Create", operation: "CreateReview", method: "POST", route: "POST /reviews" }
        }
        DsKind::Find => {
            CallWords { short: "Find", operation: "FindByRequestKey", method: "GET", route: "GET /reviews" }
        }
    }
}

/// The agent's tool calls, and what it hears back or stops waiting for.
fn agent(r: &Record, seen: Seen, ask: Ask) -> String {
    match r.what {
        What::ToolCall { call, tool, attempt, request_key, order, review, shape, replica, .. } => match ask {
            Ask::Trace => {
                let what = match (tool, request_key, order, review) {
                    (Tool::RequestRiskReview, Some(key), Some(order), _) => {
                        format!("request_risk_review, {}, {}", names::request_key(key), names::order(order))
                    }
                    (_, _, _, Some(row)) => format!("get_risk_review_status, {}", names::row(row)),
                    _ => tool.name().to_owned(),
                };
                format!("call {} at {} via {}: {what}", call.0, names::clock(r.t), replica.name())
            }
            _ => ask.say(
                || match (tool, request_key, review) {
                    (Tool::RequestRiskReview, Some(key), _) => {
                        format!("call {}: request_risk_review {}", call.0, names::request_key(key))
                    }
                    (_, _, Some(row)) => format!("call {}: status of {}", call.0, names::row(row)),
                    _ => format!("call {}: {}", call.0, tool.name()),
                },
                if tool == Tool::RequestRiskReview { "calls of request_risk_review" } else { "status polls" },
                || {
                    if tool == Tool::RequestRiskReview {
                        let key = request_key.map_or_else(String::new, names::request_key);
                        let order = order.map_or_else(String::new, names::order);
                        let again = if attempt > 1 {
                            format!(", attempt {attempt} with the same request_key")
                        } else {
                            String::new()
                        };
                        format!(
                            "The agent, acting for u-1001, calls request_risk_review for order {order} with request_key {key}{}{again} ({}).",
                            shape_clause(shape),
                            names::call(call)
                        )
                    } else {
                        let review = review.map_or_else(String::new, names::row);
                        format!(
                            "The agent calls get_risk_review_status for review {review}{} (poll {attempt}, {}).",
                            shape_clause(shape),
                            names::call(call)
                        )
                    }
                },
            ),
        },
        What::ResultReceived { call, made_at, decision: d } => ask.say(
            || {
                let heard = seen.heard.map_or_else(String::new, heard_short);
                format!("call {}: {heard} → {}", call.0, decision_short(d))
            },
            "results heard",
            || format!("The agent hears back on {} after {}: {}.", names::call(call), r.t.since(made_at), decision(d)),
        ),
        What::DeadlinePassed { call, made_at, decision: d } => ask.say(
            || format!("call {}: no answer by the client deadline", call.0),
            "past the client deadline",
            || {
                format!(
                    "{} is still unanswered {} after it was made (the client deadline): {}.",
                    capitalised(&names::call(call)),
                    r.t.since(made_at),
                    decision(d)
                )
            },
        ),
        What::ScriptedRetry { intent, choice } => ask.say(
            || match choice {
                RetryChoice::Poll(row) => format!("intent {}: retry → poll {}", intent.0, names::row(row)),
                RetryChoice::Withheld => format!("intent {}: no retry (no idempotentHint)", intent.0),
                _ => format!("intent {}: retry → call again", intent.0),
            },
            "scripted retries",
            || format!("The script retries intent {}: {}.", intent.0, retry_words(choice)),
        ),
        _ => unreachable!("say() sends only the agent's facts here"),
    }
}

/// How a heard result reads on the agent's lane: "UNKNOWN R10086".
fn heard_short(heard: Heard) -> String {
    match heard {
        Heard::Result(Reply::Review { row, status }) => format!("{} {}", status.name(), names::row(row)),
        Heard::Result(Reply::Error { code, .. }) => code.name().to_owned(),
        Heard::Rpc(RpcError::Thrown(code)) => format!("JSON-RPC {} ({})", RpcError::Thrown(code).code(), code.name()),
        Heard::Rpc(error) => format!("JSON-RPC {}", error.code()),
    }
}

/// What the agent decided, on its lane: "done", "retry at 2.62 s".
fn decision_short(decision: AgentDecision) -> String {
    match decision {
        AgentDecision::Done(IntentOutcome::Succeeded(_) | IntentOutcome::Failed(_)) => "done".to_owned(),
        AgentDecision::Done(IntentOutcome::Refused(_) | IntentOutcome::Protocol(_)) => "gives up".to_owned(),
        AgentDecision::Done(IntentOutcome::GaveUp) => "out of tries".to_owned(),
        AgentDecision::Done(IntentOutcome::NoAnswer) => "no answer".to_owned(),
        AgentDecision::PollAt(at) => format!("poll at {at}"),
        AgentDecision::RetryAt(at) => format!("retry at {at}"),
        AgentDecision::FixAt(at) => format!("fix and call again at {at}"),
        AgentDecision::Ignored => "ignored".to_owned(),
    }
}

/// Where the load balancer sends a call (twice, under the duplicate-delivery
/// fault).
fn balancer(r: &Record, ask: Ask) -> String {
    match r.what {
        What::Routed { call, replica, route } => ask.say(
            || match route {
                Route::RoundRobin => format!("call {} → {}", call.0, replica.name()),
                Route::Duplicate => format!("call {} → {} (duplicate)", call.0, replica.name()),
            },
            "calls routed",
            || match route {
                Route::RoundRobin => format!(
                    "The load balancer sends {} to replica {} (round robin).",
                    names::call(call),
                    replica.name()
                ),
                Route::Duplicate => format!(
                    "The same call is delivered twice: {} goes to replica {} at the same moment.",
                    names::call(call),
                    replica.name()
                ),
            },
        ),
        _ => unreachable!("say() sends only the load balancer's facts here"),
    }
}

/// A replica's gates: a slot, the queue or OVERLOADED, a pause, a deadline
/// run out, a slot held for the Risk API.
fn gates(r: &Record, ask: Ask) -> String {
    let who = || actor(r.actor);
    match r.what {
        What::CallAdmitted { call, in_flight, queued } => ask.say(String::new, "take a slot", || {
            format!("{} takes {} into a slot ({in_flight} in flight, {queued} queued).", who(), names::call(call))
        }),
        What::CallQueued { call, in_flight, queued, waits: Wait::Slot } => ask.say(
            || format!("call {} queued ({in_flight} in flight, {queued} queued)", call.0),
            "queued",
            || {
                format!(
                    "{}'s slots are full: {} waits in the queue ({in_flight} in flight, {queued} queued).",
                    who(),
                    names::call(call)
                )
            },
        ),
        What::CallQueued { call, queued, waits: Wait::Fleet { working, quota }, .. } => ask.say(
            || format!("call {} queued: fleet {working} of {quota} ({queued} queued)", call.0),
            &format!("queued: the fleet at its quota of {quota}"),
            || {
                format!(
                    "The fleet works on its quota ({working} of {quota} calls in the slots of all replicas): {} waits in {}'s queue for a place ({queued} queued).",
                    names::call(call),
                    who()
                )
            },
        ),
        What::CallStarted { call, queued_at, in_flight, queued, freed_by } => {
            let own = r.actor == Actor::Replica(freed_by);
            ask.say(
                || match own {
                    true => format!("call {} takes a slot", call.0),
                    false => format!("call {} takes the fleet's place {} freed", call.0, freed_by.name()),
                },
                "leave the queue for a slot",
                || match own {
                    true => format!(
                        "{} gives a freed slot to {}, queued since {} ({in_flight} in flight, {queued} queued).",
                        who(),
                        names::call(call),
                        names::clock(queued_at)
                    ),
                    false => format!(
                        "Replica {} answered a call and freed a place in the fleet: {} starts {}, the oldest waiting, queued since {} ({in_flight} in flight, {queued} queued).",
                        freed_by.name(),
                        who(),
                        names::call(call),
                        names::clock(queued_at)
                    ),
                },
            )
        }
        What::Overloaded { call, in_flight, queued } => ask.say(
            || format!("call {} OVERLOADED ({in_flight} in flight, {queued} queued)", call.0),
            "OVERLOADED",
            || {
                format!(
                    "{}'s queue is full ({in_flight} in flight, {queued} queued): {} gets OVERLOADED at once.",
                    who(),
                    names::call(call)
                )
            },
        ),
        What::ReplicaPaused { call, until } => ask.say(
            || format!("call {} paused until {}", call.0, names::when(until)),
            "pauses",
            || {
                format!(
                    "{} pauses with {} before its insert, and goes on at {} without looking again.",
                    who(),
                    names::call(call),
                    names::when(until)
                )
            },
        ),
        What::OutOfBudget { .. } => out_of_budget(r, ask),
        What::SlotReleased { call, ds, answered_at } => ask.say(
            || format!("call {}'s slot frees: the Risk API is done", call.0),
            "held slots freed",
            || {
                format!(
                    "{} frees the slot {} held after its answer at {}: the Risk API is done with create {}.",
                    who(),
                    names::call(call),
                    names::clock(answered_at),
                    ds.0
                )
            },
        ),
        _ => unreachable!("say() sends only a replica's gates here"),
    }
}

/// A call whose deadline ran out at a replica (deadline propagation).
fn out_of_budget(r: &Record, ask: Ask) -> String {
    let What::OutOfBudget { call, made_at, step } = r.what else { unreachable!("gates() sends only these here") };
    ask.say(
        || match step {
            BudgetStep::Queue => format!("call {}: too little time left, TEMPORARY_UNAVAILABLE", call.0),
            BudgetStep::Insert => format!("call {}: deadline passed, no insert", call.0),
            BudgetStep::Create => format!("call {}: deadline passed, no create", call.0),
        },
        "refused: too little of their deadline left",
        || {
            let (who, call, made) = (actor(r.actor), names::call(call), names::clock(made_at));
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
        },
    )
}

/// A replica's authorization decision, and the result it returns.
fn replica(r: &Record, seen: Seen, ask: Ask) -> String {
    let who = || actor(r.actor);
    match r.what {
        What::Policy { call, subject, claimed, order, owner, decision } => {
            let (subject, order, owner) = (names::user(subject), names::order(order), names::user(owner));
            match ask {
                Ask::Trace => {
                    let from = if claimed {
                        let caller = seen.caller.map_or_else(|| "nobody".to_owned(), names::user);
                        format!("taken from the user_id in the arguments, not from the token (the caller is {caller})")
                    } else {
                        "from the trusted context".to_owned()
                    };
                    match decision {
                        Policy::Allowed => format!("allowed: {subject}, {from}, owns {order}."),
                        Policy::Forbidden => format!(
                            "refused (FORBIDDEN): {order} belongs to {owner}, not to {subject}; no database write and no Risk API call."
                        ),
                        Policy::NotChecked => format!(
                            "not checked: authorization is off, so the server trusted the arguments ({order} belongs to {owner}; the caller acted for {subject})."
                        ),
                    }
                }
                _ => ask.say(
                    || match decision {
                        Policy::Allowed => "policy: allowed".to_owned(),
                        Policy::Forbidden => format!("FORBIDDEN: {order} belongs to {owner}"),
                        Policy::NotChecked => "policy not checked".to_owned(),
                    },
                    match decision {
                        Policy::Allowed => "allowed by policy",
                        Policy::Forbidden => "FORBIDDEN",
                        Policy::NotChecked => "not checked by policy",
                    },
                    || {
                        let (who, call) = (who(), names::call(call));
                        let from =
                            if claimed { "taken from the user_id in the arguments" } else { "from the trusted context" };
                        match decision {
                            Policy::Allowed => format!("{who} allows {call}: {subject} ({from}) owns order {order}."),
                            Policy::Forbidden => format!(
                                "{who} refuses {call}: order {order} belongs to {owner}, not to {subject}; no database write and no Risk API call."
                            ),
                            Policy::NotChecked => format!(
                                "{who} does not check authorization and trusts the arguments: {subject} acts on order {order}, which {owner} owns ({call})."
                            ),
                        }
                    },
                ),
            }
        }
        What::ToolResult { call, reply, .. } => ask.say(String::new, "results", || {
            format!("{} returns to {}: {}.", who(), names::call(call), heard(Heard::Result(reply)))
        }),
        What::RpcError { call, error } => ask.say(String::new, "results", || match error {
            RpcError::Thrown(code) => format!(
                "{} throws {} at {} as JSON-RPC error {} ({}) rather than a Tool Result: the agent reads a failed request, not \"{}\".",
                who(),
                code.name(),
                names::call(call),
                error.code(),
                error.name(),
                error_meaning(code)
            ),
            _ => format!("{} answers {} with {}, never a tool result.", who(), names::call(call), heard(Heard::Rpc(error))),
        }),
        _ => unreachable!("say() sends only a replica's decisions and results here"),
    }
}

/// A unique key by its column's name.
fn unique_key(on: UniqueKey) -> &'static str {
    match on {
        UniqueKey::RequestKey => "request_key",
        UniqueKey::BusinessKey => "business_key",
    }
}

/// The database's inserts, reads, scans and locks, with the SQL they stand
/// for and the rows they touched.
fn database_rows(r: &Record, ask: Ask) -> String {
    match r.what {
        What::RowInserted { by, insert } => ask.say(
            || format!("INSERT {} ({}): PENDING", names::row(insert.row), names::request_key(insert.request_key)),
            "INSERTs: PENDING",
            || {
                format!(
                    "{} inserts row {} for {} as PENDING: {}",
                    actor(by.actor()),
                    names::row(insert.row),
                    names::request_key(insert.request_key),
                    stmt_clause(r)
                )
            },
        ),
        What::InsertConflict { by, on, existing, .. } => ask.say(
            || format!("unique {} conflict: {} exists", unique_key(on), names::row(existing)),
            "unique conflicts",
            || {
                format!(
                    "{}'s insert runs into the unique {} of row {}: no new row. {}",
                    actor(by.actor()),
                    unique_key(on),
                    names::row(existing),
                    stmt_clause(r)
                )
            },
        ),
        What::RowRead { by, read, found } => ask.say(
            || {
                let what = if matches!(read, Read::ById { .. }) { "SELECT status" } else { "SELECT existing" };
                let found =
                    found.map_or_else(|| "nothing".to_owned(), |(row, s)| format!("{} {}", names::row(row), s.name()));
                format!("{what}: {found}")
            },
            "SELECTs",
            || {
                let what = match read {
                    Read::ById { .. } => "reads the review's status",
                    Read::Existing { .. } => "checks for an existing row before inserting",
                    _ => "reads the existing row",
                };
                let found = found.map_or_else(
                    || "nothing".to_owned(),
                    |(row, status)| format!("{} is {}", names::row(row), status.name()),
                );
                format!("{} {what}: {found}. {}", actor(by.actor()), stmt_clause(r))
            },
        ),
        What::Scanned { by, due, unfinished, .. } => ask.say(
            || format!("{} scan: {due} due", by.name()),
            "scans",
            || match unfinished {
                false => format!("Worker {}'s scan finds {} due: {}", by.name(), sql::rows(due), stmt_clause(r)),
                true => format!(
                    "Worker {}'s scan finds {} not SUCCEEDED with retry_count below 3: {}",
                    by.name(),
                    sql::rows(due),
                    stmt_clause(r)
                ),
            },
        ),
        What::LockTried { .. } | What::LockReleased { .. } => locks(r, ask),
        What::RetryCounted { by, row, retry_count } => ask.say(
            || format!("{} retry_count = {retry_count}", names::row(row)),
            "resends counted",
            || {
                format!(
                    "Worker {} counts a resend of row {} (retry_count {retry_count}), without asking the Risk API first: {}",
                    by.name(),
                    names::row(row),
                    stmt_clause(r)
                )
            },
        ),
        _ => unreachable!("say() sends only the database's inserts and reads here"),
    }
}

/// A replica's lock: taken, busy, let go.
fn locks(r: &Record, ask: Ask) -> String {
    match r.what {
        What::LockTried { lock, taken } => {
            let (name, holder) = (names::lock(lock.name), lock.holder.0);
            ask.say(
                || match taken {
                    true => format!("lock {name} taken by call {holder} until {}", names::when(lock.until)),
                    false => format!("lock {name} busy: call {holder} waits"),
                },
                if taken { "locks taken" } else { "locks busy" },
                || match taken {
                    true => format!(
                        "Call {holder} takes the lock {name} until {}: {}",
                        names::when(lock.until),
                        stmt_clause(r)
                    ),
                    false => format!(
                        "The lock {name} is held by another call: call {holder} waits and tries again. {}",
                        stmt_clause(r)
                    ),
                },
            )
        }
        What::LockReleased { holder } => ask.say(
            || format!("call {} lets go of its lock", holder.0),
            "locks released",
            || format!("Call {} is answered and its lock goes: {}", holder.0, stmt_clause(r)),
        ),
        _ => unreachable!("database_rows() sends only locks here"),
    }
}

/// The database's guarded updates and claims, with the SQL they stand for
/// and whether they changed the row.
fn database_updates(r: &Record, ask: Ask) -> String {
    match r.what {
        What::Transition { by, update, cause } => {
            let moved = || {
                let legal = is_legal(Some(update.from), update.to, cause);
                format!("{} → {} ({})", update.from.name(), update.to.name(), cause_text(cause, legal))
            };
            ask.say(
                || format!("{} {}", names::row(update.row), moved()),
                &format!("rows {}", moved()),
                || {
                    format!(
                        "{} moves row {} {} -> {} ({}): {}",
                        actor(by.actor()),
                        names::row(update.row),
                        update.from.name(),
                        update.to.name(),
                        cause_text(cause, is_legal(Some(update.from), update.to, cause)),
                        stmt_clause(r)
                    )
                },
            )
        }
        What::WriteSkipped { by, update, cause } => ask.say(
            || format!("{}'s write: {} changed, 0 rows", by.actor().name(), names::row(update.row)),
            "writes skipped (0 rows)",
            || {
                format!(
                    "{}'s write ({}) finds row {} changed since it read it: nothing happens. {}",
                    actor(by.actor()),
                    cause.name(),
                    names::row(update.row),
                    stmt_clause(r)
                )
            },
        ),
        What::Claim { by, claim, version, won, from } => {
            let row = names::row(claim.row());
            ask.say(
                || format!("claim {row} at version {version}: {}", if won { "won" } else { "lost" }),
                if won { "claims won" } else { "claims lost" },
                || {
                    let how = match claim {
                        Claim::Cas { .. } => "compare-and-set",
                        Claim::Blind { .. } => "read-then-write",
                    };
                    match (won, from) {
                        (true, Some(from)) => format!(
                            "Worker {} claims row {row} ({how}, read at version {version}) and wins: {} -> PENDING ({}). {}",
                            by.name(),
                            from.name(),
                            cause_text(
                                Cause::ClaimWon,
                                is_legal(Some(from), Status::Pending, Cause::ClaimWon)
                            ),
                            stmt_clause(r)
                        ),
                        _ => format!(
                            "Worker {}'s claim of row {row} ({how}, read at version {version}) loses: another claim got there first. {}",
                            by.name(),
                            stmt_clause(r)
                        ),
                    }
                },
            )
        }
        _ => unreachable!("say() sends only the database's updates here"),
    }
}

/// A Risk API call as its caller (a replica or a worker) sees it: sent,
/// answered, timed out, answered too late or after a crash.
fn caller(r: &Record, ask: Ask) -> String {
    let who = || actor(r.actor);
    match r.what {
        What::CreateSent { row, request_key, credential, .. } => {
            let op = format!("{}({})", call(DsKind::Create).operation, names::request_key(request_key));
            ask.say(
                || op.clone(),
                "creates",
                || {
                    let passed = match credential {
                        Credential::Service => "",
                        Credential::Caller => ", passing the caller's token on",
                    };
                    format!("{} calls the Risk API: {op} for row {}{passed}.", who(), names::row(row))
                },
            )
        }
        What::DownstreamReply { kind, answer: a, sent_at, request_key, .. } => match ask {
            Ask::Outcome => answer(a).report.to_owned(),
            _ => ask.say(
                || format!("{}: {} after {}", call(kind).short, answer(a).short, r.t.since(sent_at)),
                &format!("answers: {}", answer(a).word),
                || {
                    format!(
                        "{} hears from the Risk API after {} ({}({})): {}.",
                        who(),
                        r.t.since(sent_at),
                        call(kind).operation,
                        names::request_key(request_key),
                        answer(a).phrase
                    )
                },
            ),
        },
        What::DownstreamTimeout { kind, sent_at, request_key, row, .. } => match ask {
            Ask::Outcome => "timed_out".to_owned(),
            _ => ask.say(
                || format!("{} times out after {}", call(kind).short, r.t.since(sent_at)),
                "timeouts",
                || {
                    format!(
                        "{} gives up on {}({}) for row {} after {}: timeout.",
                        who(),
                        call(kind).operation,
                        names::request_key(request_key),
                        names::row(row),
                        r.t.since(sent_at)
                    )
                },
            ),
        },
        What::LateReply { .. } | What::ReplyUnheard { .. } => unheard(r, ask),
        _ => unreachable!("say() sends only a Risk API call's caller's facts here"),
    }
}

/// An answer its caller no longer hears: past the timeout, or after a crash.
fn unheard(r: &Record, ask: Ask) -> String {
    match r.what {
        What::LateReply { kind, answer: a, sent_at, request_key, .. } => match ask {
            Ask::Outcome => format!("late_{}", answer(a).report),
            _ => ask.say(
                || format!("late {}: {} (ignored)", call(kind).short, answer(a).short),
                "late answers",
                || {
                    format!(
                        "The Risk API's answer to {}({}) ({}) reaches {} {} after it was sent, past the timeout: ignored.",
                        call(kind).operation,
                        names::request_key(request_key),
                        answer(a).phrase,
                        actor_object(r.actor),
                        r.t.since(sent_at)
                    )
                },
            ),
        },
        What::ReplyUnheard { kind, answer: a, request_key, .. } => match ask {
            Ask::Outcome => format!("unheard_{}", answer(a).report),
            _ => ask.say(
                || format!("{}: {} unheard (crashed)", call(kind).short, answer(a).short),
                "answers unheard",
                || {
                    format!(
                        "The Risk API's answer to {}({}) ({}) reaches {}, which crashed: nobody hears it.",
                        call(kind).operation,
                        names::request_key(request_key),
                        answer(a).phrase,
                        actor_object(r.actor)
                    )
                },
            ),
        },
        _ => unreachable!("caller() sends only unheard answers here"),
    }
}

/// A worker's own acts: probing the Risk API, and crashing.
fn worker(r: &Record, ask: Ask) -> String {
    match r.what {
        What::ProbeSent { row, request_key, .. } => {
            let op = format!("{}({})", call(DsKind::Find).operation, names::request_key(request_key));
            ask.say(
                || op.clone(),
                "probes",
                || format!("{} probes the Risk API: {op} for row {}.", actor(r.actor), names::row(row)),
            )
        }
        What::WorkerCrashed { worker } => ask.say(
            || format!("{} crashes", worker.name()),
            "crashes",
            || {
                format!(
                    "Worker {} crashes right after sending its create: its claimed row stays PENDING until the claim lease ends.",
                    worker.name()
                )
            },
        ),
        _ => unreachable!("say() sends only a worker's own facts here"),
    }
}

/// What the Risk API does with a call: creates or returns a review, or a
/// fault loses the call, its answer, or hangs it.
fn risk_api(r: &Record, seen: Seen, ask: Ask) -> String {
    match r.what {
        What::RequestLost { request_key, .. } => match ask {
            Ask::Outcome => "request_lost".to_owned(),
            _ => ask.say(
                || format!("create {} lost on the way", names::request_key(request_key)),
                "creates lost on the way",
                || {
                    format!(
                        "The create for {} is lost on the way: it never reaches the Risk API.",
                        names::request_key(request_key)
                    )
                },
            ),
        },
        What::FindHangs { request_key, .. } => match ask {
            Ask::Outcome => "hung".to_owned(),
            _ => ask.say(
                || format!("{}({}) hangs", call(DsKind::Find).short, names::request_key(request_key)),
                "probes hang",
                || {
                    format!(
                        "The Risk API's {}({}) hangs: no answer will come.",
                        call(DsKind::Find).operation,
                        names::request_key(request_key)
                    )
                },
            ),
        },
        What::ReviewCreated { review, request_key, order, .. } => ask.say(
            || format!("review {} ({})", names::review(review), names::request_key(request_key)),
            "reviews created",
            || {
                format!(
                    "The Risk API creates review {} for {} (order {}).",
                    names::review(review),
                    names::request_key(request_key),
                    names::order(order)
                )
            },
        ),
        What::ReviewReplayed { review, request_key, .. } => ask.say(
            || format!("{} returned again (idempotent)", names::review(review)),
            "reviews returned again",
            || {
                format!(
                    "The Risk API already has review {} for {} and returns it: no new review (idempotent create).",
                    names::review(review),
                    names::request_key(request_key)
                )
            },
        ),
        What::ResponseLost { answer: a, request_key, .. } => match ask {
            Ask::Outcome => "response_lost".to_owned(),
            _ => ask.say(
                || format!("response to {} lost", seen.issuer.map_or("", Actor::name)),
                "responses lost",
                || {
                    format!(
                        "The Risk API's answer to the create for {} ({}) is lost on the way back: its caller never hears it.",
                        names::request_key(request_key),
                        answer(a).phrase
                    )
                },
            ),
        },
        _ => unreachable!("say() sends only the Risk API's facts here"),
    }
}
