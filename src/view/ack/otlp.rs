//! The first lab's run as an OpenTelemetry trace, as its four services
//! would emit it if they were instrumented: the client (the logical
//! operation, and a CLIENT span per attempt with the key header and
//! `http.request.resend_count`), the server (a SERVER span per request it
//! received), the deduplication store and the ledger (each statement a
//! CLIENT span on the server and the store's own SERVER span under it; the
//! store's expiries and the wipe of a crash are spans of its own). Model
//! time 0 is [`EPOCH_NS`]. Every record's mapping is in this one file.

use std::collections::HashMap;

use crate::sim::Millis;
use crate::sim::ack::{Outcome, Record, Run, Status, What};
use crate::sim::trace::span::{Kind, SpanId, TraceId};
use crate::sim::trace::write::to_otlp_json;
use crate::view::otlp::{Attr, Exporter, SpanSpec, header, int, seed_of, text};

/// Model time 0 of the first lab: 2026-07-28T10:00:00.000Z.
pub const EPOCH_NS: u64 = 1_785_232_800_000_000_000;

pub const CLIENT: &str = "client";
pub const SERVER: &str = "server";
pub const STORE: &str = "dedup-store";
pub const LEDGER: &str = "ledger";

const KEY_HEADER: &str = "http.request.header.idempotency-key";

/// When each attempt's client span and server span end.
#[derive(Default)]
struct Ends {
    attempt: HashMap<u32, (Millis, Option<Status>, bool)>,
    server: HashMap<u32, (Millis, Option<Status>)>,
}

fn ends(run: &Run) -> Ends {
    let mut e = Ends::default();
    let crashes: Vec<Millis> =
        run.records().iter().filter(|r| matches!(r.what, What::ServerCrashed { .. })).map(|r| r.t).collect();
    for r in run.records() {
        match r.what {
            What::ResponseDelivered { status, .. } => {
                e.attempt.entry(r.attempt).or_insert((r.t, Some(status), false));
            }
            What::AttemptTimedOut { .. } => {
                e.attempt.entry(r.attempt).or_insert((r.t, None, true));
            }
            _ => {}
        }
        if let What::ResponseDelivered { status, sent_at, .. }
        | What::ResponseLate { status, sent_at }
        | What::ResponseLost { status, sent_at } = r.what
            && status != Status::Refused
        {
            e.server.entry(r.attempt).or_insert((sent_at, Some(status)));
        }
    }
    // A request whose operation died in a crash is answered by nobody: its
    // span ends at the crash.
    for r in run.records() {
        if arrival(r) && !e.server.contains_key(&r.attempt) {
            let end = crashes.iter().copied().find(|&c| c >= r.t).unwrap_or(run.end());
            e.server.insert(r.attempt, (end, None));
        }
    }
    e
}

/// Whether the record is the server receiving a request.
fn arrival(r: &Record) -> bool {
    matches!(
        r.what,
        What::RequestRejected
            | What::RequestUnavailable
            | What::PayloadMismatch { .. }
            | What::InFlightConflict { .. }
            | What::OperationStarted { .. }
            | What::DedupJoined { .. }
            | What::DedupReplayed { .. }
    )
}

/// Whether the server looked the key up for this request.
fn looked_up(r: &Record) -> bool {
    matches!(
        r.what,
        What::PayloadMismatch { .. }
            | What::InFlightConflict { .. }
            | What::OperationStarted { reserved: true, .. }
            | What::DedupJoined { .. }
            | What::DedupReplayed { .. }
    )
}

struct Out {
    x: Exporter,
    trace: TraceId,
}

impl Out {
    #[allow(clippy::too_many_arguments)]
    fn span(
        &mut self,
        service: &str,
        parent: Option<SpanId>,
        name: &str,
        kind: Kind,
        (start, end): (Millis, Millis),
        attributes: Vec<Attr>,
        error: Option<String>,
    ) -> SpanId {
        let trace = self.trace;
        self.x.span(SpanSpec { service, trace, parent, name: name.to_owned(), kind, start, end, attributes, error })
    }

