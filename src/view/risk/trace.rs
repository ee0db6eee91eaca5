//! Reconstructing a tool call from the run's records, as the incident
//! report's observability questions ask: who called and for whom, why
//! policy allowed or refused it, its keys and review_id, every transition
//! of its row (with the downstream latency behind each), the probes and
//! claims that touched the row, and where its 5.0 s deadline went.

use crate::sim::Millis;
use crate::sim::risk::facts::{
    Actor, CallId, CallShape, DownstreamId, ErrorCode, Heard, Issuer, OrderId, Read, Record, Reply, RequestKey, RowId,
    RpcError, Status, Tool, UserId, What,
};
use crate::sim::risk::{Run, Settings};

use super::kinds::{self, Seen};
use super::names;
use super::sentences::{actor_object, heard, sentence};

pub use crate::sim::risk::rules::DATABASE_BUDGET;

/// Keeps only characters that are safe to log (letters, digits and
/// `-_:.`), and at most 64 of them: a request_key comes from outside the
/// server, so it is never logged as it arrived.
pub fn sanitise(text: &str) -> String {
    text.chars()
        .take(64)
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.') { c } else { '?' })
        .collect()
}

/// A tool call as the menu of calls lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallEntry {
    pub call: CallId,
    pub made_at: Millis,
    pub label: String,
}

/// Every tool call of the run, in order.
pub fn calls(run: &Run) -> Vec<CallEntry> {
    run.records()
        .iter()
        .filter_map(|r| match r.what {
            What::ToolCall { call, .. } => {
                Some(CallEntry { call, made_at: r.t, label: kinds::trace_line(r, Seen::default()) })
            }
            _ => None,
        })
        .collect()
}

/// One move of the call's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceMove {
    pub t: Millis,
    pub row: RowId,
    pub from: Option<Status>,
    pub to: Status,
    pub cause: &'static str,
    /// Who made it, as a sentence names it mid-way: "replica A".
    pub by: String,
    pub legal: bool,
    /// How long the Risk API call behind this move took to answer or time
    /// out, if a Risk API call is behind it.
    pub downstream: Option<Millis>,
}

/// Everything the records say about one tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub call: CallId,
    pub made_at: Millis,
    pub tool: &'static str,
    pub replica: &'static str,
    /// "the agent, for u-1001 (from the trusted context)".
    pub who: String,
    /// Why policy allowed or refused the call.
    pub policy: String,
    pub request_key: Option<String>,
    pub business_key: Option<String>,
    pub review_id: Option<String>,
    /// What the call got back, and when the agent heard it.
    pub result: String,
    pub moves: Vec<TraceMove>,
    /// Probes, resends and claims that touched the row: (time, sentence).
    pub touches: Vec<(Millis, String)>,
}

struct Made {
    tool: Tool,
    request_key: Option<RequestKey>,
    order: Option<OrderId>,
    subject: Option<UserId>,
    shape: CallShape,
    replica: &'static str,
}

fn made(records: &[Record], call: CallId) -> Option<(Millis, Made)> {
    records.iter().find_map(|r| match r.what {
        What::ToolCall { call: c, tool, request_key, order, subject, shape, replica, .. } if c == call => {
            Some((r.t, Made { tool, request_key, order, subject, shape, replica: replica.name() }))
        }
        _ => None,
    })
}

fn served_by(by: Issuer, call: CallId) -> bool {
    matches!(by, Issuer::Replica(_, c) if c == call)
}

/// The row a call is about: the one it inserted, the one its insert ran
/// into, the one it polled, or the one its result names.
pub fn row_of(records: &[Record], call: CallId) -> Option<RowId> {
    let mut named = None;
    for r in records {
        match r.what {
            What::RowInserted { by, insert } if served_by(by, call) => return Some(insert.row),
            What::InsertConflict { by, existing, .. } if served_by(by, call) => return Some(existing),
            What::ToolCall { call: c, review: Some(row), .. } if c == call => return Some(row),
            What::ToolResult { call: c, reply, .. } if c == call => named = named.or(reply.row()),
            _ => {}
        }
    }
    named
}

