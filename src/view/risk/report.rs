//! The run as JSON: one schema for the command line's `--format json` and
//! the page's export. Every field of RISK-MODEL.md's "Observable", with the
//! wall clock on every timed entry and the SQL, with its rows, in the text
//! of every database event. Written with [`crate::sim::json`], so the
//! lab's page carries no serialisation framework; objects that are maps
//! (switches, gates, a check's figures) list their members by name.

use crate::sim::Millis;
use crate::sim::json::Json;
use crate::sim::params::Schema;
use crate::sim::risk::compare::Comparison;
use crate::sim::risk::facts::{
    Actor, BusinessKey, DownstreamId, DsKind, Issuer, Record, ReplicaId, Reply, RpcError, Wait, What,
};
use crate::sim::risk::scenario::fault_list;
use crate::sim::risk::settings::Pattern;
use crate::sim::risk::{Check, CheckName, Fig, Review, Row, Run, Summary, Value};
use crate::view::compare::comparison_json;

use super::compare::differences;
use super::sentences::sentence;
use super::series::Series;
use super::{kinds, names};

/// An object whose members are sorted by name (a map; a later member of
/// the same name replaces an earlier one). Maps here have a handful of
/// members, so each goes straight to its place.
fn map(members: Vec<(String, Json)>) -> Json {
    let mut sorted: Vec<(String, Json)> = Vec::with_capacity(members.len());
    for (name, value) in members {
        match sorted.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            Ok(i) => sorted[i].1 = value,
            Err(i) => sorted.insert(i, (name, value)),
        }
    }
    Json::Obj(sorted)
}

fn num(n: u64) -> Json {
    Json::num(n)
}

fn opt_text(s: Option<impl Into<String>>) -> Json {
    Json::opt(s, Json::str)
}

fn opt_num(n: Option<u64>) -> Json {
    Json::opt(n, num)
}

/// A timed entry: `t_ms` and `clock`, then `members`.
fn timed<const N: usize>(t: Millis, members: [(&str, Json); N]) -> Json {
    Json::obj([("t_ms", num(t.ms())), ("clock", Json::str(names::clock(t)))].into_iter().chain(members))
}

/// A Risk API call as the report follows it.
struct Downstream {
    t: Millis,
    kind: &'static str,
    caller: &'static str,
    /// The replica that sent it; a worker's call has none.
    replica: Option<&'static str>,
    request_key: String,
    row: String,
    outcome: String,
    /// When the caller heard the answer, if it did in time.
    answered_ms: Option<u64>,
}

/// A replica's gates: how full its queue and its slots got.
#[derive(Clone, Default)]
struct Gate {
    concurrency_cap: u32,
    queue_capacity: u32,
    gates_on: bool,
    max_queue: u32,
    max_in_flight: u32,
    overloaded: u32,
    /// Calls that queued with a slot free, the fleet at its quota.
    waited_for_fleet: u32,
}

fn figure_json(value: Value) -> Json {
    match value {
        Value::Count(n) | Value::Ms(n) => num(n),
        Value::Row(r) => Json::str(names::row(r)),
        Value::Order(o) => Json::str(names::order(o)),
        Value::Key(k) => Json::str(names::request_key(k)),
        Value::Replica(r) => Json::str(r.name()),
    }
}

/// The checks as JSON: name, holds (or null), figures by name.
pub fn checks_json(checks: &[Check]) -> Json {
    Json::Arr(checks.iter().map(check_json).collect())
}

fn check_json(check: &Check) -> Json {
    let figures = check.figures.iter().map(|f| (f.name.name().to_owned(), figure_json(f.value))).collect();
    Json::obj([
        ("name", Json::str(check.name.name())),
        ("holds", Json::opt(check.holds, Json::Bool)),
        ("figures", map(figures)),
    ])
}

