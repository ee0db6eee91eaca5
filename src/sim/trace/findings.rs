//! What a trace says about idempotency, reconstructed by the [`Rules`]:
//!
//! - an **attempt** is a client span (kind CLIENT, not under any SERVER
//!   span: the call starts at the edge) that asks for something to be done:
//!   an HTTP request whose method is not GET, HEAD, OPTIONS or TRACE, or an
//!   MCP `tools/call` that carries the request_key argument;
//! - attempts belong to one **intent** when they carry the same key (the
//!   captured key header or the request_key argument), or when one retries
//!   another: it has `http.request.resend_count` 1 or more and the same
//!   parent as the attempt before it;
//! - a **server operation** is a SERVER span under an attempt;
//! - an **effect** is a span that carries the effect attribute, or a
//!   database write to the effect table, counted where it was performed (a
//!   client's span of the write is not counted again when the database's
//!   own span of it is there); it belongs to the intent of the attempt it is
//!   under, or, when it is under none (a reconciler's resend), to the intent
//!   whose key its nearest keyed span carries;
//! - the **client's final status** is the status of the span all of the
//!   intent's attempts are children of (the logical operation), or else that
//!   of its last attempt.

use std::collections::HashMap;

use super::read::{ReadError, Reading};
use super::rules::{ARGUMENTS, Rules};
use super::span::{Kind, Span, SpanId, StatusCode, Trace, TraceId, Value};

/// How the client's intent ended, as the trace shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientStatus {
    Succeeded,
    /// A final answer that retrying cannot change (a 4xx other than 408,
    /// 409, 425 and 429).
    Rejected,
    /// It stopped without a success: out of attempts or time, or an error.
    GaveUp,
}

impl ClientStatus {
    pub fn name(self) -> &'static str {
        match self {
            ClientStatus::Succeeded => "succeeded",
            ClientStatus::Rejected => "rejected",
            ClientStatus::GaveUp => "gave up",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub span: usize,
    pub intent: usize,
    pub key: Option<String>,
    pub resend: Option<i64>,
    /// The SERVER spans directly under it.
    pub operations: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    pub span: usize,
    pub intent: Option<usize>,
    /// When it was done: its span's end.
    pub at_ns: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    /// Its key, or the name of its first attempt when it has none.
    pub label: String,
    /// Every key its attempts carried, in the order first sent.
    pub keys: Vec<String>,
    /// Indices into [`Findings::attempts`], in the order sent.
    pub attempts: Vec<usize>,
    /// Indices into [`Findings::effects`], in the order done.
    pub effects: Vec<usize>,
    pub status: Option<ClientStatus>,
    /// When the client knew its status, and the span that says it.
    pub status_at: Option<u64>,
    pub status_span: Option<usize>,
    pub business_key: Option<String>,
    /// The service of its first attempt: the client.
    pub client: usize,
}

/// The spans of a file and what the rules make of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Findings {
    pub trace: Trace,
    pub warnings: Vec<ReadError>,
    pub rules: Rules,
    /// Each span's parent, as an index.
    pub parents: Vec<Option<usize>>,
    pub attempts: Vec<Attempt>,
    pub intents: Vec<Intent>,
    pub effects: Vec<Effect>,
}

const SAFE_METHODS: [&str; 4] = ["GET", "HEAD", "OPTIONS", "TRACE"];
const WRITES: [&str; 6] = ["INSERT", "UPDATE", "DELETE", "UPSERT", "MERGE", "REPLACE"];

/// A tool call argument of an MCP span: from the arguments as a JSON
/// object written as text, or as a map.
pub fn argument(span: &Span, name: &str) -> Option<String> {
    match span.attr(ARGUMENTS)? {
        Value::Str(text) => match crate::sim::json::parse(text).ok()?.get(name)? {
            crate::sim::json::Json::Str(s) => Some(s.clone()),
            crate::sim::json::Json::Num(n) => Some(n.clone()),
            _ => None,
        },
        Value::Map(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v.show()),
        _ => None,
    }
}

/// The database operation a span performed, from `db.operation.name` or the
/// first word of `db.query.text`, in upper case.
pub fn db_operation(span: &Span) -> Option<String> {
    let op = span
        .str_attr("db.operation.name")
        .map(str::to_owned)
        .or_else(|| span.str_attr("db.query.text").and_then(|q| q.split_whitespace().next()).map(str::to_owned))?;
    Some(op.to_ascii_uppercase())
}

