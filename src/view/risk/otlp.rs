//! The risk lab's run as an OpenTelemetry trace, as its services would
//! emit it if they were instrumented: the agent (a CLIENT span per MCP tool
//! call, each its own trace, with `mcp.method.name`, `gen_ai.tool.name`,
//! `jsonrpc.request.id`, the arguments and `error.type = tool_error` for an
//! error result), each replica (the SERVER span of the call; its database
//! statements and Risk API calls as CLIENT spans under it), the database
//! (the SERVER span of each statement, with `db.operation.name`,
//! `db.query.text` and the rows it touched), the Risk API (the SERVER span
//! of each create or find; a create that made a review carries
//! `idempotency.effect`) and the workers (a `reconcile` span per scan that
//! found work, the statements and calls it made under it).
//!
//! Model time 0 is the report's 10:31:08.120, on 2026-07-28 (the day the
//! report's order numbers name): [`EPOCH_NS`]. Every record's mapping is in
//! this one file, so a change of the records shows here.

use std::collections::HashMap;

use crate::sim::Millis;
use crate::sim::json::Json;
use crate::sim::risk::facts::{Answer, CallId, DownstreamId, DsKind, Heard, Issuer, Reply, WorkerId};
use crate::sim::risk::{Record, Run, What};
use crate::sim::trace::span::{Kind, SpanId, TraceId};
use crate::sim::trace::write::to_otlp_json;
use crate::view::otlp::{Attr, Exporter, SpanSpec, header, int, seed_of, text};

use super::{kinds, names};

/// Model time 0 of the risk lab: 2026-07-28T10:31:08.120Z.
pub const EPOCH_NS: u64 = 1_785_234_668_120_000_000;

pub const AGENT: &str = "agent";
pub const DATABASE: &str = "database";
pub const RISK_API: &str = "risk-api";

fn replica_service(name: &str) -> String {
    format!("replica-{name}")
}

fn worker_service(w: WorkerId) -> String {
    format!("worker-{}", w.name())
}

/// When things end, found before any span is written.
#[derive(Default)]
struct Ends {
    /// A call's answer reaching the agent (or its deadline), and what it heard.
    heard: HashMap<CallId, Millis>,
    answer: HashMap<CallId, (Millis, Heard)>,
    /// A Risk API call's end for its caller, and its answer.
    caller: HashMap<DownstreamId, (Millis, Option<Answer>)>,
    /// When the Risk API was done with it, and whether it made a review.
    api: HashMap<DownstreamId, (Millis, Option<Answer>, bool)>,
    lost: Vec<DownstreamId>,
    /// Each worker's reconcile spans' ends, in order.
    rounds: HashMap<WorkerId, Vec<Millis>>,
    /// Each call's tool and the replica it was routed to.
    tools: HashMap<CallId, &'static str>,
    routes: HashMap<CallId, crate::sim::risk::facts::ReplicaId>,
}

/// The worker whose work a record is, if any.
fn worker_of(r: &Record) -> Option<WorkerId> {
    match r.what {
        What::Scanned { by, .. } | What::Claim { by, .. } | What::RetryCounted { by, .. } => Some(by),
        What::RowInserted { by: Issuer::Worker(w), .. }
        | What::InsertConflict { by: Issuer::Worker(w), .. }
        | What::RowRead { by: Issuer::Worker(w), .. }
        | What::Transition { by: Issuer::Worker(w), .. }
        | What::WriteSkipped { by: Issuer::Worker(w), .. }
        | What::CreateSent { by: Issuer::Worker(w), .. } => Some(w),
        What::ProbeSent { .. } => match r.actor {
            crate::sim::risk::Actor::Worker(w) => Some(w),
            _ => None,
        },
        _ => None,
    }
}

