//! The run as JSON: one schema for the command line's `--format json` and
//! the page's export. Every field of RISK-MODEL.md's "Observable", with the
//! wall clock on every timed entry and the SQL, with its rows, in the text
//! of every database event.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::sim::Millis;
use crate::sim::risk::facts::{Actor, Answer, BusinessKey, DownstreamId, Issuer, Record, ReplicaId, Reply, What};
use crate::sim::risk::settings::Pattern;
use crate::sim::risk::{Check, Run, Settings, Value};

use super::names;
use super::sentences::sentence;

#[derive(Serialize)]
struct SummaryJson {
    tool_calls: u32,
    reviews: u32,
    rows: u32,
    creates: u32,
    finds: u32,
    claims_won: u32,
    claims_lost: u32,
    overloaded: u32,
}

#[derive(Serialize)]
struct ReviewJson {
    t_ms: u64,
    clock: String,
    review_ref: String,
    request_key: String,
    business_key: String,
    order_id: String,
}

#[derive(Serialize)]
struct RowJson {
    id: String,
    request_key: String,
    business_key: String,
    order_id: String,
    requester_id: String,
    status: &'static str,
    downstream_ref: Option<String>,
    retry_count: u32,
    /// Model milliseconds, as the SQL writes it.
    next_retry_at: Option<u64>,
    version: u32,
}

#[derive(Serialize)]
struct ToolCallJson {
    t_ms: u64,
    clock: String,
    call: u32,
    tool: &'static str,
    replica: &'static str,
    request_key: Option<String>,
    order_id: Option<String>,
    review_id: Option<String>,
    intent: u32,
    attempt: u32,
    subject: Option<String>,
}

#[derive(Serialize)]
struct ToolResultJson {
    t_ms: u64,
    clock: String,
    call: u32,
    tool: &'static str,
    replica: &'static str,
    is_error: bool,
    code: Option<&'static str>,
    review_id: Option<String>,
    status: Option<&'static str>,
    /// When the agent heard it, if it has.
    received_ms: Option<u64>,
}

#[derive(Serialize)]
struct RpcErrorJson {
    t_ms: u64,
    clock: String,
    call: u32,
    replica: &'static str,
    code: i32,
    message: &'static str,
}

#[derive(Serialize)]
struct TransitionJson {
    t_ms: u64,
    clock: String,
    row: String,
    from: Option<&'static str>,
    to: &'static str,
    cause: &'static str,
    actor: &'static str,
    legal: bool,
}

#[derive(Serialize)]
struct DownstreamJson {
    t_ms: u64,
    clock: String,
    kind: &'static str,
    caller: &'static str,
    request_key: String,
    row: String,
    outcome: String,
    /// When the caller heard the answer, if it did in time.
    answered_ms: Option<u64>,
}

#[derive(Serialize)]
struct ClaimJson {
    t_ms: u64,
    clock: String,
    worker: &'static str,
    row: String,
    version: u32,
    won: bool,
}

#[derive(Serialize, Default)]
struct GateJson {
    concurrency_cap: u32,
    queue_capacity: u32,
    gates_on: bool,
    max_queue: u32,
    max_in_flight: u32,
    overloaded: u32,
}

#[derive(Serialize)]
struct CheckJson {
    name: &'static str,
    holds: Option<bool>,
    figures: Map<String, Json>,
}

#[derive(Serialize)]
struct EventJson {
    t_ms: u64,
    clock: String,
    actor: &'static str,
    kind: &'static str,
    text: String,
}

#[derive(Serialize)]
struct RunJson<'a> {
    lab: &'static str,
    settings: &'a Settings,
    switches: Map<String, Json>,
    clock_origin: String,
    horizon_ms: u64,
    end_ms: u64,
    summary: SummaryJson,
    reviews: Vec<ReviewJson>,
    rows: Vec<RowJson>,
    tool_calls: Vec<ToolCallJson>,
    tool_results: Vec<ToolResultJson>,
    jsonrpc_errors: Vec<RpcErrorJson>,
    transitions: Vec<TransitionJson>,
    downstream_calls: Vec<DownstreamJson>,
    claims: Vec<ClaimJson>,
    gates: Map<String, Json>,
    checks: Vec<CheckJson>,
    events: Vec<EventJson>,
}

fn answer_name(answer: Answer) -> &'static str {
    match answer {
        Answer::Created(_) => "created",
        Answer::Existing(_) => "existing",
        Answer::Rejected => "rejected",
        Answer::Unavailable => "unavailable_503",
        Answer::ServerError => "server_error_500",
        Answer::Reset => "reset",
        Answer::Found(_) => "found",
        Answer::NotFound => "not_found",
    }
}