    /// A statement: the server's CLIENT span and the store's SERVER span.
    #[allow(clippy::too_many_arguments)]
    fn statement(
        &mut self,
        store: &str,
        parent: Option<SpanId>,
        t: Millis,
        op: &str,
        table: &str,
        query: &str,
        extra: Vec<Attr>,
    ) {
        let mut attrs = vec![
            text("db.system.name", "sqlite"),
            text("db.namespace", store),
            text("db.operation.name", op),
            text("db.collection.name", table),
            text("db.query.text", query),
        ];
        attrs.extend(extra);
        let name = format!("{op} {table}");
        let mut client_attrs = attrs.clone();
        client_attrs.push(text("server.address", store));
        let client = self.span(SERVER, parent, &name, Kind::Client, (t, t), client_attrs, None);
        self.span(store, Some(client), &name, Kind::Server, (t, t), attrs, None);
    }
}

fn key_param(key: &str) -> Attr {
    text("db.query.parameter.key", key)
}

/// The run as an OTLP/JSON document.
pub fn run_to_otlp(run: &Run) -> String {
    to_otlp_json(&trace_of(run))
}

/// The run as a trace.
pub fn trace_of(run: &Run) -> crate::sim::trace::Trace {
    let seed = seed_of(
        &crate::view::url::settings_params(run.settings()).iter().map(|(k, v)| format!("{k}={v}&")).collect::<String>(),
    );
    let mut x = Exporter::new(EPOCH_NS, seed);
    let trace = x.new_trace();
    let mut out = Out { x, trace };
    let summary = run.summary();
    let error = match summary.outcome {
        Outcome::Succeeded => None,
        Outcome::Rejected(s) => Some(format!("rejected: {}", s.code().unwrap_or(0))),
        Outcome::Exhausted(by) => Some(format!("gave up: out of {}", by.name())),
    };
    let ok = error.is_none();
    let root = out.span(CLIENT, None, "increment", Kind::Internal, (Millis::ZERO, summary.outcome_at), vec![], error);
    if ok {
        out.x.last_ok();
    }
    let ends = ends(run);
    let mut attempts: HashMap<u32, SpanId> = HashMap::new();
    let mut servers: HashMap<u32, SpanId> = HashMap::new();
    for r in run.records() {
        let key = r.key.map(|k| k.to_string()).unwrap_or_default();
        let n = r.attempt;
        if let What::AttemptSent { .. } = r.what {
            let (end, status, timed_out) = ends.attempt.get(&n).copied().unwrap_or((run.end(), None, false));
            let mut attrs = vec![
                text("http.request.method", "POST"),
                text("url.full", "http://server/increment"),
                text("server.address", "server"),
                header(KEY_HEADER, key.clone()),
            ];
            if n > 1 {
                attrs.push(int("http.request.resend_count", i64::from(n - 1)));
            }
            let code = status.and_then(Status::code);
            if let Some(c) = code {
                attrs.push(int("http.response.status_code", i64::from(c)));
            }
            let error = match (timed_out, status, code) {
                (true, ..) => Some("timeout"),
                (_, Some(Status::Refused), _) => Some("connection_refused"),
                (_, _, Some(c)) if c >= 400 => Some(if c == 503 { "503" } else { "4xx" }),
                _ => None,
            };
            if let Some(e) = error {
                let e = if e == "4xx" { code.unwrap_or(0).to_string() } else { e.to_owned() };
                attrs.push(text("error.type", e.clone()));
                let span = out.span(CLIENT, Some(root), "POST", Kind::Client, (r.t, end), attrs, Some(e));
                attempts.insert(n, span);
            } else {
                let span = out.span(CLIENT, Some(root), "POST", Kind::Client, (r.t, end), attrs, None);
                attempts.insert(n, span);
            }
            continue;
        }
        if arrival(r) {
            let (end, status) = ends.server.get(&n).copied().unwrap_or((run.end(), None));
            let mut attrs = vec![
                text("http.request.method", "POST"),
                text("http.route", "/increment"),
                header(KEY_HEADER, key.clone()),
            ];
            let code = status.and_then(Status::code);
            if let Some(c) = code {
                attrs.push(int("http.response.status_code", i64::from(c)));
            }
            let error = match code {
                None => Some("crash".to_owned()),
                Some(c) if c >= 500 => Some(c.to_string()),
                _ => None,
            };
            if let Some(e) = &error {
                attrs.push(text("error.type", e.clone()));
            }
            let server =
                out.span(SERVER, attempts.get(&n).copied(), "POST /increment", Kind::Server, (r.t, end), attrs, error);
            servers.insert(n, server);
            if looked_up(r) {
                let found = i64::from(!matches!(r.what, What::OperationStarted { .. }));
                let query = "SELECT state, result FROM idempotency_keys WHERE key = ?";
                let extra = vec![key_param(&key), int("db.response.returned_rows", found)];
                out.statement(STORE, Some(server), r.t, "SELECT", "idempotency_keys", query, extra);
            }
            if let What::OperationStarted { reserved: true, .. } = r.what {
                let query = "INSERT INTO idempotency_keys (key, state, lease_until) VALUES (?, 'reserved', ?)";
                out.statement(STORE, Some(server), r.t, "INSERT", "idempotency_keys", query, vec![key_param(&key)]);
            }
            continue;
        }
        effects(&mut out, r, &key, servers.get(&n).copied());
    }
    out.x.finish()
}