/// Every Risk API call with what became of it. A fault says more than the
/// timeout that follows it, so a timeout does not overwrite it.
fn downstream_calls(records: &[Record]) -> Json {
    fn set(calls: &mut [Downstream], ds: DownstreamId, outcome: String, answered: Option<Millis>, sticky: bool) {
        if let Some(c) = (ds.0 as usize).checked_sub(1).and_then(|i| calls.get_mut(i)) {
            if sticky && c.outcome != "pending" {
                return;
            }
            c.outcome = outcome;
            c.answered_ms = answered.map(Millis::ms).or(c.answered_ms);
        }
    }
    let mut calls: Vec<Downstream> = Vec::new();
    for r in records {
        let fresh = |kind: &'static str, request_key, row| Downstream {
            t: r.t,
            kind,
            caller: r.actor.name(),
            replica: match r.actor {
                Actor::Replica(replica) => Some(replica.name()),
                _ => None,
            },
            request_key: names::request_key(request_key),
            row: names::row(row),
            outcome: "pending".to_owned(),
            answered_ms: None,
        };
        match r.what {
            What::CreateSent { row, request_key, .. } => calls.push(fresh(DsKind::Create.name(), request_key, row)),
            What::ProbeSent { row, request_key, .. } => calls.push(fresh(DsKind::Find.name(), request_key, row)),
            What::RequestLost { ds, .. } | What::FindHangs { ds, .. } | What::ResponseLost { ds, .. } => {
                set(&mut calls, ds, kinds::outcome(r), None, false);
            }
            What::DownstreamReply { ds, .. } => set(&mut calls, ds, kinds::outcome(r), Some(r.t), false),
            // A fault says more than the timeout that follows it.
            What::DownstreamTimeout { ds, .. } => set(&mut calls, ds, kinds::outcome(r), None, true),
            What::LateReply { ds, .. } | What::ReplyUnheard { ds, .. } => {
                set(&mut calls, ds, kinds::outcome(r), None, false);
            }
            _ => {}
        }
    }
    Json::Arr(
        calls
            .into_iter()
            .map(|c| {
                timed(
                    c.t,
                    [
                        ("kind", Json::str(c.kind)),
                        ("caller", Json::str(c.caller)),
                        ("replica", c.replica.map_or(Json::Null, Json::str)),
                        ("sent_ms", num(c.t.ms())),
                        ("request_key", Json::str(c.request_key)),
                        ("row", Json::str(c.row)),
                        ("outcome", Json::str(c.outcome)),
                        ("answered_ms", opt_num(c.answered_ms)),
                    ],
                )
            })
            .collect(),
    )
}