fn figure_json(value: Value) -> Json {
    match value {
        Value::Count(n) | Value::Ms(n) => Json::from(n),
        Value::Row(r) => Json::from(names::row(r)),
        Value::Order(o) => Json::from(names::order(o)),
        Value::Key(k) => Json::from(names::request_key(k)),
        Value::Replica(r) => Json::from(r.name()),
    }
}

/// The checks as JSON: name, holds (or null), figures by name.
pub fn checks_json(checks: &[Check]) -> Json {
    serde_json::to_value(checks.iter().map(check_json).collect::<Vec<_>>()).expect("checks serialise")
}

fn check_json(check: &Check) -> CheckJson {
    let figures = check.figures.iter().map(|f| (f.name.to_owned(), figure_json(f.value))).collect();
    CheckJson { name: check.name.name(), holds: check.holds, figures }
}

/// Every Risk API call with what became of it. A fault says more than the
/// timeout that follows it, so a timeout does not overwrite it.
fn downstream_calls(records: &[Record]) -> Vec<DownstreamJson> {
    fn set(calls: &mut [DownstreamJson], ds: DownstreamId, outcome: String, answered: Option<Millis>, sticky: bool) {
        if let Some(c) = (ds.0 as usize).checked_sub(1).and_then(|i| calls.get_mut(i)) {
            if sticky && c.outcome != "pending" {
                return;
            }
            c.outcome = outcome;
            c.answered_ms = answered.map(Millis::ms).or(c.answered_ms);
        }
    }
    let mut calls: Vec<DownstreamJson> = Vec::new();
    for r in records {
        let fresh = |kind: &'static str, request_key, row| DownstreamJson {
            t_ms: r.t.ms(),
            clock: names::clock(r.t),
            kind,
            caller: r.actor.name(),
            request_key: names::request_key(request_key),
            row: names::row(row),
            outcome: "pending".to_owned(),
            answered_ms: None,
        };
        match r.what {
            What::CreateSent { row, request_key, .. } => calls.push(fresh("create", request_key, row)),
            What::ProbeSent { row, request_key, .. } => calls.push(fresh("find", request_key, row)),
            What::RequestLost { ds, .. } => set(&mut calls, ds, "request_lost".to_owned(), None, false),
            What::FindHangs { ds, .. } => set(&mut calls, ds, "hung".to_owned(), None, false),
            What::ResponseLost { ds, .. } => set(&mut calls, ds, "response_lost".to_owned(), None, false),
            What::DownstreamReply { ds, answer, .. } => {
                set(&mut calls, ds, answer_name(answer).to_owned(), Some(r.t), false);
            }
            What::DownstreamTimeout { ds, .. } => set(&mut calls, ds, "timed_out".to_owned(), None, true),
            What::LateReply { ds, answer, .. } => {
                set(&mut calls, ds, format!("late_{}", answer_name(answer)), None, false);
            }
            What::ReplyUnheard { ds, answer, .. } => {
                set(&mut calls, ds, format!("unheard_{}", answer_name(answer)), None, false);
            }
            _ => {}
        }
    }
    calls
}

fn gates(run: &Run) -> Map<String, Json> {
    let config = run.settings().replica.gates;
    let mut gates: [GateJson; 2] = Default::default();
    for g in &mut gates {
        g.concurrency_cap = config.cap;
        g.queue_capacity = config.queue;
        g.gates_on = config.on;
    }
    for r in run.records() {
        let Actor::Replica(replica) = r.actor else { continue };
        let g = &mut gates[replica.index()];
        match r.what {
            What::CallAdmitted { in_flight, queued, .. }
            | What::CallQueued { in_flight, queued, .. }
            | What::CallStarted { in_flight, queued, .. } => {
                g.max_in_flight = g.max_in_flight.max(in_flight);
                g.max_queue = g.max_queue.max(queued);
            }
            What::Overloaded { .. } => g.overloaded += 1,
            _ => {}
        }
    }
    ReplicaId::ALL
        .iter()
        .zip(gates)
        .map(|(r, g)| (r.name().to_owned(), serde_json::to_value(g).expect("gates serialise")))
        .collect()
}