/// A commit, a crash and the store's own deletions.
fn effects(out: &mut Out, r: &Record, key: &str, server: Option<SpanId>) {
    let (applied, stored, wiped) = match r.what {
        What::OperationCommitted { stored_until, .. } => (true, stored_until.is_some(), false),
        What::ServerCrashed { applied, stored_until, wiped, .. } => (applied.is_some(), stored_until.is_some(), wiped),
        What::StoredResultExpired { .. } | What::LeaseEnded { .. } => {
            let why = if matches!(r.what, What::LeaseEnded { .. }) { "lease ended" } else { "retention ended" };
            let query = "DELETE FROM idempotency_keys WHERE key = ?";
            let attrs = vec![
                text("db.system.name", "sqlite"),
                text("db.operation.name", "DELETE"),
                text("db.collection.name", "idempotency_keys"),
                text("db.query.text", query),
                key_param(key),
                text("idempotency.reason", why),
            ];
            out.span(STORE, None, "DELETE idempotency_keys", Kind::Internal, (r.t, r.t), attrs, None);
            return;
        }
        _ => return,
    };
    if applied {
        let query = "INSERT INTO ledger (increment, payload) VALUES (1, ?)";
        out.statement(LEDGER, server, r.t, "INSERT", "ledger", query, vec![]);
    }
    if stored {
        let query = "UPDATE idempotency_keys SET state = 'done', result = ? WHERE key = ?";
        out.statement(STORE, server, r.t, "UPDATE", "idempotency_keys", query, vec![key_param(key)]);
    }
    if wiped {
        let attrs = vec![
            text("db.system.name", "sqlite"),
            text("db.operation.name", "DELETE"),
            text("db.collection.name", "idempotency_keys"),
            text("db.query.text", "DELETE FROM idempotency_keys"),
            text("idempotency.reason", "the server restarted with an empty in-memory store"),
        ];
        out.span(STORE, None, "DELETE idempotency_keys", Kind::Internal, (r.t, r.t), attrs, None);
    }
}

/// The lane of the first lab's diagram a service's spans are drawn on.
pub fn place_of(service: &str) -> Option<crate::view::ack::broke::Place> {
    use crate::view::ack::broke::Place;
    match service {
        CLIENT => Some(Place::Client),
        SERVER => Some(Place::Server),
        STORE => Some(Place::DedupStore),
        _ => None,
    }
}
