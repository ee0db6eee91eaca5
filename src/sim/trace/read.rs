//! The OTLP/JSON reader: the protocol's JSON encoding of a trace export
//! (`resourceSpans` → `scopeSpans` → `spans`), as one document or as the
//! Collector's file exporter writes it, one document per line.
//!
//! It reads straight into spans, without a document tree, so a large file
//! costs little more than its spans; and it stops at its limits. What it
//! refuses, it names: the line, the field (`resourceSpans[0].scopeSpans[0].
//! spans[3].kind`) and what is allowed. The encoding's rules it holds to:
//! ids in hex (either case), enums as integers, 64-bit integers as decimal
//! strings or numbers, unknown fields ignored, `null` as the default.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use super::span::{Event, Kind, Span, SpanId, StatusCode, Trace, TraceId, Value};

/// The most a file may hold (64 MiB).
pub const MAX_BYTES: usize = 64 << 20;
/// The most spans a file may hold.
pub const MAX_SPANS: usize = 200_000;
/// The most attributes (or events) one span may carry.
pub const MAX_PER_SPAN: usize = 1_000;
/// How deeply attribute values (arrays and maps) and skipped fields nest.
pub const MAX_DEPTH: usize = 32;

/// What a file may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub bytes: usize,
    pub spans: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { bytes: MAX_BYTES, spans: MAX_SPANS }
    }
}

/// Why a file was refused (or, as a warning, what was read differently):
/// where, and what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    /// The field, as a path from the document (empty for the whole file).
    pub field: String,
    pub problem: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "line {}: {}", self.line, self.problem)
        } else {
            write!(f, "line {}, {}: {}", self.line, self.field, self.problem)
        }
    }
}

/// A file read: its spans, and what was read with a warning (a parent that
/// is not in the file: the span is read as a root).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    pub trace: Trace,
    pub warnings: Vec<ReadError>,
}

#[derive(Clone, Debug)]
enum Seg {
    Field(&'static str),
    Index(usize),
}

struct Lex<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    path: Vec<Seg>,
}

type Res<T> = Result<T, ReadError>;

fn shown(text: &str) -> String {
    crate::sim::params::shorten(text)
}