fn ends(run: &Run) -> Ends {
    let mut e = Ends::default();
    let mut last: HashMap<WorkerId, Millis> = HashMap::new();
    for r in run.records() {
        match r.what {
            What::ToolCall { call, tool, .. } => {
                e.tools.insert(call, tool.name());
            }
            What::Routed { call, replica, .. } => {
                e.routes.entry(call).or_insert(replica);
            }
            What::ResultReceived { call, .. } | What::DeadlinePassed { call, .. } => {
                e.heard.entry(call).or_insert(r.t);
            }
            What::ToolResult { call, reply, .. } => {
                e.answer.entry(call).or_insert((r.t, Heard::Result(reply)));
            }
            What::RpcError { call, error } => {
                e.answer.entry(call).or_insert((r.t, Heard::Rpc(error)));
            }
            What::DownstreamReply { ds, answer, .. } | What::ReplyUnheard { ds, answer, .. } => {
                e.caller.entry(ds).or_insert((r.t, Some(answer)));
                e.api.entry(ds).or_insert((r.t, Some(answer), false));
            }
            What::DownstreamTimeout { ds, .. } => {
                e.caller.entry(ds).or_insert((r.t, None));
            }
            What::LateReply { ds, answer, .. } => {
                e.api.entry(ds).or_insert((r.t, Some(answer), false));
            }
            What::ReviewCreated { ds, review, .. } => {
                e.api.insert(ds, (r.t, Some(Answer::Created(review)), true));
            }
            What::ReviewReplayed { ds, review, .. } => {
                e.api.entry(ds).or_insert((r.t, Some(Answer::Existing(review)), false));
            }
            What::ResponseLost { ds, answer, .. } => {
                e.api.entry(ds).or_insert((r.t, Some(answer), false));
            }
            What::RequestLost { ds, .. } => e.lost.push(ds),
            _ => {}
        }
        if let Some(w) = worker_of(r) {
            if matches!(r.what, What::Scanned { .. })
                && let Some(t) = last.insert(w, r.t)
            {
                e.rounds.entry(w).or_default().push(t);
            }
            last.insert(w, r.t);
        }
    }
    for (w, t) in last {
        e.rounds.entry(w).or_default().push(t);
    }
    e
}

struct Out<'r> {
    x: Exporter,
    run: &'r Run,
    ends: Ends,
    /// Each call's trace, its agent span and its replica span.
    calls: HashMap<CallId, (TraceId, SpanId)>,
    servers: HashMap<CallId, SpanId>,
    /// Each worker's current reconcile span and trace, and how many it has had.
    rounds: HashMap<WorkerId, (TraceId, SpanId, usize)>,
    /// Each Risk API call's trace and caller span.
    downstream: HashMap<DownstreamId, (TraceId, SpanId)>,
}

impl Out<'_> {
    #[allow(clippy::too_many_arguments)]
    fn span(
        &mut self,
        service: &str,
        (trace, parent): (TraceId, Option<SpanId>),
        name: &str,
        kind: Kind,
        (start, end): (Millis, Millis),
        attributes: Vec<Attr>,
        error: Option<String>,
    ) -> SpanId {
        self.x.span(SpanSpec { service, trace, parent, name: name.to_owned(), kind, start, end, attributes, error })
    }

    /// Where a statement or call by `by` goes: its trace and parent span,
    /// and its service.
    fn context(&mut self, by: Issuer) -> ((TraceId, Option<SpanId>), String) {
        match by {
            Issuer::Replica(replica, call) => {
                let trace = self.calls.get(&call).map_or_else(|| self.x.new_trace(), |c| c.0);
                ((trace, self.servers.get(&call).copied()), replica_service(replica.name()))
            }
            Issuer::Worker(w) => match self.rounds.get(&w) {
                Some(&(trace, span, _)) => ((trace, Some(span)), worker_service(w)),
                None => ((self.x.new_trace(), None), worker_service(w)),
            },
        }
    }
}

/// The run as an OTLP/JSON document.
pub fn run_to_otlp(run: &Run) -> String {
    to_otlp_json(&trace_of(run))
}

/// The run as a trace.
pub fn trace_of(run: &Run) -> crate::sim::trace::Trace {
    let query: String =
        crate::view::url::settings_params(run.settings()).iter().map(|(k, v)| format!("{k}={v}&")).collect();
    let mut out = Out {
        x: Exporter::new(EPOCH_NS, seed_of(&query)),
        run,
        ends: ends(run),
        calls: HashMap::new(),
        servers: HashMap::new(),
        rounds: HashMap::new(),
        downstream: HashMap::new(),
    };
    for r in run.records() {
        if let Some(w) = worker_of(r)
            && matches!(r.what, What::Scanned { .. })
        {
            reconcile(&mut out, w, r.t);
        }
        match r.what {
            What::ToolCall { .. } => tool_call(&mut out, r),
            What::CallAdmitted { call, .. }
            | What::CallQueued { call, .. }
            | What::Overloaded { call, .. }
            | What::ToolResult { call, .. }
            | What::RpcError { call, .. } => replica_span(&mut out, r, call),
            What::CreateSent { ds, by, request_key, .. } => {
                downstream(&mut out, r.t, ds, by, DsKind::Create, &names::request_key(request_key));
            }
            What::ProbeSent { ds, request_key, .. } => {
                if let Some(w) = worker_of(r) {
                    downstream(&mut out, r.t, ds, Issuer::Worker(w), DsKind::Find, &names::request_key(request_key));
                }
            }
            _ => {}
        }
        statement(&mut out, r);
    }
    out.x.finish()
}

