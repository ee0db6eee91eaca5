//! Spans as the reader gives them and the writer takes them.

use std::fmt::{self, Write};

/// A trace id: 16 bytes, written as 32 hex digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TraceId(pub [u8; 16]);

/// A span id: 8 bytes, written as 16 hex digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpanId(pub [u8; 8]);

fn hex(bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    Ok(())
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(&self.0, f)
    }
}

impl fmt::Display for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(&self.0, f)
    }
}

/// A span's kind, as the protocol numbers them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    #[default]
    Unspecified = 0,
    Internal = 1,
    Server = 2,
    Client = 3,
    Producer = 4,
    Consumer = 5,
}

impl Kind {
    pub fn from_number(n: u64) -> Option<Kind> {
        Some(match n {
            0 => Kind::Unspecified,
            1 => Kind::Internal,
            2 => Kind::Server,
            3 => Kind::Client,
            4 => Kind::Producer,
            5 => Kind::Consumer,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Unspecified => "unspecified",
            Kind::Internal => "internal",
            Kind::Server => "server",
            Kind::Client => "client",
            Kind::Producer => "producer",
            Kind::Consumer => "consumer",
        }
    }
}

/// A span's status code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StatusCode {
    #[default]
    Unset = 0,
    Ok = 1,
    Error = 2,
}

impl StatusCode {
    pub fn from_number(n: u64) -> Option<StatusCode> {
        Some(match n {
            0 => StatusCode::Unset,
            1 => StatusCode::Ok,
            2 => StatusCode::Error,
            _ => return None,
        })
    }
}

/// An attribute's value, typed as the protocol types it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Bool(bool),
    Int(i64),
    Double(f64),
    Bytes(Vec<u8>),
    Array(Vec<Value>),
    Map(Vec<(String, Value)>),
}

impl Value {
    /// A string, or the first element of an array of strings (HTTP header
    /// attributes are arrays: a header may be sent more than once).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Array(items) => items.first().and_then(Value::as_str),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Str(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// Whether `text` is this value, or one of its elements.
    pub fn holds_text(&self, text: &str) -> bool {
        match self {
            Value::Str(s) => s == text,
            Value::Array(items) => items.iter().any(|v| v.holds_text(text)),
            _ => false,
        }
    }

    /// The value as plain text, for the page and the text output.
    pub fn show(&self) -> String {
        let mut out = String::new();
        self.write_shown(&mut out);
        out
    }

    fn write_shown(&self, out: &mut String) {
        match self {
            Value::Str(s) => out.push_str(s),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Value::Double(x) => {
                let _ = write!(out, "{x}");
            }
            Value::Bytes(b) => {
                let _ = write!(out, "{} bytes", b.len());
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_shown(out);
                }
                out.push(']');
            }
            Value::Map(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.write_shown(out);
                }
                out.push('}');
            }
        }
    }
}

/// Something that happened during a span, at a moment of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub name: String,
    pub time_ns: u64,
    pub attributes: Vec<(String, Value)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Span {
    pub trace_id: TraceId,
    pub span_id: SpanId,
    pub parent: Option<SpanId>,
    pub name: String,
    pub kind: Kind,
    pub start_ns: u64,
    pub end_ns: u64,
    pub attributes: Vec<(String, Value)>,
    pub events: Vec<Event>,
    pub status: StatusCode,
    pub status_message: String,
    /// Its service: an index into [`Trace::services`].
    pub service: usize,
    /// The line of the file it was read from (0 for a span built in memory).
    pub line: usize,
}

impl Span {
    pub fn attr(&self, key: &str) -> Option<&Value> {
        self.attributes.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn str_attr(&self, key: &str) -> Option<&str> {
        self.attr(key).and_then(Value::as_str)
    }

    pub fn int_attr(&self, key: &str) -> Option<i64> {
        self.attr(key).and_then(Value::as_int)
    }

    /// Whether any of its string attributes is `text`.
    pub fn mentions(&self, text: &str) -> bool {
        self.attributes.iter().any(|(_, v)| v.holds_text(text))
    }
}

/// Every span of a file, with the services they came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Service names (`service.name` of each resource), each once, in the
    /// order first met.
    pub services: Vec<String>,
    pub spans: Vec<Span>,
}

impl Trace {
    /// The index of service `name`, added if new.
    pub fn service(&mut self, name: &str) -> usize {
        match self.services.iter().position(|s| s == name) {
            Some(i) => i,
            None => {
                self.services.push(name.to_owned());
                self.services.len() - 1
            }
        }
    }

    /// The earliest start of any span (0 for an empty trace).
    pub fn start_ns(&self) -> u64 {
        self.spans.iter().map(|s| s.start_ns).min().unwrap_or(0)
    }
}