impl<'a> Lex<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn field_path(&self) -> String {
        let mut out = String::new();
        for seg in &self.path {
            match seg {
                Seg::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    fn fail<T>(&self, problem: impl Into<String>) -> Res<T> {
        Err(ReadError { line: self.line, field: self.field_path(), problem: problem.into() })
    }

    fn ws(&mut self) {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.at) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// What the next value is, for messages.
    fn what_is_next(&mut self) -> &'static str {
        match self.peek() {
            Some(b'"') => "a string",
            Some(b'{') => "an object",
            Some(b'[') => "an array",
            Some(b't' | b'f') => "a boolean",
            Some(b'n') => "null",
            Some(b'-' | b'0'..=b'9') => "a number",
            None => "the end of the file",
            Some(_) => "not JSON",
        }
    }

    fn expected<T>(&mut self, allowed: &str) -> Res<T> {
        let found = self.what_is_next();
        if found == "not JSON" {
            return self.fail("malformed JSON: expected a value");
        }
        self.fail(format!("is {found}; allowed: {allowed}"))
    }

    /// A `null` in place of a value: the field's default.
    fn null(&mut self) -> Res<bool> {
        if self.peek() == Some(b'n') {
            self.word("null")?;
            return Ok(true);
        }
        Ok(false)
    }

    fn word(&mut self, word: &str) -> Res<()> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            self.fail("malformed JSON: expected a value")
        }
    }

    fn string(&mut self) -> Res<Cow<'a, str>> {
        if self.peek() != Some(b'"') {
            return self.expected("a string");
        }
        self.at += 1;
        let bytes = self.bytes();
        let start = self.at;
        // The common case: no escapes, borrowed as it is.
        while let Some(&b) = bytes.get(self.at) {
            match b {
                b'"' => {
                    self.at += 1;
                    return Ok(Cow::Borrowed(&self.text[start..self.at - 1]));
                }
                b'\\' => break,
                0..=0x1f => return self.fail("malformed JSON: a control character in a string"),
                _ => self.at += 1,
            }
        }
        let mut out = self.text[start..self.at].to_owned();
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return self.fail("malformed JSON: a string that never ends");
            };
            self.at += c.len_utf8();
            match c {
                '"' => return Ok(Cow::Owned(out)),
                '\\' => self.escape(&mut out)?,
                c if (c as u32) < 0x20 => return self.fail("malformed JSON: a control character in a string"),
                c => out.push(c),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Res<()> {
        let Some(&e) = self.bytes().get(self.at) else {
            return self.fail("malformed JSON: a string that never ends");
        };
        self.at += 1;
        match e {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let first = self.hex4()?;
                let code = if (0xd800..0xdc00).contains(&first) && self.text[self.at..].starts_with("\\u") {
                    self.at += 2;
                    let second = self.hex4()?;
                    0x10000 + ((first - 0xd800) << 10) + (second.wrapping_sub(0xdc00) & 0x3ff)
                } else {
                    first
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            _ => return self.fail("malformed JSON: an unknown escape in a string"),
        }
        Ok(())
    }

    fn hex4(&mut self) -> Res<u32> {
        let digits = self.text.get(self.at..self.at + 4).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(v) => {
                self.at += 4;
                Ok(v)
            }
            None => self.fail("malformed JSON: a \\u escape without four hex digits"),
        }
    }

    /// A number's text (JSON's syntax).
    fn number_text(&mut self) -> Res<&'a str> {
        self.ws();
        let bytes = self.bytes();
        let start = self.at;
        let digits = |lex: &mut Lex| {
            let from = lex.at;
            while bytes.get(lex.at).is_some_and(u8::is_ascii_digit) {
                lex.at += 1;
            }
            lex.at - from
        };
        if bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        if digits(self) == 0 {
            return self.fail("malformed JSON: a number without digits");
        }
        if bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return self.fail("malformed JSON: a number without digits after its point");
            }
        }
        if matches!(bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return self.fail("malformed JSON: a number without digits in its exponent");
            }
        }
        Ok(&self.text[start..self.at])
    }

    /// A whole number, written as a number or as a string of digits (how
    /// the encoding writes 64-bit integers).
    fn whole(&mut self, allowed: &str) -> Res<u64> {
        let text: Cow<str> = match self.peek() {
            Some(b'"') => self.string()?,
            Some(b'-' | b'0'..=b'9') => Cow::Borrowed(self.number_text()?),
            _ => return self.expected(allowed),
        };
        match text.parse::<u64>() {
            Ok(n) => Ok(n),
            Err(_) => self.fail(format!("\"{}\" is not allowed; allowed: {allowed}", shown(&text))),
        }
    }

    fn signed(&mut self) -> Res<i64> {
        const ALLOWED: &str = "a whole number from -9223372036854775808 to 9223372036854775807";
        let text: Cow<str> = match self.peek() {
            Some(b'"') => self.string()?,
            Some(b'-' | b'0'..=b'9') => Cow::Borrowed(self.number_text()?),
            _ => return self.expected(ALLOWED),
        };
        match text.parse::<i64>() {
            Ok(n) => Ok(n),
            Err(_) => self.fail(format!("\"{}\" is not allowed; allowed: {ALLOWED}", shown(&text))),
        }
    }

    fn double(&mut self) -> Res<f64> {
        const ALLOWED: &str = "a number, or \"NaN\", \"Infinity\" or \"-Infinity\"";
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => {
                let text = self.number_text()?;
                Ok(text.parse().unwrap_or(f64::NAN))
            }
            Some(b'"') => match self.string()?.as_ref() {
                "NaN" => Ok(f64::NAN),
                "Infinity" => Ok(f64::INFINITY),
                "-Infinity" => Ok(f64::NEG_INFINITY),
                other => match other.parse() {
                    Ok(x) => Ok(x),
                    Err(_) => self.fail(format!("\"{}\" is not allowed; allowed: {ALLOWED}", shown(other))),
                },
            },
            _ => self.expected(ALLOWED),
        }
    }

    fn boolean(&mut self) -> Res<bool> {
        match self.peek() {
            Some(b't') => self.word("true").map(|()| true),
            Some(b'f') => self.word("false").map(|()| false),
            _ => self.expected("true or false"),
        }
    }

    /// An enum: an integer the encoding allows, never its name.
    fn enumeration(&mut self, max: u64) -> Res<u64> {
        let allowed = format!("an integer from 0 to {max} (OTLP/JSON writes enums as integers)");
        let n = match self.peek() {
            Some(b'-' | b'0'..=b'9') => {
                let text = self.number_text()?;
                match text.parse::<u64>() {
                    Ok(n) => n,
                    Err(_) => return self.fail(format!("{} is not allowed; allowed: {allowed}", shown(text))),
                }
            }
            Some(b'"') => {
                let name = self.string()?;
                return self.fail(format!("\"{}\" is not allowed; allowed: {allowed}", shown(&name)));
            }
            _ => return self.expected(&allowed),
        };
        if n > max {
            return self.fail(format!("{n} is not a known value; allowed: {allowed}"));
        }
        Ok(n)
    }

    fn hex_id<const N: usize>(&mut self) -> Res<Option<[u8; N]>> {
        let text = self.string()?;
        if text.is_empty() {
            return Ok(None);
        }
        let allowed = format!("{} hex digits", N * 2);
        if text.len() != N * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return self.fail(format!("\"{}\" is not allowed; allowed: {allowed}", shown(&text)));
        }
        let mut out = [0u8; N];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).unwrap_or(0);
        }
        if out.iter().all(|&b| b == 0) {
            return self.fail(format!("an id of only zeros is not valid; allowed: {allowed}, not all zero"));
        }
        Ok(Some(out))
    }

    /// Skips any value, checking it is JSON.
    fn skip(&mut self, depth: usize) -> Res<()> {
        match self.peek() {
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(b'-' | b'0'..=b'9') => self.number_text().map(drop),
            Some(b'[' | b'{') if depth >= MAX_DEPTH => self.fail(format!("nested more than {MAX_DEPTH} deep")),
            Some(b'[') => self.array(|lex, _| lex.skip(depth + 1)),
            Some(b'{') => self.object(|lex, _| lex.skip(depth + 1)),
            None => self.fail("malformed JSON: the file ends in the middle of a value"),
            Some(_) => self.fail("malformed JSON: expected a value"),
        }
    }

    /// An object, each member handed to `member` with its name.
    fn object(&mut self, mut member: impl FnMut(&mut Self, &str) -> Res<()>) -> Res<()> {
        if !self.eat(b'{') {
            return self.expected("an object");
        }
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            if self.peek() != Some(b'"') {
                return self.fail("malformed JSON: expected a member name in quotes");
            }
            let name = self.string()?;
            if !self.eat(b':') {
                return self.fail("malformed JSON: expected : after a member name");
            }
            member(self, &name)?;
            if self.eat(b'}') {
                return Ok(());
            }
            if !self.eat(b',') {
                return self.fail("malformed JSON: expected , or } after a member");
            }
        }
    }

    fn array(&mut self, mut item: impl FnMut(&mut Self, usize) -> Res<()>) -> Res<()> {
        if !self.eat(b'[') {
            return self.expected("an array");
        }
        if self.eat(b']') {
            return Ok(());
        }
        let mut i = 0;
        loop {
            self.path.push(Seg::Index(i));
            item(self, i)?;
            self.path.pop();
            i += 1;
            if self.eat(b']') {
                return Ok(());
            }
            if !self.eat(b',') {
                return self.fail("malformed JSON: expected , or ] after an element");
            }
        }
    }

    /// `member` under the field `name` of the path.
    fn field<T>(&mut self, name: &'static str, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        self.path.push(Seg::Field(name));
        let out = f(self)?;
        self.path.pop();
        Ok(out)
    }
}