fn gates(run: &Run) -> Json {
    let config = run.settings().replica.gates;
    let mut gates: Vec<Gate> = vec![Gate::default(); run.settings().replicas];
    for g in &mut gates {
        g.concurrency_cap = config.cap;
        g.queue_capacity = config.queue;
        g.gates_on = config.on;
    }
    for r in run.records() {
        let Actor::Replica(replica) = r.actor else { continue };
        let g = &mut gates[replica.index()];
        if let What::CallQueued { waits: Wait::Fleet { .. }, .. } = r.what {
            g.waited_for_fleet += 1;
        }
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
    let gate = |g: Gate| {
        map(vec![
            ("concurrency_cap".to_owned(), num(g.concurrency_cap.into())),
            ("queue_capacity".to_owned(), num(g.queue_capacity.into())),
            ("gates_on".to_owned(), Json::Bool(g.gates_on)),
            ("max_queue".to_owned(), num(g.max_queue.into())),
            ("max_in_flight".to_owned(), num(g.max_in_flight.into())),
            ("overloaded".to_owned(), num(g.overloaded.into())),
            ("waited_for_fleet".to_owned(), num(g.waited_for_fleet.into())),
        ])
    };
    map(ReplicaId::all(gates.len()).zip(gates).map(|(r, g)| (r.name().to_owned(), gate(g))).collect())
}

/// A review the Risk API created.
fn review_json(v: &Review) -> Json {
    timed(
        v.at,
        [
            ("review_ref", Json::str(names::review(v.review))),
            ("request_key", Json::str(names::request_key(v.request_key))),
            ("business_key", Json::str(names::business_key(BusinessKey { order: v.order, generation: v.generation }))),
            ("order_id", Json::str(names::order(v.order))),
        ],
    )
}

/// An event: its actor, kind and sentence.
fn event_json(r: &Record) -> Json {
    timed(r.t, [("actor", Json::str(r.actor.name())), ("kind", Json::str(r.kind())), ("text", Json::str(sentence(r)))])
}

/// The whole run as one pretty-printed JSON document.
pub fn run_to_json(run: &Run) -> String {
    run_doc(run).pretty()
}

/// Two runs and their differences as one JSON document (the export of a
/// comparison), each run as [`run_to_json`] writes it.
pub fn compare_to_json(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>) -> String {
    let reviews = |list: &[Review]| Json::Arr(list.iter().map(review_json).collect());
    comparison_json([run_doc(a), run_doc(b)], c, fork, differences(a, b, c, fork), event_json, reviews)
}

/// The run's document: its settings and summary, what it left behind (the
/// reviews and the table), then the agent's calls and results, the row
/// moves, the Risk API calls, the claims, the gates, the checks and every
/// event.
fn run_doc(run: &Run) -> Json {
    let s = run.summary();
    let records = run.records();
    let switches =
        Pattern::ALL.iter().map(|p| (p.name().to_owned(), Json::Bool(run.settings().switches.get(*p)))).collect();
    let reviews = run.reviews().iter().map(review_json).collect();
    let rows = run.rows().iter().map(row_json).collect();
    let events = records.iter().map(event_json).collect();
    let checks = run.checks();
    let peak = checks
        .iter()
        .find(|c| c.name == CheckName::DownstreamWithinCapacity)
        .and_then(|c| super::verdicts::number(c, Fig::PeakConcurrency));
    Json::obj([
        ("lab", Json::str("risk")),
        ("settings", run.settings().to_json()),
        ("fleet", fleet_json(run.settings())),
        ("switches", map(switches)),
        ("faults", Json::Arr(fault_list(run.settings()).into_iter().map(Json::Str).collect())),
        ("clock_origin", Json::str(names::clock(Millis::ZERO))),
        ("horizon_ms", num(run.horizon().ms())),
        ("end_ms", num(s.end.ms())),
        ("summary", summary_json(s)),
        ("reviews", Json::Arr(reviews)),
        ("rows", Json::Arr(rows)),
        ("tool_calls", tool_calls(records)),
        ("tool_results", tool_results(records)),
        ("jsonrpc_errors", jsonrpc_errors(records)),
        ("transitions", transitions(records)),
        ("downstream_calls", downstream_calls(records)),
        ("claims", claims(records)),
        ("gates", gates(run)),
        ("downstream_peak_concurrency", opt_num(peak)),
        ("downstream_safe_concurrency", num(run.settings().risk_api.safe_concurrency.into())),
        (
            "refused_out_of_budget",
            num(records.iter().filter(|r| matches!(r.what, What::OutOfBudget { .. })).count() as u64),
        ),
        ("series", series_json(&Series::of(run))),
        ("checks", checks_json(&checks)),
        ("events", Json::Arr(events)),
    ])
}

/// The sizes the run used, where the settings may say `auto`.
fn fleet_json(s: &crate::sim::risk::Settings) -> Json {
    Json::obj([
        ("replicas", num(s.replicas as u64)),
        ("concurrency_cap", num(s.replica.gates.cap.into())),
        ("queue_capacity", num(s.replica.gates.queue.into())),
        ("burst_calls", num(s.burst_calls.into())),
        // Unbounded (no admission limit) is null.
        (
            "risk_api_capacity",
            if s.risk_api.capacity == u32::MAX { Json::Null } else { num(s.risk_api.capacity.into()) },
        ),
        ("api_safe_concurrency", num(s.risk_api.safe_concurrency.into())),
        ("global_gate_quota", s.replica.fleet_quota.map_or(Json::Null, |q| num(q.into()))),
    ])
}

/// Little's law over time, one entry per 100 ms window.
fn series_json(series: &Series) -> Json {
    Json::Arr(
        series
            .points
            .iter()
            .map(|p| {
                Json::obj([
                    ("t_ms", num(p.t.ms())),
                    ("arrivals_per_s", num(p.arrivals_per_s)),
                    ("in_flight_replicas", num(p.at_replicas)),
                    ("in_flight_risk_api", num(p.at_risk_api)),
                    ("mean_residence_ms", p.mean_residence_ms.map_or(Json::Null, |m| Json::num(format!("{m:.1}")))),
                ])
            })
            .collect(),
    )
}

/// The run's counts.
fn summary_json(s: &Summary) -> Json {
    Json::obj([
        ("tool_calls", num(s.tool_calls.into())),
        ("reviews", num(s.reviews.into())),
        ("rows", num(s.rows.into())),
        ("creates", num(s.creates.into())),
        ("finds", num(s.finds.into())),
        ("claims_won", num(s.claims_won.into())),
        ("claims_lost", num(s.claims_lost.into())),
        ("overloaded", num(s.overloaded.into())),
    ])
}

/// A row of the table at the end of the run, every column.
fn row_json(row: &Row) -> Json {
    Json::obj([
        ("id", Json::str(names::row(row.id))),
        ("request_key", Json::str(names::request_key(row.request_key))),
        ("business_key", Json::str(names::business_key(row.business_key()))),
        ("order_id", Json::str(names::order(row.order))),
        ("requester_id", Json::str(names::user(row.requester))),
        ("status", Json::str(row.status.name())),
        ("downstream_ref", opt_text(row.downstream_ref.map(names::review))),
        ("retry_count", num(row.retry_count.into())),
        // Model milliseconds, as the SQL writes it.
        ("next_retry_at", opt_num(row.next_retry_at.map(Millis::ms))),
        ("version", num(row.version.into())),
        ("generation", num(row.generation.into())),
    ])
}

/// Every tool call the agent made, with its arguments.
fn tool_calls(records: &[Record]) -> Json {
    Json::Arr(
        records
            .iter()
            .filter_map(|r| match r.what {
                What::ToolCall {
                    call,
                    tool,
                    intent,
                    attempt,
                    request_key,
                    order,
                    review,
                    subject,
                    replica,
                    shape,
                    ..
                } => Some(timed(
                    r.t,
                    [
                        ("call", num(call.0.into())),
                        ("tool", Json::str(tool.name())),
                        ("replica", Json::str(replica.name())),
                        ("request_key", opt_text(request_key.map(names::request_key))),
                        ("order_id", opt_text(order.map(names::order))),
                        ("review_id", opt_text(review.map(names::row))),
                        ("intent", num(intent.0.into())),
                        ("attempt", num(attempt.into())),
                        ("subject", opt_text(subject.map(names::user))),
                        ("shape", Json::str(shape.name())),
                        ("user_id_argument", opt_text(shape.claimed_user().map(names::user))),
                    ],
                )),
                _ => None,
            })
            .collect(),
    )
}

/// When the agent heard each call's result, by call number (from 1).
fn received_times(records: &[Record]) -> Vec<Option<u64>> {
    let mut received: Vec<Option<u64>> = Vec::new();
    for r in records {
        if let What::ResultReceived { call, .. } = r.what {
            let i = call.0 as usize;
            if received.len() <= i {
                received.resize(i + 1, None);
            }
            received[i] = Some(r.t.ms());
        }
    }
    received
}

/// Every tool result a replica returned, and when the agent heard it.
fn tool_results(records: &[Record]) -> Json {
    let received = received_times(records);
    Json::Arr(
        records
            .iter()
            .filter_map(|r| match r.what {
                What::ToolResult { call, tool, reply } => {
                    let (code, status) = match reply {
                        Reply::Review { status, .. } => (None, Some(status.name())),
                        Reply::Error { code, .. } => (Some(code.name()), None),
                    };
                    Some(timed(
                        r.t,
                        [
                            ("call", num(call.0.into())),
                            ("tool", Json::str(tool.name())),
                            ("replica", Json::str(r.actor.name())),
                            ("is_error", Json::Bool(reply.is_error())),
                            ("code", opt_text(code)),
                            ("review_id", opt_text(reply.row().map(names::row))),
                            ("status", opt_text(status)),
                            ("received_ms", opt_num(received.get(call.0 as usize).copied().flatten())),
                        ],
                    ))
                }
                _ => None,
            })
            .collect(),
    )
}

/// Every JSON-RPC error a replica answered with, never a tool result.
fn jsonrpc_errors(records: &[Record]) -> Json {
    Json::Arr(
        records
            .iter()
            .filter_map(|r| match r.what {
                What::RpcError { call, error } => Some(timed(
                    r.t,
                    [
                        ("call", num(call.0.into())),
                        ("replica", Json::str(r.actor.name())),
                        ("code", Json::num(error.code())),
                        ("message", Json::str(error.name())),
                        (
                            "data_code",
                            match error {
                                RpcError::Thrown(code) => Json::str(code.name()),
                                _ => Json::Null,
                            },
                        ),
                    ],
                )),
                _ => None,
            })
            .collect(),
    )
}

/// Every row move (inserts, updates and winning claims), legal or not, with
/// the replica or worker that made it.
fn transitions(records: &[Record]) -> Json {
    Json::Arr(
        records
            .iter()
            .filter_map(|r| {
                let m = r.row_move()?;
                let actor = match m.by {
                    Issuer::Replica(replica, _) => replica.name(),
                    Issuer::Worker(worker) => worker.name(),
                };
                Some(timed(
                    r.t,
                    [
                        ("row", Json::str(names::row(m.row))),
                        ("from", opt_text(m.from.map(|f| f.name()))),
                        ("to", Json::str(m.to.name())),
                        ("cause", Json::str(m.cause.name())),
                        ("actor", Json::str(actor)),
                        ("legal", Json::Bool(m.is_legal())),
                    ],
                ))
            })
            .collect(),
    )
}

/// Every claim a worker made, won or lost.
fn claims(records: &[Record]) -> Json {
    Json::Arr(
        records
            .iter()
            .filter_map(|r| match r.what {
                What::Claim { by, claim, version, won, .. } => Some(timed(
                    r.t,
                    [
                        ("worker", Json::str(by.name())),
                        ("row", Json::str(names::row(claim.row()))),
                        ("version", num(version.into())),
                        ("won", Json::Bool(won)),
                    ],
                )),
                _ => None,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::json::parse;
    use crate::sim::risk::settings::{Mode, Preset};
    use crate::sim::risk::{Run, Settings};

    fn names(doc: &Json) -> Vec<&str> {
        match doc {
            Json::Obj(members) => members.iter().map(|(n, _)| n.as_str()).collect(),
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn maps_list_their_members_by_name_and_records_keep_the_schema_order() {
        let run = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let doc = parse(&run_to_json(&run)).unwrap();
        assert_eq!(
            names(&doc)[..8],
            ["lab", "settings", "fleet", "switches", "faults", "clock_origin", "horizon_ms", "end_ms"],
            "the document's own members in the schema's order"
        );
        assert_eq!(
            doc.get("faults"),
            Some(&Json::Arr(vec![Json::str("create-response-lost@1")])),
            "the incident's own fault"
        );
        let switches = names(doc.get("switches").unwrap());
        let mut by_name: Vec<&str> = Pattern::ALL.iter().map(|p| p.name()).collect();
        by_name.sort_unstable();
        assert_eq!(switches, by_name);
        let gates = doc.get("gates").unwrap();
        assert_eq!(names(gates), ["A", "B"]);
        let gate = names(gates.get("A").unwrap());
        assert_eq!(
            gate,
            [
                "concurrency_cap",
                "gates_on",
                "max_in_flight",
                "max_queue",
                "overloaded",
                "queue_capacity",
                "waited_for_fleet"
            ]
        );
    }

    #[test]
    fn a_comparison_exports_both_runs_and_imports_as_the_same_pair() {
        use crate::sim::params_file::parse_import;
        use crate::sim::risk::settings::IDEMPOTENT_CREATE;
        // The incident, naive (A), against the same with the idempotent
        // create (B), forked at 4 s: the retry's create at 4.411 s makes
        // RV-2 in A and returns RV-1 in B.
        let a = Run::simulate(&Settings::preset(Preset::Incident, Mode::Naive)).unwrap();
        let b = Run::simulate(&Settings::from_pairs(&[(&IDEMPOTENT_CREATE, "on")]).unwrap()).unwrap();
        let text = compare_to_json(&a, &b, &Comparison::of(&a, &b), Some(Millis(4_000)));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["fork_ms"], 4_000);
        assert_eq!(doc["a"]["lab"], "risk");
        assert_eq!(doc["a"]["reviews"].as_array().unwrap().len(), 2);
        assert_eq!(doc["b"]["reviews"].as_array().unwrap().len(), 1);
        assert_eq!(doc["b"]["settings"]["idempotent_create"], "on");
        let diff = &doc["differences"];
        assert_eq!(diff["first_divergence"]["t_ms"], 4_411);
        assert_eq!(diff["first_divergence"]["a"]["clock"], "10:31:12.531");
        assert_eq!(diff["only_a"][0]["review_ref"], "RV-2");
        assert_eq!(diff["only_b"].as_array().unwrap().len(), 0);
        assert_eq!(diff["agree_before_fork"], true);
        assert_eq!(diff["lines"][0][1], "A: 2 reviews, B: 1 review");
        let imported = parse_import::<Settings>(&text).unwrap();
        assert_eq!(&imported.settings, a.settings());
        assert_eq!(imported.b.as_ref(), Some(b.settings()));
        assert_eq!(imported.fork, Some(Millis(4_000)));
    }

    #[test]
    fn a_later_member_of_the_same_name_replaces_the_earlier() {
        let m = map(vec![("b".into(), num(1)), ("a".into(), num(2)), ("b".into(), num(3))]);
        assert_eq!(m, Json::Obj(vec![("a".into(), num(2)), ("b".into(), num(3))]));
    }
}
