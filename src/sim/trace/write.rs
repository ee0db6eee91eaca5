//! The OTLP/JSON writer: a [`Trace`] as one export document, a
//! `resourceSpans` entry per service (its `service.name` the service),
//! one scope each, ids in lower-case hex, times as decimal strings of Unix
//! nanoseconds and attributes as typed values.

use crate::sim::json::Json;

use super::span::{Span, StatusCode, Trace, Value};

/// The instrumentation scope every exported span is under.
pub const SCOPE: &str = "idempotency-lab";

fn value(v: &Value) -> Json {
    match v {
        Value::Str(s) => Json::obj([("stringValue", Json::str(s.as_str()))]),
        Value::Bool(b) => Json::obj([("boolValue", Json::Bool(*b))]),
        // 64-bit integers are strings in the protocol's JSON.
        Value::Int(n) => Json::obj([("intValue", Json::str(n.to_string()))]),
        Value::Double(x) => Json::obj([("doubleValue", Json::num(x))]),
        Value::Bytes(b) => Json::obj([("bytesValue", Json::str(String::from_utf8_lossy(b)))]),
        Value::Array(items) => {
            Json::obj([("arrayValue", Json::obj([("values", Json::Arr(items.iter().map(value).collect()))]))])
        }
        Value::Map(members) => Json::obj([("kvlistValue", Json::obj([("values", attributes(members))]))]),
    }
}

fn attributes(attrs: &[(String, Value)]) -> Json {
    Json::Arr(attrs.iter().map(|(k, v)| Json::obj([("key", Json::str(k.as_str())), ("value", value(v))])).collect())
}

fn span(s: &Span) -> Json {
    let mut members =
        vec![("traceId", Json::str(s.trace_id.to_string())), ("spanId", Json::str(s.span_id.to_string()))];
    if let Some(p) = s.parent {
        members.push(("parentSpanId", Json::str(p.to_string())));
    }
    members.extend([
        ("name", Json::str(s.name.as_str())),
        ("kind", Json::num(s.kind as u8)),
        ("startTimeUnixNano", Json::str(s.start_ns.to_string())),
        ("endTimeUnixNano", Json::str(s.end_ns.to_string())),
        ("attributes", attributes(&s.attributes)),
    ]);
    if !s.events.is_empty() {
        let events = s
            .events
            .iter()
            .map(|e| {
                Json::obj([
                    ("timeUnixNano", Json::str(e.time_ns.to_string())),
                    ("name", Json::str(e.name.as_str())),
                    ("attributes", attributes(&e.attributes)),
                ])
            })
            .collect();
        members.push(("events", Json::Arr(events)));
    }
    let mut status = Vec::new();
    if !s.status_message.is_empty() {
        status.push(("message", Json::str(s.status_message.as_str())));
    }
    if s.status != StatusCode::Unset {
        status.push(("code", Json::num(s.status as u8)));
    }
    members.push(("status", Json::obj(status)));
    Json::obj(members)
}

/// The trace as one OTLP/JSON document, indented as the other exports.
pub fn to_otlp_json(trace: &Trace) -> String {
    let resources = trace
        .services
        .iter()
        .enumerate()
        .map(|(i, service)| {
            let spans: Vec<Json> = trace.spans.iter().filter(|s| s.service == i).map(span).collect();
            let resource =
                Json::obj([("attributes", attributes(&[("service.name".to_owned(), Value::Str(service.clone()))]))]);
            let scope = Json::obj([("scope", Json::obj([("name", Json::str(SCOPE))])), ("spans", Json::Arr(spans))]);
            Json::obj([("resource", resource), ("scopeSpans", Json::Arr(vec![scope]))])
        })
        .collect();
    Json::obj([("resourceSpans", Json::Arr(resources))]).pretty() + "\n"
}