/// One `AnyValue`.
fn any_value(lex: &mut Lex, depth: usize) -> Res<Option<Value>> {
    if depth >= MAX_DEPTH {
        return lex.fail(format!("values nested more than {MAX_DEPTH} deep"));
    }
    let mut value = None;
    lex.object(|lex, name| {
        if lex.null()? {
            return Ok(());
        }
        let v = match name {
            "stringValue" => lex.field("stringValue", |l| l.string().map(|s| Value::Str(s.into_owned())))?,
            "boolValue" => lex.field("boolValue", |l| l.boolean().map(Value::Bool))?,
            "intValue" => lex.field("intValue", |l| l.signed().map(Value::Int))?,
            "doubleValue" => lex.field("doubleValue", |l| l.double().map(Value::Double))?,
            "bytesValue" => lex.field("bytesValue", |l| l.string().map(|s| Value::Bytes(s.as_bytes().to_vec())))?,
            "arrayValue" => lex.field("arrayValue", |l| {
                let mut items = Vec::new();
                l.object(|l, name| match name {
                    "values" => l.field("values", |l| {
                        l.array(|l, _| {
                            items.extend(any_value(l, depth + 1)?);
                            Ok(())
                        })
                    }),
                    _ => l.skip(depth + 1),
                })?;
                Ok(Value::Array(items))
            })?,
            "kvlistValue" => lex.field("kvlistValue", |l| {
                let mut members = Vec::new();
                l.object(|l, name| match name {
                    "values" => l.field("values", |l| key_values(l, &mut members, depth + 1)),
                    _ => l.skip(depth + 1),
                })?;
                Ok(Value::Map(members))
            })?,
            _ => return lex.skip(depth + 1),
        };
        value = Some(v);
        Ok(())
    })?;
    Ok(value)
}