fn policy_text(records: &[Record], call: CallId, m: &Made) -> String {
    let decided = records.iter().find(|r| matches!(r.what, What::Policy { call: c, .. } if c == call));
    if let Some(r) = decided {
        return kinds::trace_line(r, Seen { caller: m.subject, ..Seen::default() });
    }
    let read = records.iter().find_map(|r| match r.what {
        What::RowRead { by, read: Read::ById { requester, .. }, .. } if served_by(by, call) => Some(requester),
        _ => None,
    });
    if let Some(requester) = read {
        return match requester {
            Some(user) => {
                format!("a status poll: the server reads only rows whose requester_id is {}.", names::user(user))
            }
            None => "a status poll, not checked: authorization is off, so any row can be read.".to_owned(),
        };
    }
    let refused_first = records.iter().any(|r| matches!(r.what, What::Overloaded { call: c, .. } if c == call));
    if refused_first {
        return "never reached: its replica's queue was full, so the call was refused OVERLOADED before any check."
            .to_owned();
    }
    match m.shape {
        CallShape::Malformed | CallShape::UnknownTool => {
            "never reached: the protocol step answered with a JSON-RPC error.".to_owned()
        }
        CallShape::InvalidArgument => "never reached: validation refused the arguments.".to_owned(),
        CallShape::NoSubject => "never reached: no subject in the trusted context (UNAUTHENTICATED).".to_owned(),
        CallShape::WrongAudience => {
            "never reached: its token was issued for another audience, refused with a JSON-RPC error.".to_owned()
        }
        CallShape::ClaimedUser | CallShape::ExtraArgument | CallShape::LongReason
            if refused_by_schema(records, call) =>
        {
            "never reached: its arguments break the input schema, refused with INVALID_ARGUMENT.".to_owned()
        }
        CallShape::Valid | CallShape::ClaimedUser | CallShape::ExtraArgument | CallShape::LongReason => {
            "not reached yet.".to_owned()
        }
    }
}

/// Whether the call was answered INVALID_ARGUMENT, in either form.
fn refused_by_schema(records: &[Record], call: CallId) -> bool {
    records.iter().any(|r| match r.what {
        What::ToolResult { call: c, reply: Reply::Error { code: ErrorCode::InvalidArgument, .. }, .. }
        | What::RpcError { call: c, error: RpcError::Thrown(ErrorCode::InvalidArgument) } => c == call,
        _ => false,
    })
}

/// The downstream call behind a move of `row` by `by` at `t`: the latest
/// Risk API call for the row by the same issuer that was answered or timed
/// out by then, with how long it took.
fn downstream_latency(records: &[Record], row: RowId, by: Issuer, t: Millis) -> Option<Millis> {
    records.iter().rev().filter(|r| r.t <= t).find_map(|r| match r.what {
        What::DownstreamReply { row: x, sent_at, .. } | What::DownstreamTimeout { row: x, sent_at, .. }
            if x == row && r.actor == by.actor() =>
        {
            Some(r.t.since(sent_at))
        }
        _ => None,
    })
}

/// Whether a record is a worker's probe, claim or resend of `row` (or
/// what became of one); `workers` holds the Risk API calls workers made.
fn touches_row(r: &Record, row: RowId, workers: &[DownstreamId]) -> bool {
    match r.what {
        What::Claim { claim, .. } => claim.row() == row,
        What::ProbeSent { row: x, .. } | What::FindHangs { row: x, .. } => x == row,
        What::CreateSent { ds, row: x, .. }
        | What::RequestLost { ds, row: x, .. }
        | What::ResponseLost { ds, row: x, .. }
        | What::DownstreamReply { ds, row: x, .. }
        | What::DownstreamTimeout { ds, row: x, .. }
        | What::LateReply { ds, row: x, .. }
        | What::ReplyUnheard { ds, row: x, .. } => x == row && workers.contains(&ds),
        _ => false,
    }
}