/// A new reconcile span for worker `w`, from its scan at `t`.
fn reconcile(out: &mut Out, w: WorkerId, t: Millis) {
    let n = out.rounds.get(&w).map_or(0, |r| r.2 + 1);
    let end = out.ends.rounds.get(&w).and_then(|ends| ends.get(n)).copied().unwrap_or(t);
    let trace = out.x.new_trace();
    let span = out.span(&worker_service(w), (trace, None), "reconcile", Kind::Internal, (t, end), vec![], None);
    out.rounds.insert(w, (trace, span, n));
}

/// The agent's span of a tool call.
fn tool_call(out: &mut Out, r: &Record) {
    let What::ToolCall { call, tool, request_key, order, review, .. } = r.what else { return };
    let mut args = Vec::new();
    if let Some(o) = order {
        args.push(("order_id", Json::str(names::order(o))));
    }
    if tool == crate::sim::risk::facts::Tool::RequestRiskReview {
        args.push(("reason", Json::str("chargeback risk")));
    }
    if let Some(k) = request_key {
        args.push(("request_key", Json::str(names::request_key(k))));
    }
    if let Some(row) = review {
        args.push(("review_id", Json::str(names::row(row))));
    }
    let mut attrs = vec![
        text("mcp.method.name", "tools/call"),
        text("gen_ai.operation.name", "execute_tool"),
        text("gen_ai.tool.name", tool.name()),
        text("jsonrpc.request.id", call.0.to_string()),
        text("gen_ai.tool.call.arguments", Json::obj(args).pretty().replace('\n', "").replace("  ", "")),
    ];
    let end = out.ends.heard.get(&call).copied().unwrap_or(out.run.horizon());
    let error = match out.ends.answer.get(&call) {
        Some(&(t, heard)) if t <= end => match heard {
            Heard::Result(Reply::Error { code, .. }) => Some(("tool_error".to_owned(), code.name().to_owned())),
            Heard::Result(Reply::Review { .. }) => None,
            Heard::Rpc(e) => Some((e.code().to_string(), e.name().to_owned())),
        },
        _ => Some(("timeout".to_owned(), "no answer within the client deadline".to_owned())),
    };
    if let Some((kind, _)) = &error {
        attrs.push(text("error.type", kind.clone()));
    }
    let trace = out.x.new_trace();
    let name = format!("tools/call {}", tool.name());
    let span = out.span(AGENT, (trace, None), &name, Kind::Client, (r.t, end), attrs, error.map(|e| e.1));
    out.calls.insert(call, (trace, span));
}

/// The replica's span of a call, from when the call reaches it to its answer.
fn replica_span(out: &mut Out, r: &Record, call: CallId) {
    if out.servers.contains_key(&call) {
        return;
    }
    let crate::sim::risk::Actor::Replica(replica) = r.actor else { return };
    let Some(&(trace, parent)) = out.calls.get(&call) else { return };
    let (end, heard) = match out.ends.answer.get(&call) {
        Some(&(t, heard)) => (t, Some(heard)),
        None => (out.run.horizon(), None),
    };
    let tool = out.ends.tools.get(&call).copied();
    let mut attrs = vec![
        text("mcp.method.name", "tools/call"),
        text("gen_ai.tool.name", tool.unwrap_or("")),
        text("jsonrpc.request.id", call.0.to_string()),
    ];
    let error = match heard {
        Some(Heard::Result(Reply::Error { code, .. })) => Some(("tool_error".to_owned(), code.name().to_owned())),
        Some(Heard::Rpc(e)) => Some((e.code().to_string(), e.name().to_owned())),
        _ => None,
    };
    if let Some((kind, _)) = &error {
        attrs.push(text("error.type", kind.clone()));
    }
    let name = format!("tools/call {}", tool.unwrap_or(""));
    let service = replica_service(replica.name());
    let span = out.span(&service, (trace, Some(parent)), &name, Kind::Server, (r.t, end), attrs, error.map(|e| e.1));
    out.servers.insert(call, span);
}