/// A list of `KeyValue`s, appended to `out`.
fn key_values(lex: &mut Lex, out: &mut Vec<(String, Value)>, depth: usize) -> Res<()> {
    if lex.null()? {
        return Ok(());
    }
    lex.array(|lex, _| {
        if out.len() >= MAX_PER_SPAN {
            return lex.fail(format!("more than {MAX_PER_SPAN} attributes; allowed: at most {MAX_PER_SPAN}"));
        }
        let mut key = None;
        let mut value = None;
        lex.object(|lex, name| match name {
            "key" => lex.field("key", |l| {
                key = Some(l.string()?.into_owned());
                Ok(())
            }),
            "value" => lex.field("value", |l| {
                if !l.null()? {
                    value = any_value(l, depth + 1)?;
                }
                Ok(())
            }),
            _ => lex.skip(depth + 1),
        })?;
        match key {
            // An attribute without a value is an empty one; it is kept as
            // empty text.
            Some(key) => out.push((key, value.unwrap_or(Value::Str(String::new())))),
            None => return lex.fail("an attribute without a key; allowed: {\"key\": ..., \"value\": ...}"),
        }
        Ok(())
    })
}

/// What one span's fields said.
fn span(lex: &mut Lex, service: usize) -> Res<Span> {
    let line = lex.line;
    let mut s = Span { service, line, ..Span::default() };
    let (mut has_trace, mut has_span) = (false, false);
    let mut end_line = line;
    lex.object(|lex, name| {
        if lex.null()? {
            return Ok(());
        }
        match name {
            "traceId" => lex.field("traceId", |l| {
                let id = l.hex_id::<16>()?;
                has_trace = id.is_some();
                s.trace_id = TraceId(id.unwrap_or_default());
                Ok(())
            }),
            "spanId" => lex.field("spanId", |l| {
                let id = l.hex_id::<8>()?;
                has_span = id.is_some();
                s.span_id = SpanId(id.unwrap_or_default());
                Ok(())
            }),
            "parentSpanId" => lex.field("parentSpanId", |l| {
                s.parent = l.hex_id::<8>()?.map(SpanId);
                Ok(())
            }),
            "name" => lex.field("name", |l| {
                s.name = l.string()?.into_owned();
                Ok(())
            }),
            "kind" => lex.field("kind", |l| {
                s.kind = Kind::from_number(l.enumeration(5)?).unwrap_or_default();
                Ok(())
            }),
            "startTimeUnixNano" => lex.field("startTimeUnixNano", |l| {
                s.start_ns = l.whole("nanoseconds since 1970 as a whole number")?;
                Ok(())
            }),
            "endTimeUnixNano" => lex.field("endTimeUnixNano", |l| {
                end_line = l.line;
                s.end_ns = l.whole("nanoseconds since 1970 as a whole number")?;
                Ok(())
            }),
            "attributes" => lex.field("attributes", |l| key_values(l, &mut s.attributes, 0)),
            "events" => lex.field("events", |l| events(l, &mut s.events)),
            "status" => lex.field("status", |l| {
                l.object(|l, name| {
                    if l.null()? {
                        return Ok(());
                    }
                    match name {
                        "code" => l.field("code", |l| {
                            s.status = StatusCode::from_number(l.enumeration(2)?).unwrap_or_default();
                            Ok(())
                        }),
                        "message" => l.field("message", |l| {
                            s.status_message = l.string()?.into_owned();
                            Ok(())
                        }),
                        _ => l.skip(1),
                    }
                })
            }),
            _ => lex.skip(0),
        }
    })?;
    if !has_trace {
        return lex.fail("a span without a traceId; allowed: 32 hex digits");
    }
    if !has_span {
        return lex.fail("a span without a spanId; allowed: 16 hex digits");
    }
    if s.end_ns < s.start_ns {
        return Err(ReadError {
            line: end_line,
            field: format!("{}.endTimeUnixNano", lex.field_path()),
            problem: format!(
                "{} is before the start, {}; allowed: a span that ends when or after it starts",
                s.end_ns, s.start_ns
            ),
        });
    }
    Ok(s)
}

