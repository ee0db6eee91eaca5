//! What both labs' trace exports share: deterministic ids, the model's
//! clock mapped to wall time, and attributes written briefly. Each lab maps
//! its records to spans in one place (`view::ack::otlp`,
//! `view::risk::otlp`).

use crate::sim::Millis;
use crate::sim::trace::span::{Kind, Span, SpanId, StatusCode, Trace, TraceId, Value};

/// An attribute.
pub type Attr = (String, Value);

pub fn text(key: &str, value: impl Into<String>) -> Attr {
    (key.to_owned(), Value::Str(value.into()))
}

pub fn int(key: &str, value: i64) -> Attr {
    (key.to_owned(), Value::Int(value))
}

/// A captured HTTP header: an array of its values.
pub fn header(key: &str, value: impl Into<String>) -> Attr {
    (key.to_owned(), Value::Array(vec![Value::Str(value.into())]))
}

/// A span of a run, in model time.
pub struct SpanSpec<'a> {
    pub service: &'a str,
    pub trace: TraceId,
    pub parent: Option<SpanId>,
    pub name: String,
    pub kind: Kind,
    pub start: Millis,
    pub end: Millis,
    pub attributes: Vec<Attr>,
    /// An error's description; `None` for a span that did not fail.
    pub error: Option<String>,
}

/// Builds a run's trace: ids from a seed and a counter, so the same run
/// always exports the same file, and times from the lab's wall clock.
pub struct Exporter {
    trace: Trace,
    seed: u64,
    next: u64,
    epoch_ns: u64,
}

impl Exporter {
    /// Model time 0 is `epoch_ns` (Unix nanoseconds); `seed` tells one
    /// run's ids from another's.
    pub fn new(epoch_ns: u64, seed: u64) -> Exporter {
        Exporter { trace: Trace::default(), seed: seed | 1, next: 0, epoch_ns }
    }

    /// A new trace id.
    pub fn new_trace(&mut self) -> TraceId {
        self.next += 1;
        let mut id = [0u8; 16];
        id[..8].copy_from_slice(&self.seed.to_be_bytes());
        id[8..].copy_from_slice(&self.next.to_be_bytes());
        TraceId(id)
    }

    pub fn ns(&self, t: Millis) -> u64 {
        self.epoch_ns + t.ms() * 1_000_000
    }

    /// Adds a span; its id.
    pub fn span(&mut self, spec: SpanSpec) -> SpanId {
        self.next += 1;
        let id = SpanId((self.next ^ (self.seed << 32)).to_be_bytes());
        let service = self.trace.service(spec.service);
        let (status, status_message) = match spec.error {
            Some(message) => (StatusCode::Error, message),
            None => (StatusCode::Unset, String::new()),
        };
        self.trace.spans.push(Span {
            trace_id: spec.trace,
            span_id: id,
            parent: spec.parent,
            name: spec.name,
            kind: spec.kind,
            start_ns: self.ns(spec.start),
            end_ns: self.ns(spec.end.max(spec.start)),
            attributes: spec.attributes,
            events: Vec::new(),
            status,
            status_message,
            service,
            line: 0,
        });
        id
    }

    /// Marks the last span added OK (a logical operation that succeeded).
    pub fn last_ok(&mut self) {
        if let Some(s) = self.trace.spans.last_mut() {
            s.status = StatusCode::Ok;
        }
    }

    pub fn finish(self) -> Trace {
        self.trace
    }
}

/// A seed from text (a run's settings as a link writes them): FNV-1a.
pub fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