/// The table a database span worked on: `db.collection.name`, or the word
/// after INTO, UPDATE or FROM in its query.
pub fn db_table(span: &Span) -> Option<String> {
    if let Some(t) = span.str_attr("db.collection.name") {
        return Some(t.to_owned());
    }
    let query = span.str_attr("db.query.text")?;
    let words: Vec<&str> = query.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| ["INTO", "UPDATE", "FROM"].iter().any(|k| w[0].eq_ignore_ascii_case(k)))
        .map(|w| w[1].trim_matches(|c: char| !c.is_alphanumeric() && c != '_').to_owned())
}

fn is_write(span: &Span) -> bool {
    db_operation(span).is_some_and(|op| WRITES.contains(&op.as_str()))
}

impl Findings {
    /// Reconstructs what `reading` says under `rules`.
    pub fn of(reading: Reading, rules: &Rules) -> Findings {
        let Reading { trace, warnings } = reading;
        let parents = parent_indices(&trace);
        let mut f = Findings { trace, warnings, rules: rules.clone(), parents, ..Findings::default() };
        f.find_attempts();
        f.group_intents();
        f.find_effects();
        f.find_statuses();
        f
    }

    /// `i`'s ancestors, nearest first (bounded, so a loop of parents in a
    /// hostile file ends).
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = i;
        (0..self.parents.len()).map_while(move |_| {
            at = self.parents[at]?;
            Some(at)
        })
    }

    fn key_of(&self, span: &Span) -> Option<String> {
        span.str_attr(&self.rules.key_attribute())
            .map(str::to_owned)
            .or_else(|| argument(span, &self.rules.request_key_argument))
    }

    fn is_attempt(&self, i: usize) -> bool {
        let s = &self.trace.spans[i];
        if s.kind != Kind::Client || self.ancestors(i).any(|a| self.trace.spans[a].kind == Kind::Server) {
            return false;
        }
        if s.str_attr("mcp.method.name") == Some("tools/call") {
            return argument(s, &self.rules.request_key_argument).is_some();
        }
        s.str_attr("http.request.method").is_some_and(|m| !SAFE_METHODS.contains(&m.to_ascii_uppercase().as_str()))
    }

    fn find_attempts(&mut self) {
        let mut attempts: Vec<Attempt> = (0..self.trace.spans.len())
            .filter(|&i| self.is_attempt(i))
            .map(|i| {
                let s = &self.trace.spans[i];
                Attempt {
                    span: i,
                    intent: 0,
                    key: self.key_of(s),
                    resend: s.int_attr("http.request.resend_count"),
                    operations: Vec::new(),
                }
            })
            .collect();
        attempts.sort_by_key(|a| (self.trace.spans[a.span].start_ns, a.span));
        let index: HashMap<usize, usize> = attempts.iter().enumerate().map(|(n, a)| (a.span, n)).collect();
        for (i, p) in self.parents.iter().enumerate() {
            if let Some(&n) = p.and_then(|p| index.get(&p))
                && self.trace.spans[i].kind == Kind::Server
            {
                attempts[n].operations.push(i);
            }
        }
        self.attempts = attempts;
    }

    /// Unites attempts that share a key or retry one another.
    fn group_intents(&mut self) {
        let n = self.attempts.len();
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut i: usize) -> usize {
            while root[i] != i {
                root[i] = root[root[i]];
                i = root[i];
            }
            i
        }
        let mut by_key: HashMap<&str, usize> = HashMap::new();
        let mut last_under: HashMap<usize, usize> = HashMap::new();
        for (i, a) in self.attempts.iter().enumerate() {
            if let Some(k) = &a.key {
                if let Some(&j) = by_key.get(k.as_str()) {
                    let (ri, rj) = (find(&mut root, i), find(&mut root, j));
                    root[ri] = rj;
                } else {
                    by_key.insert(k.as_str(), i);
                }
            }
            if let Some(p) = self.parents[a.span] {
                if let (Some(&j), Some(1..)) = (last_under.get(&p), a.resend) {
                    let (ri, rj) = (find(&mut root, i), find(&mut root, j));
                    root[ri] = rj;
                }
                last_under.insert(p, i);
            }
        }
        let mut intent_of: HashMap<usize, usize> = HashMap::new();
        for i in 0..n {
            let r = find(&mut root, i);
            let next = self.intents.len();
            let id = *intent_of.entry(r).or_insert(next);
            if id == next {
                let s = &self.trace.spans[self.attempts[i].span];
                self.intents.push(Intent {
                    label: String::new(),
                    keys: Vec::new(),
                    attempts: Vec::new(),
                    effects: Vec::new(),
                    status: None,
                    status_at: None,
                    status_span: None,
                    business_key: argument(s, &self.rules.business_key_argument),
                    client: s.service,
                });
            }
            self.attempts[i].intent = id;
            let intent = &mut self.intents[id];
            intent.attempts.push(i);
            if let Some(k) = &self.attempts[i].key
                && !intent.keys.contains(k)
            {
                intent.keys.push(k.clone());
            }
            if intent.business_key.is_none() {
                intent.business_key =
                    argument(&self.trace.spans[self.attempts[i].span], &self.rules.business_key_argument);
            }
        }
        for intent in &mut self.intents {
            intent.label = match intent.keys.first() {
                Some(k) => k.clone(),
                None => self.trace.spans[self.attempts[intent.attempts[0]].span].name.clone(),
            };
        }
    }

    fn marks_effect(&self, s: &Span) -> bool {
        match s.attr(&self.rules.effect_attribute) {
            Some(Value::Bool(false)) => false,
            Some(_) => true,
            None => is_write(s) && db_table(s).is_some_and(|t| t.eq_ignore_ascii_case(&self.rules.effect_table)),
        }
    }

    fn find_effects(&mut self) {
        let marked: Vec<bool> = self.trace.spans.iter().map(|s| self.marks_effect(s)).collect();
        // A write seen from its caller and from the database is one effect:
        // the database's.
        let mut seen_below = vec![false; marked.len()];
        for (i, &m) in marked.iter().enumerate() {
            if m && let Some(p) = self.parents[i] {
                seen_below[p] = true;
            }
        }
        let by_span: HashMap<usize, usize> = self.attempts.iter().map(|a| (a.span, a.intent)).collect();
        let mut by_key: HashMap<&str, usize> = HashMap::new();
        for (i, intent) in self.intents.iter().enumerate() {
            for k in &intent.keys {
                by_key.entry(k.as_str()).or_insert(i);
            }
        }
        let mut effects = Vec::new();
        for i in (0..marked.len()).filter(|&i| marked[i] && !seen_below[i]) {
            let mut intent = self.ancestors(i).find_map(|a| by_span.get(&a).copied());
            if intent.is_none() {
                intent = std::iter::once(i)
                    .chain(self.ancestors(i))
                    .find_map(|a| self.key_of(&self.trace.spans[a]))
                    .and_then(|k| by_key.get(k.as_str()).copied());
            }
            effects.push(Effect { span: i, intent, at_ns: self.trace.spans[i].end_ns });
        }
        effects.sort_by_key(|e| (e.at_ns, e.span));
        for (n, e) in effects.iter().enumerate() {
            if let Some(i) = e.intent {
                self.intents[i].effects.push(n);
            }
        }
        self.effects = effects;
    }

    /// What one attempt's span says of how it ended.
    fn attempt_status(s: &Span) -> ClientStatus {
        let code = s.int_attr("http.response.status_code");
        let failed = s.status == StatusCode::Error || s.attr("error.type").is_some() || code.is_some_and(|c| c >= 400);
        match code {
            Some(c) if failed && (400..500).contains(&c) && ![408, 409, 425, 429].contains(&c) => {
                ClientStatus::Rejected
            }
            _ if failed => ClientStatus::GaveUp,
            _ => ClientStatus::Succeeded,
        }
    }

    fn find_statuses(&mut self) {
        for intent in &mut self.intents {
            let spans: Vec<usize> = intent
                .attempts
                .iter()
                .map(|&a| self.attempts[a].span)
                .filter(|&s| self.trace.spans[s].service == intent.client)
                .collect();
            let Some(&last) = spans.iter().max_by_key(|&&s| (self.trace.spans[s].start_ns, s)) else {
                continue;
            };
            let from_last = Findings::attempt_status(&self.trace.spans[last]);
            let parent = self.parents[spans[0]].filter(|&p| {
                spans.iter().all(|&s| self.parents[s] == Some(p))
                    && self.trace.spans[p].service == intent.client
                    && self.trace.spans[p].status != StatusCode::Unset
            });
            let (status, span) = match parent {
                Some(p) if self.trace.spans[p].status == StatusCode::Ok => (ClientStatus::Succeeded, p),
                Some(p) if from_last == ClientStatus::Succeeded => (ClientStatus::GaveUp, p),
                Some(p) => (from_last, p),
                None => (from_last, last),
            };
            intent.status = Some(status);
            intent.status_at = Some(self.trace.spans[span].end_ns);
            intent.status_span = Some(span);
        }
    }
}

fn parent_indices(trace: &Trace) -> Vec<Option<usize>> {
    let by_id: HashMap<(TraceId, SpanId), usize> =
        trace.spans.iter().enumerate().map(|(i, s)| ((s.trace_id, s.span_id), i)).collect();
    trace.spans.iter().map(|s| s.parent.and_then(|p| by_id.get(&(s.trace_id, p)).copied())).collect()
}