fn events(lex: &mut Lex, out: &mut Vec<Event>) -> Res<()> {
    lex.array(|lex, _| {
        if out.len() >= MAX_PER_SPAN {
            return lex.fail(format!("more than {MAX_PER_SPAN} events; allowed: at most {MAX_PER_SPAN}"));
        }
        let mut e = Event { name: String::new(), time_ns: 0, attributes: Vec::new() };
        lex.object(|lex, name| {
            if lex.null()? {
                return Ok(());
            }
            match name {
                "name" => lex.field("name", |l| {
                    e.name = l.string()?.into_owned();
                    Ok(())
                }),
                "timeUnixNano" => lex.field("timeUnixNano", |l| {
                    e.time_ns = l.whole("nanoseconds since 1970 as a whole number")?;
                    Ok(())
                }),
                "attributes" => lex.field("attributes", |l| key_values(l, &mut e.attributes, 0)),
                _ => lex.skip(0),
            }
        })?;
        out.push(e);
        Ok(())
    })
}

/// The `service.name` of a resource (`unknown_service` without one, as
/// the SDKs default).
fn resource(lex: &mut Lex) -> Res<String> {
    let mut attributes = Vec::new();
    lex.object(|lex, name| match name {
        "attributes" => lex.field("attributes", |l| key_values(l, &mut attributes, 0)),
        _ => lex.skip(0),
    })?;
    Ok(attributes
        .into_iter()
        .find(|(k, _)| k == "service.name")
        .and_then(|(_, v)| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "unknown_service".to_owned()))
}