/// The trace of `call` from the records up to `t` (the whole run for the
/// horizon).
pub fn trace(run: &Run, call: CallId, t: Millis) -> Option<Trace> {
    let records = run.records_until(t);
    let (made_at, m) = made(records, call)?;
    let who = match m.subject {
        Some(user) => format!("the agent, acting for {} (from the trusted context)", names::user(user)),
        None => "the agent, with no subject in the trusted context".to_owned(),
    };
    let row = row_of(records, call);
    // The key its insert carried (with the order's generation then), or the
    // first generation for a call that never got that far.
    let inserted = records.iter().find_map(|r| match r.what {
        What::RowInserted { by, insert } | What::InsertConflict { by, insert, .. } if served_by(by, call) => {
            Some(insert.business_key())
        }
        _ => None,
    });
    let business_key = inserted
        .or_else(|| m.order.map(|order| crate::sim::risk::facts::BusinessKey { order, generation: 1 }))
        .map(names::business_key);
    let answer = records.iter().find_map(|r| match r.what {
        What::ToolResult { call: c, reply, .. } if c == call => Some((r.t, Heard::Result(reply))),
        What::RpcError { call: c, error } if c == call => Some((r.t, Heard::Rpc(error))),
        _ => None,
    });
    let heard_at = records.iter().find_map(|r| match r.what {
        What::ResultReceived { call: c, .. } if c == call => Some(r.t),
        _ => None,
    });
    let result = match (answer, heard_at) {
        (Some((at, h)), Some(heard_at)) => format!(
            "{} at {}, heard by the agent at {}, {} after the call.",
            heard(h),
            names::clock(at),
            names::clock(heard_at),
            heard_at.since(made_at)
        ),
        (Some((at, h)), None) => format!("{} at {}, not heard by the agent (yet).", heard(h), names::clock(at)),
        (None, _) => "no answer yet.".to_owned(),
    };
    let moves = row
        .map(|row| {
            records
                .iter()
                .filter_map(|r| r.row_move().filter(|m| m.row == row).map(|m| (r.t, m)))
                .map(|(t, mv)| TraceMove {
                    t,
                    row,
                    from: mv.from,
                    to: mv.to,
                    cause: mv.cause.name(),
                    by: actor_object(mv.by.actor()),
                    legal: mv.is_legal(),
                    downstream: downstream_latency(records, row, mv.by, t),
                })
                .collect()
        })
        .unwrap_or_default();
    let workers: Vec<DownstreamId> = records
        .iter()
        .filter_map(|r| match (r.actor, r.what) {
            (Actor::Worker(_), What::CreateSent { ds, .. } | What::ProbeSent { ds, .. }) => Some(ds),
            _ => None,
        })
        .collect();
    let touches = row
        .map(|row| records.iter().filter(|r| touches_row(r, row, &workers)).map(|r| (r.t, sentence(r))).collect())
        .unwrap_or_default();
    Some(Trace {
        call,
        made_at,
        tool: m.tool.name(),
        replica: m.replica,
        who,
        policy: policy_text(records, call, &m),
        request_key: m.request_key.map(|k| sanitise(&names::request_key(k))),
        business_key,
        review_id: row.map(names::row),
        result,
        moves,
        touches,
    })
}

/// One part of the deadline's budget, or of a call's spend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: &'static str,
    pub ms: u64,
}

/// The client deadline split as the report budgets it: auth and policy,
/// the database, the Risk API's timeout, and what is left in reserve (for
/// the network, queues and anything unforeseen).
pub fn budget(settings: &Settings) -> Vec<Part> {
    let auth = settings.replica.auth_policy.ms();
    let database = DATABASE_BUDGET.ms();
    let api = settings.replica.downstream_timeout.ms();
    let reserve = settings.agent.deadline.ms().saturating_sub(auth + database + api);
    vec![
        Part { name: "auth/policy", ms: auth },
        Part { name: "database", ms: database },
        Part { name: "Risk API", ms: api },
        Part { name: "reserve", ms: reserve },
    ]
}

/// Where one call's time went, from its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spend {
    pub call: CallId,
    /// Network and queue first (both charged to the reserve), then the
    /// budget's own parts.
    pub parts: Vec<Part>,
    /// From the call to the agent hearing its answer, or to `t` if it has
    /// not yet.
    pub total: Millis,
    pub answered: bool,
    pub deadline: Millis,
}

impl Spend {
    pub fn within_deadline(&self) -> bool {
        self.total <= self.deadline
    }
}