/// The whole run as one pretty-printed JSON document.
pub fn run_to_json(run: &Run) -> String {
    let s = run.summary();
    let records = run.records();
    let clocked = |t: Millis| (t.ms(), names::clock(t));
    let received: std::collections::BTreeMap<u32, u64> = records
        .iter()
        .filter_map(|r| match r.what {
            What::ResultReceived { call, .. } => Some((call.0, r.t.ms())),
            _ => None,
        })
        .collect();
    let mut tool_calls = Vec::new();
    let mut tool_results = Vec::new();
    let mut jsonrpc_errors = Vec::new();
    let mut transitions = Vec::new();
    let mut claims = Vec::new();
    for r in records {
        let (t_ms, clock) = clocked(r.t);
        match r.what {
            What::ToolCall { call, tool, intent, attempt, request_key, order, review, subject, replica, .. } => {
                tool_calls.push(ToolCallJson {
                    t_ms,
                    clock: clock.clone(),
                    call: call.0,
                    tool: tool.name(),
                    replica: replica.name(),
                    request_key: request_key.map(names::request_key),
                    order_id: order.map(names::order),
                    review_id: review.map(names::row),
                    intent: intent.0,
                    attempt,
                    subject: subject.map(names::user),
                });
            }
            What::ToolResult { call, tool, reply } => {
                let (code, status) = match reply {
                    Reply::Review { status, .. } => (None, Some(status.name())),
                    Reply::Error { code, .. } => (Some(code.name()), None),
                };
                tool_results.push(ToolResultJson {
                    t_ms,
                    clock: clock.clone(),
                    call: call.0,
                    tool: tool.name(),
                    replica: r.actor.name(),
                    is_error: reply.is_error(),
                    code,
                    review_id: reply.row().map(names::row),
                    status,
                    received_ms: received.get(&call.0).copied(),
                });
            }
            What::RpcError { call, error } => jsonrpc_errors.push(RpcErrorJson {
                t_ms,
                clock: clock.clone(),
                call: call.0,
                replica: r.actor.name(),
                code: error.code(),
                message: error.name(),
            }),
            What::Claim { by, claim, version, won, .. } => claims.push(ClaimJson {
                t_ms,
                clock: clock.clone(),
                worker: by.name(),
                row: names::row(claim.row()),
                version,
                won,
            }),
            _ => {}
        }
        if let Some(m) = r.row_move() {
            let actor = match m.by {
                Issuer::Replica(replica, _) => replica.name(),
                Issuer::Worker(worker) => worker.name(),
            };
            transitions.push(TransitionJson {
                t_ms,
                clock,
                row: names::row(m.row),
                from: m.from.map(|f| f.name()),
                to: m.to.name(),
                cause: m.cause.name(),
                actor,
                legal: m.legal,
            });
        }
    }
    let switches =
        Pattern::ALL.iter().map(|p| (p.name().to_owned(), Json::from(run.settings().switches.get(*p)))).collect();
    let doc = RunJson {
        lab: "risk",
        settings: run.settings(),
        switches,
        clock_origin: names::clock(Millis::ZERO),
        horizon_ms: run.horizon().ms(),
        end_ms: s.end.ms(),
        summary: SummaryJson {
            tool_calls: s.tool_calls,
            reviews: s.reviews,
            rows: s.rows,
            creates: s.creates,
            finds: s.finds,
            claims_won: s.claims_won,
            claims_lost: s.claims_lost,
            overloaded: s.overloaded,
        },
        reviews: run
            .reviews()
            .iter()
            .map(|v| ReviewJson {
                t_ms: v.at.ms(),
                clock: names::clock(v.at),
                review_ref: names::review(v.review),
                request_key: names::request_key(v.request_key),
                business_key: names::business_key(BusinessKey(v.order)),
                order_id: names::order(v.order),
            })
            .collect(),
        rows: run
            .rows()
            .iter()
            .map(|row| RowJson {
                id: names::row(row.id),
                request_key: names::request_key(row.request_key),
                business_key: names::business_key(row.business_key()),
                order_id: names::order(row.order),
                requester_id: names::user(row.requester),
                status: row.status.name(),
                downstream_ref: row.downstream_ref.map(names::review),
                retry_count: row.retry_count,
                next_retry_at: row.next_retry_at.map(Millis::ms),
                version: row.version,
            })
            .collect(),
        tool_calls,
        tool_results,
        jsonrpc_errors,
        transitions,
        downstream_calls: downstream_calls(records),
        claims,
        gates: gates(run),
        checks: run.checks().iter().map(check_json).collect(),
        events: records
            .iter()
            .map(|r| EventJson {
                t_ms: r.t.ms(),
                clock: names::clock(r.t),
                actor: r.actor.name(),
                kind: r.kind(),
                text: sentence(r),
            })
            .collect(),
    };
    // Serialising plain structs of strings, numbers and maps cannot fail.
    serde_json::to_string_pretty(&doc).expect("run JSON serialises")
}