/// One `ResourceSpans`: its service first (wherever it is written), then
/// its spans.
fn resource_spans(lex: &mut Lex, trace: &mut Trace, limits: Limits) -> Res<()> {
    // The resource may come after the spans: read the spans with a
    // placeholder service and set it at the end.
    let first = trace.spans.len();
    let mut service_name = None;
    lex.object(|lex, name| {
        if lex.null()? {
            return Ok(());
        }
        match name {
            "resource" => lex.field("resource", |l| {
                service_name = Some(resource(l)?);
                Ok(())
            }),
            "scopeSpans" => lex.field("scopeSpans", |l| {
                l.array(|l, _| {
                    l.object(|l, name| {
                        if l.null()? {
                            return Ok(());
                        }
                        match name {
                            "spans" => l.field("spans", |l| {
                                l.array(|l, _| {
                                    // On the span's own line, not after the comma before it.
                                    l.peek();
                                    if trace.spans.len() >= limits.spans {
                                        return l.fail(format!(
                                            "more than {} spans; allowed: at most {} spans in a file",
                                            limits.spans, limits.spans
                                        ));
                                    }
                                    let s = span(l, usize::MAX)?;
                                    trace.spans.push(s);
                                    Ok(())
                                })
                            }),
                            _ => l.skip(0),
                        }
                    })
                })
            }),
            _ => lex.skip(0),
        }
    })?;
    let service = trace.service(service_name.as_deref().unwrap_or("unknown_service"));
    for s in &mut trace.spans[first..] {
        s.service = service;
    }
    Ok(())
}

/// Reads an OTLP/JSON trace export: one document, or one per line.
pub fn read(text: &str, limits: Limits) -> Result<Reading, ReadError> {
    if text.len() > limits.bytes {
        return Err(ReadError {
            line: 1,
            field: String::new(),
            problem: format!("the file is {} bytes; allowed: at most {} bytes", text.len(), limits.bytes),
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lex = Lex { text, at: 0, line: 1, path: Vec::new() };
    let mut trace = Trace::default();
    let mut documents = 0;
    while lex.peek().is_some() {
        let mut found = false;
        lex.object(|lex, name| match name {
            "resourceSpans" => lex.field("resourceSpans", |l| {
                found = true;
                if l.null()? {
                    return Ok(());
                }
                l.array(|l, _| resource_spans(l, &mut trace, limits))
            }),
            _ => lex.skip(0),
        })?;
        if !found {
            return lex.fail("a document without resourceSpans; allowed: an OTLP/JSON trace export");
        }
        documents += 1;
    }
    if documents == 0 {
        return lex.fail("the file is empty; allowed: an OTLP/JSON trace export");
    }
    let warnings = link_parents(&mut trace)?;
    Ok(Reading { trace, warnings })
}

/// Checks that span ids are unique within their trace, and reads a span
/// whose parent is not in the file as a root, with a warning.
fn link_parents(trace: &mut Trace) -> Result<Vec<ReadError>, ReadError> {
    let mut by_id: HashMap<(TraceId, SpanId), usize> = HashMap::with_capacity(trace.spans.len());
    for (i, s) in trace.spans.iter().enumerate() {
        if by_id.insert((s.trace_id, s.span_id), i).is_some() {
            return Err(ReadError {
                line: s.line,
                field: "spanId".to_owned(),
                problem: format!(
                    "{} is a second span with this id in trace {}; allowed: one span per id",
                    s.span_id, s.trace_id
                ),
            });
        }
    }
    let mut warnings = Vec::new();
    for s in &mut trace.spans {
        if let Some(p) = s.parent
            && !by_id.contains_key(&(s.trace_id, p))
        {
            warnings.push(ReadError {
                line: s.line,
                field: "parentSpanId".to_owned(),
                problem: format!(
                    "span \"{}\" names parent {p}, which is not in the file; it is read as a root",
                    shown(&s.name)
                ),
            });
            s.parent = None;
        }
    }
    Ok(warnings)
}