/// How `call` spent its deadline, as of `t`.
pub fn spend(run: &Run, call: CallId, t: Millis) -> Option<Spend> {
    let records = run.records_until(t);
    let (made_at, _) = made(records, call)?;
    let mut arrived = None;
    let mut slot = None;
    let mut policy = None;
    let mut answered = None;
    let mut heard = None;
    let mut api = Millis::ZERO;
    let mut sent: Vec<DownstreamId> = Vec::new();
    for r in records {
        match r.what {
            What::CallAdmitted { call: c, .. } if c == call => {
                arrived.get_or_insert(r.t);
                slot.get_or_insert(r.t);
            }
            What::CallQueued { call: c, .. } | What::Overloaded { call: c, .. } if c == call => {
                arrived.get_or_insert(r.t);
            }
            What::CallStarted { call: c, .. } if c == call => {
                slot.get_or_insert(r.t);
            }
            What::Policy { call: c, .. } if c == call => policy = Some(r.t),
            What::ToolResult { call: c, .. } | What::RpcError { call: c, .. } if c == call => {
                answered.get_or_insert(r.t);
            }
            What::ResultReceived { call: c, .. } if c == call => heard = Some(r.t),
            What::CreateSent { ds, by, .. } if served_by(by, call) => sent.push(ds),
            // The Risk API's answer, or the replica's timeout, for a create
            // this call made.
            What::DownstreamReply { ds, sent_at, .. } | What::DownstreamTimeout { ds, sent_at, .. }
                if sent.contains(&ds) =>
            {
                api = api + r.t.since(sent_at);
            }
            _ => {}
        }
    }
    let now = heard.unwrap_or(t);
    let arrived = arrived.unwrap_or(now);
    let slot = slot.unwrap_or(answered.unwrap_or(arrived));
    let left = answered.unwrap_or(now).max(slot);
    let checks_until = policy.unwrap_or(left).min(left);
    let auth = checks_until.since(slot);
    let at_replica = left.since(slot);
    let database = at_replica.since(auth).since(api);
    let network = arrived.since(made_at) + heard.map_or(Millis::ZERO, |h| h.since(left));
    let parts = vec![
        Part { name: "network", ms: network.ms() },
        Part { name: "queue", ms: slot.since(arrived).ms() },
        Part { name: "auth/policy", ms: auth.ms() },
        Part { name: "database", ms: database.ms() },
        Part { name: "Risk API", ms: api.ms() },
    ];
    Some(Spend {
        call,
        parts,
        total: now.since(made_at),
        answered: heard.is_some(),
        deadline: run.settings().agent.deadline,
    })
}