/// A call to the Risk API: the caller's CLIENT span and the Risk API's
/// SERVER span (none for a request lost on the way).
fn downstream(out: &mut Out, t: Millis, ds: DownstreamId, by: Issuer, kind: DsKind, key: &str) {
    let (context, service) = out.context(by);
    let (end, answer) = out.ends.caller.get(&ds).copied().unwrap_or((out.run.horizon(), None));
    let words = kinds::call(kind);
    let (method, name) = (words.method, words.route);
    let url = match kind {
        DsKind::Create => "http://risk-api/reviews".to_owned(),
        DsKind::Find => format!("http://risk-api/reviews?request_key={key}"),
    };
    let (code, error) = kinds::http(answer);
    let mut attrs = vec![text("http.request.method", method), text("url.full", url), text("server.address", RISK_API)];
    if kind == DsKind::Create {
        attrs.push(header("http.request.header.idempotency-key", key));
    }
    if let Some(c) = code {
        attrs.push(int("http.response.status_code", c));
    }
    if let Some(e) = error {
        attrs.push(text("error.type", e));
    }
    let client = out.span(&service, context, name, Kind::Client, (t, end), attrs.clone(), error.map(str::to_owned));
    out.downstream.insert(ds, (context.0, client));
    if out.ends.lost.contains(&ds) {
        return;
    }
    let (api_end, api_answer, created) = out.ends.api.get(&ds).copied().unwrap_or((end, None, false));
    let (code, _) = kinds::http(api_answer);
    let mut attrs = vec![text("http.request.method", method), text("http.route", "/reviews")];
    if kind == DsKind::Create {
        attrs.push(header("http.request.header.idempotency-key", key));
    } else {
        attrs.push(text("url.query", format!("request_key={key}")));
    }
    if let Some(c) = code {
        attrs.push(int("http.response.status_code", c));
    }
    if created {
        attrs.push(("idempotency.effect".to_owned(), crate::sim::trace::Value::Str("review created".to_owned())));
    }
    let error = code.filter(|&c| c >= 500).map(|c| c.to_string());
    out.span(RISK_API, (context.0, Some(client)), name, Kind::Server, (t, api_end), attrs, error);
}

/// A database statement: the issuer's CLIENT span and the database's
/// SERVER span, with the SQL and the rows it touched.
fn statement(out: &mut Out, r: &Record) {
    let Some((stmt, rows)) = r.statement() else { return };
    let by = match r.what {
        What::RowInserted { by, .. }
        | What::InsertConflict { by, .. }
        | What::RowRead { by, .. }
        | What::Transition { by, .. }
        | What::WriteSkipped { by, .. } => by,
        What::Scanned { by, .. } | What::Claim { by, .. } | What::RetryCounted { by, .. } => Issuer::Worker(by),
        What::LockTried { lock, .. } => Issuer::Replica(replica_of(out, lock.holder), lock.holder),
        What::LockReleased { holder } => Issuer::Replica(replica_of(out, holder), holder),
        _ => return,
    };
    let query = super::sql::statement(&stmt);
    let op = query.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
    let table = if query.contains("risk_locks") { "risk_locks" } else { "risk_requests" };
    let attrs = vec![
        text("db.system.name", "other_sql"),
        text("db.operation.name", op.clone()),
        text("db.collection.name", table),
        text("db.query.text", query),
        int("db.response.returned_rows", i64::from(rows)),
    ];
    let (context, service) = out.context(by);
    let name = format!("{op} {table}");
    let mut client_attrs = attrs.clone();
    client_attrs.push(text("server.address", DATABASE));
    let client = out.span(&service, context, &name, Kind::Client, (r.t, r.t), client_attrs, None);
    out.span(DATABASE, (context.0, Some(client)), &name, Kind::Server, (r.t, r.t), attrs, None);
}

fn replica_of(out: &Out, call: CallId) -> crate::sim::risk::facts::ReplicaId {
    out.ends.routes.get(&call).copied().unwrap_or(crate::sim::risk::facts::ReplicaId::A)
}