/// The call a page opens its reconstruction on: the first request that
/// did not end well (an error, or a row that ended FAILED), else the first
/// call.
pub fn interesting_call(run: &Run) -> Option<CallId> {
    let records = run.records();
    let bad = records.iter().find_map(|r| match r.what {
        What::ToolResult { call, reply, tool: Tool::RequestRiskReview } if reply.is_error() => Some(call),
        What::ToolResult { call, reply: crate::sim::risk::Reply::Review { status: Status::Failed, .. }, .. } => {
            Some(call)
        }
        _ => None,
    });
    bad.or_else(|| calls(run).first().map(|c| c.call))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset};

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    #[test]
    fn sanitising_keeps_safe_characters_only() {
        assert_eq!(sanitise("rk-0001"), "rk-0001");
        assert_eq!(sanitise("a b<script>"), "a?b?script?");
        assert_eq!(sanitise(&"x".repeat(100)).len(), 64);
    }

    #[test]
    fn the_naive_incident_call_is_reconstructed_from_its_records() {
        let r = run(Preset::Incident, Mode::Naive);
        let t = trace(&r, CallId(1), r.horizon()).unwrap();
        assert_eq!(t.who, "the agent, acting for u-1001 (from the trusted context)");
        assert!(t.policy.starts_with("not checked: authorization is off"), "{}", t.policy);
        assert_eq!(t.request_key.as_deref(), Some("rk-0001"));
        assert_eq!(t.business_key.as_deref(), Some("O20260728001:risk:1"));
        assert_eq!(t.review_id.as_deref(), Some("R10086"));
        assert!(t.result.starts_with("error SUBMISSION_FAILED"), "{}", t.result);
        let moves: Vec<(Option<Status>, Status, bool)> = t.moves.iter().map(|m| (m.from, m.to, m.legal)).collect();
        assert_eq!(moves, [(None, Status::Pending, true), (Some(Status::Pending), Status::Failed, false)]);
        // The FAILED came from the create's timeout: the 2.5 s budget.
        assert_eq!(t.moves[1].downstream, Some(r.settings().replica.downstream_timeout));
        assert_eq!(t.moves[0].downstream, None);
        assert!(t.touches.is_empty(), "nobody probes in the naive run");
    }

    #[test]
    fn probes_and_claims_that_touched_the_row_are_listed() {
        let r = run(Preset::NotFoundResend, Mode::Patterns);
        let t = trace(&r, CallId(1), r.horizon()).unwrap();
        assert!(t.policy.starts_with("allowed: u-1001"), "{}", t.policy);
        let texts: Vec<&str> = t.touches.iter().map(|(_, s)| s.as_str()).collect();
        assert!(texts.iter().any(|s| s.contains("probes the Risk API")), "{texts:?}");
        assert!(texts.iter().filter(|s| s.contains("claim")).count() >= 2, "{texts:?}");
        assert!(t.moves.iter().any(|m| m.cause == "claim_won"));
        // The probe's answer moved the row: its latency is the find's.
        let not_found = t.moves.iter().find(|m| m.cause == "find_not_found").unwrap();
        assert_eq!(not_found.downstream, Some(r.settings().risk_api.find));
    }

    #[test]
    fn a_forged_call_is_refused_by_policy() {
        let r = run(Preset::ForgedOrder, Mode::Patterns);
        let t = trace(&r, CallId(1), r.horizon()).unwrap();
        assert!(t.policy.contains("O20260728999 belongs to u-2002, not to u-1001"), "{}", t.policy);
        assert_eq!(t.review_id, None);
        assert!(t.moves.is_empty());
    }

    #[test]
    fn the_budget_is_the_reports_split_of_the_deadline() {
        let s = Settings::default();
        let parts: Vec<(&str, u64)> = budget(&s).iter().map(|p| (p.name, p.ms)).collect();
        // 5.0 s = 0.1 + 0.3 + 2.5 + 2.1.
        assert_eq!(parts, [("auth/policy", 100), ("database", 300), ("Risk API", 2500), ("reserve", 2100)]);
    }

    #[test]
    fn a_calls_spend_adds_up_to_its_time() {
        for preset in Preset::ALL {
            for mode in [Mode::Naive, Mode::Patterns] {
                let r = run(preset, mode);
                for c in calls(&r).iter().take(40) {
                    let s = spend(&r, c.call, r.horizon()).unwrap();
                    let sum: u64 = s.parts.iter().map(|p| p.ms).sum();
                    if s.answered {
                        assert_eq!(sum, s.total.ms(), "{preset:?} {mode:?} call {}: {:?}", c.call.0, s.parts);
                    }
                }
            }
        }
        // The naive incident's first call: 20 ms out, 100 ms of checks, the
        // 2.5 s timeout, 2 ms of statements and 20 ms back.
        let r = run(Preset::Incident, Mode::Naive);
        let s = spend(&r, CallId(1), r.horizon()).unwrap();
        let parts: Vec<(&str, u64)> = s.parts.iter().map(|p| (p.name, p.ms)).collect();
        assert_eq!(parts, [("network", 40), ("queue", 0), ("auth/policy", 100), ("database", 2), ("Risk API", 2500)]);
        assert!(s.within_deadline());
    }

    #[test]
    fn the_reconstruction_opens_on_the_call_that_went_wrong() {
        assert_eq!(interesting_call(&run(Preset::Incident, Mode::Naive)), Some(CallId(1)));
        assert_eq!(interesting_call(&run(Preset::ForgedOrder, Mode::Patterns)), Some(CallId(1)));
        assert_eq!(interesting_call(&run(Preset::Incident, Mode::Patterns)), Some(CallId(1)));
    }
}
