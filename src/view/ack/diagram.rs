//! The lost-acknowledgement lab's timeline: its actors' lanes (the client,
//! the network, the server, the deduplication store and the ledger) and how
//! each fact is drawn on them.

use crate::sim::Millis;
use crate::sim::ack::{Decision, ExhaustedBy, OpId, OpKey, Outcome, Payload, PayloadMode, Record, Run, Status, What};
use crate::view::timeline::{Builder, Diagram, Frame, Glyph, LEFT, LaneSpec, LaneStyle, Y};

use super::broke::{Break, Place, where_it_broke};
use super::sentences::{crash_point_text, increments, status_word};

const CLIENT: usize = 1;
const NETWORK: usize = 2;
const SERVER: usize = 3;
const STORE: usize = 4;
const LEDGER: usize = 5;

/// The lanes, one per actor, in the order the diagram stacks them.
pub fn lanes() -> Vec<LaneSpec> {
    let lane = |title: &str, short: &str, style| LaneSpec { title: title.to_owned(), short: short.to_owned(), style };
    vec![
        lane("Model time", "t", LaneStyle::Axis),
        lane("Client", "Cli", LaneStyle::LabelsAbove),
        lane("Network", "Net", LaneStyle::Between),
        lane("Server", "Srv", LaneStyle::LabelsBelow),
        lane("Dedup store", "Ddp", LaneStyle::LabelsBelow),
        lane("Ledger", "Ldg", LaneStyle::LabelsBelow),
    ]
}

fn response_class(status: Status) -> &'static str {
    match status {
        Status::Success => "response success",
        Status::Unavailable => "response unavailable",
        Status::Rejected => "response rejected",
        Status::Conflict => "response conflict",
        Status::Unprocessable => "response unprocessable",
        Status::Refused => "response refused",
    }
}

/// One attempt's deadline window: sent, due, and when it was decided.
struct Window {
    attempt: u32,
    sent: Millis,
    deadline: Millis,
    decided: Option<Millis>,
    record: usize,
}

/// How a reservation ends: when, and whether it was still protecting the
/// key (the bar is solid while the lease runs, dashed after it).
struct Held {
    op: OpId,
    key: OpKey,
    from: Millis,
    lease_ends: Millis,
    until: Option<Millis>,
    orphaned: bool,
}

struct Draw<'a> {
    b: Builder,
    windows: Vec<Window>,
    held: Vec<Held>,
    /// The server row of each operation.
    op_rows: Vec<(OpId, usize)>,
    /// The store row of each key's latest reservation or result.
    key_rows: Vec<(OpKey, usize)>,
    payloads: bool,
    records: &'a [Record],
}

/// The times the axis of `run`'s diagram stops at: every event time and
/// the deadlines inside the run.
pub fn stop_times(run: &Run) -> Vec<Millis> {
    let records = run.records();
    let end = run.end();
    let mut times: Vec<Millis> = records.iter().map(|r| r.t).collect();
    times.extend(records.iter().filter_map(|r| match r.what {
        What::AttemptSent { deadline, .. } if deadline <= end => Some(deadline),
        _ => None,
    }));
    times
}

pub fn diagram(run: &Run) -> Diagram {
    diagram_in(run, Frame::Across(None))
}

/// The run's diagram alone, drawn for `frame`.
pub fn diagram_in(run: &Run, frame: Frame) -> Diagram {
    diagram_on(run, stop_times(run), run.end(), frame)
}

/// `run` drawn on an axis with a stop at each of `times`, ending at `end`,
/// drawn for `frame` (the timeline fitted to a width where it can be, see
/// `Builder::fitted`, or the sequence diagram): two runs
/// drawn with the union of their stops and the later end share one clock,
/// so the same model time is at the same x in both timelines (a sequence
/// diagram gives each moment the room its own run's labels need, so two of
/// them share their moments but not their heights).
pub fn diagram_on(run: &Run, times: Vec<Millis>, end: Millis, frame: Frame) -> Diagram {
    let records = run.records();
    let mut d = Draw {
        b: Builder::framed(lanes(), times, end, frame),
        windows: Vec::new(),
        held: reservation_spans(records),
        op_rows: Vec::new(),
        key_rows: Vec::new(),
        payloads: run.settings().client.payload == PayloadMode::Changed,
        records,
    };
    if !run.settings().dedup() {
        let text = "deduplication is off: the server does not look at keys".to_owned();
        d.b.label(STORE, LEFT, text, "label dedup-off", Millis::ZERO, None);
    }
    if let Some(overall) = run.settings().client.deadline.filter(|&t| t <= end) {
        let x = d.b.x(overall);
        d.b.mark(x, Y::Track(CLIENT), Glyph::Bar, "mark overall-deadline", overall, None);
        d.b.label(CLIENT, x, format!("overall deadline {overall}"), "label deadline-label", overall, None);
    }
    for (i, r) in records.iter().enumerate() {
        d.record(i, r);
    }
    d.close_windows();
    if let Some(b) = where_it_broke(run) {
        d.broke(&b);
    }
    let summary = summary_sentence(run);
    d.b.finish(summary)
}

/// The lane of the diagram where a break's place is.
fn lane_of(place: Place) -> usize {
    match place {
        Place::Client => CLIENT,
        Place::Network => NETWORK,
        Place::Server => SERVER,
        Place::DedupStore => STORE,
    }
}

impl Draw<'_> {
    fn op_row(&self, op: OpId) -> usize {
        self.op_rows.iter().rev().find(|(o, _)| *o == op).map_or(0, |(_, r)| *r)
    }

    fn key_row(&self, key: OpKey) -> usize {
        self.key_rows.iter().rev().find(|(k, _)| *k == key).map_or(0, |(_, r)| *r)
    }

    fn decide(&mut self, attempt: u32, t: Millis) {
        if let Some(w) = self.windows.iter_mut().rev().find(|w| w.attempt == attempt && w.decided.is_none()) {
            w.decided = Some(t);
        }
    }

    fn payload_note(&self, payload: Payload) -> String {
        if self.payloads { format!(" · payload {}", payload.name()) } else { String::new() }
    }

    fn decision(&mut self, t: Millis, decision: Decision, i: usize) {
        if let Decision::Retry { at, delay, .. } = decision {
            let (x1, x2) = (self.b.x(t), self.b.x(at));
            self.b.line((x1, Y::Track(CLIENT)), (x2, Y::Track(CLIENT)), false, "backoff", t, Some(i));
            if delay.ms() > 0 {
                self.b.label(CLIENT, x1 + 4.0, format!("backoff {delay}"), "label backoff-label", t, Some(i));
            }
        }
    }

    /// Draws one fact on the lanes of the actor that emits it.
    fn record(&mut self, i: usize, r: &Record) {
        match r.what {
            What::AttemptSent { .. }
            | What::ResponseDelivered { .. }
            | What::ResponseLate { .. }
            | What::AttemptTimedOut { .. } => self.client(i, r),
            What::ResponseLost { .. } | What::RequestLost { .. } => self.network(i, r),
            What::RequestRefused { .. }
            | What::RequestRejected
            | What::RequestUnavailable
            | What::PayloadMismatch { .. }
            | What::InFlightConflict { .. }
            | What::OperationStarted { .. }
            | What::ServerRestarted { .. } => self.server(i, r),
            What::DedupJoined { .. }
            | What::DedupReplayed { .. }
            | What::StoredResultExpired { .. }
            | What::LeaseEnded { .. } => self.store(i, r),
            What::OperationCommitted { .. } | What::ServerCrashed { .. } => self.ledger(i, r),
        }
    }

    /// What the client does: each attempt it sends, the answers it hears
    /// (in time or late), its timeouts, and what each of them decides.
    fn client(&mut self, i: usize, r: &Record) {
        let (t, n, x, here) = (r.t, r.attempt, self.b.x(r.t), Some(i));
        let key_text = r.key.map_or_else(String::new, |k| k.to_string());
        match r.what {
            What::AttemptSent { deadline, arrives_at, payload } => {
                self.windows.push(Window { attempt: n, sent: t, deadline, decided: None, record: i });
                let xa = self.b.x(arrives_at);
                // A request the network loses stops at the network's lane.
                let lost = self.records.iter().any(|o| o.attempt == n && matches!(o.what, What::RequestLost { .. }));
                let (to, class) = if lost { (NETWORK, "request lost") } else { (SERVER, "request") };
                self.b.line((x, Y::Track(CLIENT)), (xa, Y::Track(to)), !lost, class, t, here);
                let text = format!("attempt {n} sent · key {key_text}{}", self.payload_note(payload));
                self.b.label(CLIENT, x, text, "label send-label", t, here);
            }
            What::ResponseDelivered { status, sent_at, decision } => {
                self.decide(n, t);
                let xs = self.b.x(sent_at);
                self.b.line((xs, Y::Track(SERVER)), (x, Y::Track(CLIENT)), true, response_class(status), sent_at, here);
                let word = status_word(status);
                let (glyph, text) = match decision {
                    Decision::Done(Outcome::Succeeded) => {
                        (Glyph::Tick, format!("success for attempt {n}: client reports success"))
                    }
                    Decision::Done(Outcome::Rejected(_)) => {
                        (Glyph::Cross, format!("{word} for attempt {n}: rejected, no retry"))
                    }
                    Decision::Done(Outcome::Exhausted(by)) => {
                        (Glyph::Cross, format!("{word} for attempt {n}: exhausted ({})", exhausted_word(by)))
                    }
                    Decision::Retry { .. } => (Glyph::Cross, format!("{word} for attempt {n}: retry")),
                };
                self.b.mark(x, Y::Track(CLIENT), glyph, "mark delivered", t, here);
                self.b.label(CLIENT, x, text, "label delivered-label", t, here);
                self.decision(t, decision, i);
            }
            What::ResponseLate { status, sent_at } => {
                let xs = self.b.x(sent_at);
                self.b.line((xs, Y::Track(SERVER)), (x, Y::Track(CLIENT)), true, "response late", sent_at, here);
                let text = format!("late {} for attempt {n}: ignored", status_word(status));
                self.b.label(CLIENT, x, text, "label late-label", t, here);
            }
            What::AttemptTimedOut { decision } => {
                self.decide(n, t);
                self.b.mark(x, Y::Track(CLIENT), Glyph::Bar, "mark timeout", t, here);
                let text = match decision {
                    Decision::Done(outcome) => format!(
                        "attempt {n} times out: exhausted ({})",
                        exhausted_word(outcome.exhausted_by().unwrap_or(ExhaustedBy::Attempts))
                    ),
                    Decision::Retry { .. } => format!("attempt {n} times out"),
                };
                self.b.label(CLIENT, x, text, "label timeout-label", t, here);
                self.decision(t, decision, i);
            }
            _ => unreachable!("record() hands the client only its own facts"),
        }
    }

    /// A request or a response the network loses: its arrow stops at the
    /// network's lane.
    fn network(&mut self, i: usize, r: &Record) {
        let (t, n, x, here) = (r.t, r.attempt, self.b.x(r.t), Some(i));
        match r.what {
            What::ResponseLost { status, sent_at } => {
                let xs = self.b.x(sent_at);
                self.b.line((xs, Y::Track(SERVER)), (x, Y::Track(NETWORK)), false, "response lost", sent_at, here);
                self.b.mark(x, Y::Track(NETWORK), Glyph::Cross, "mark lost", t, here);
                let text = format!("{} for attempt {n} lost", status_word(status));
                self.b.label(NETWORK, x + 8.0, text, "label lost-label", t, here);
            }
            What::RequestLost { .. } => {
                self.b.mark(x, Y::Track(NETWORK), Glyph::Cross, "mark lost", t, here);
                let text = format!("request of attempt {n} lost");
                self.b.label(NETWORK, x + 8.0, text, "label lost-label", t, here);
            }
            _ => unreachable!("record() hands the network only its own facts"),
        }
    }

    /// How the server answers a request: a refusal, an answer without
    /// effect, or an operation it starts (with the key it reserves); and its
    /// restart after a crash.
    fn server(&mut self, i: usize, r: &Record) {
        let (t, n, x, here) = (r.t, r.attempt, self.b.x(r.t), Some(i));
        let key = r.key;
        match r.what {
            What::RequestRefused { .. } => {
                self.b.mark(x, Y::Track(SERVER), Glyph::Cross, "mark refused", t, here);
                self.b.label(SERVER, x, format!("refused: server down (attempt {n})"), "label refused-label", t, here);
            }
            What::RequestRejected => {
                self.b.mark(x, Y::Track(SERVER), Glyph::Cross, "mark rejected", t, here);
                self.b.label(SERVER, x, format!("400: attempt {n} rejected"), "label", t, here);
            }
            What::RequestUnavailable => {
                self.b.mark(x, Y::Track(SERVER), Glyph::Cross, "mark unavailable", t, here);
                self.b.label(SERVER, x, format!("503: attempt {n} not executed"), "label", t, here);
            }
            What::PayloadMismatch { origin, expected, .. } => {
                self.b.mark(x, Y::Track(SERVER), Glyph::Cross, "mark unprocessable", t, here);
                let other = if expected == Payload::A { "B" } else { "A" };
                let text = format!("422: attempt {n}'s payload {other} ≠ attempt {origin}'s {}", expected.name());
                self.b.label(SERVER, x, text, "label mismatch", t, here);
            }
            What::InFlightConflict { origin } => {
                let row = self.op_of(origin, key).map_or(0, |op| self.op_row(op));
                self.b.mark(x, Y::Bar(SERVER, row), Glyph::Cross, "mark conflict", t, here);
                let text = format!("409: attempt {n} conflicts with attempt {origin}'s operation");
                self.b.label(SERVER, x, text, "label conflict-label", t, here);
            }
            What::OperationStarted { op, reserved, commits_at, lease_ends, payload, took_over } => {
                let xc = self.b.x(commits_at);
                let row = self.b.bar_row(SERVER, x, xc);
                self.op_rows.push((op, row));
                self.b.bar(x, xc, Y::Bar(SERVER, row), "operation", t, here);
                let text = format!("attempt {n} executes{}", self.payload_note(payload));
                self.b.label(SERVER, x, text, "label", t, here);
                if let (true, Some(key), Some(_)) = (reserved, key, lease_ends) {
                    self.reservation(op, key, i);
                    let label = if took_over { format!("{key} reserved again") } else { format!("{key} reserved") };
                    self.b.label(STORE, x, label, "label", t, here);
                }
            }
            What::ServerRestarted { .. } => {
                self.b.mark(x, Y::Track(SERVER), Glyph::Tick, "mark restart", t, here);
                self.b.label(SERVER, x, "server restarts".to_owned(), "label", t, here);
            }
            _ => unreachable!("record() hands the server only its own facts"),
        }
    }

    /// What the deduplication store makes of a key: a join to the operation
    /// that holds it, a replay of its stored result, and the ends of results
    /// and leases.
    fn store(&mut self, i: usize, r: &Record) {
        let (t, n, x, here) = (r.t, r.attempt, self.b.x(r.t), Some(i));
        let key = r.key;
        let key_text = r.key.map_or_else(String::new, |k| k.to_string());
        match r.what {
            What::DedupJoined { origin, commits_at, mismatched } => {
                let row = self.op_of(origin, key).map_or(0, |op| self.op_row(op));
                self.b.mark(x, Y::Bar(SERVER, row), Glyph::Diamond, "mark join", t, here);
                let mut text = match commits_at {
                    Some(_) => format!("attempt {n} joins attempt {origin}'s operation"),
                    None => format!("attempt {n} joins attempt {origin}'s dead operation: no answer will come"),
                };
                if mismatched {
                    text.push_str(" · payload mismatch");
                }
                let class =
                    if mismatched || commits_at.is_none() { "label join-label mismatch" } else { "label join-label" };
                self.b.label(SERVER, x, text, class, t, here);
            }
            What::DedupReplayed { value, mismatched, .. } => {
                let row = key.map_or(0, |k| self.key_row(k));
                self.b.line((x, Y::Bar(STORE, row)), (x, Y::Track(SERVER)), true, "replay", t, here);
                self.b.mark(x, Y::Bar(STORE, row), Glyph::Diamond, "mark replay", t, here);
                if mismatched {
                    let text =
                        format!("replayed to attempt {n} (counter {value}) · payload B ≠ stored A: mismatched hit");
                    self.b.label(STORE, x, text, "label replay-label mismatch", t, here);
                } else {
                    let text = format!("replayed to attempt {n} (counter {value})");
                    self.b.label(STORE, x, text, "label replay-label", t, here);
                }
            }
            What::StoredResultExpired { .. } => {
                let row = key.map_or(0, |k| self.key_row(k));
                self.b.mark(x, Y::Bar(STORE, row), Glyph::Bar, "mark expired", t, here);
                self.b.label(STORE, x, format!("{key_text} result expires"), "label", t, here);
            }
            What::LeaseEnded { orphaned, .. } => {
                let text = if orphaned {
                    format!("lease on {key_text} ends: orphaned reservation cleared")
                } else {
                    format!("lease on {key_text} ends while attempt {n} still runs")
                };
                self.b.mark(x, Y::Track(STORE), Glyph::Bar, "mark lease-ended", t, here);
                self.b.label(STORE, x, text, "label lease-label", t, here);
            }
            _ => unreachable!("record() hands the store only its own facts"),
        }
    }

    /// A commit, where the ledger gets its increment and the store its
    /// result, or the crash that interrupts it.
    fn ledger(&mut self, i: usize, r: &Record) {
        let (t, n, x, here) = (r.t, r.attempt, self.b.x(r.t), Some(i));
        let key = r.key;
        match r.what {
            What::OperationCommitted { op, value, payload, stored_until, .. } => {
                let row = self.op_row(op);
                self.b.mark(x, Y::Bar(SERVER, row), Glyph::Tick, "mark commit", t, here);
                self.b.label(SERVER, x, format!("attempt {n} commits"), "label", t, here);
                self.increment(x, t, n, value, payload, i);
                if let (Some(key), Some(until)) = (key, stored_until) {
                    self.stored(key, x, t, until, i);
                }
            }
            What::ServerCrashed { op, point, applied, stored_until, wiped, restarts_at, lost_operations, .. } => {
                let xr = self.b.x_clamped(restarts_at);
                self.b.bar(x, xr, Y::Bar(SERVER, 0), "down", t, here);
                self.b.mark(x, Y::Track(SERVER), Glyph::Cross, "mark crash", t, here);
                let lost = if lost_operations > 0 {
                    format!("; {lost_operations} other operation(s) lost")
                } else {
                    String::new()
                };
                let text = format!("crash {}{lost}; down until {restarts_at}", crash_point_text(point));
                self.b.label(SERVER, x, text, "label crash-label", t, here);
                if let Some(value) = applied {
                    self.increment(x, t, n, value, self.op_payload(op), i);
                }
                if wiped {
                    self.b.label(STORE, x, "store wiped by the crash".to_owned(), "label mismatch", t, here);
                } else if let (Some(key), Some(until)) = (key, stored_until) {
                    self.stored(key, x, t, until, i);
                }
            }
            _ => unreachable!("record() hands the ledger only its own facts"),
        }
    }

    /// The operation attempt `origin` started under `key`.
    fn op_of(&self, origin: u32, key: Option<OpKey>) -> Option<OpId> {
        self.records.iter().find_map(|r| match r.what {
            What::OperationStarted { op, .. } if r.attempt == origin && r.key == key => Some(op),
            _ => None,
        })
    }

    fn op_payload(&self, op: OpId) -> Payload {
        self.records
            .iter()
            .find_map(|r| match r.what {
                What::OperationStarted { op: o, payload, .. } if o == op => Some(payload),
                _ => None,
            })
            .unwrap_or(Payload::A)
    }

    fn increment(&mut self, x: f64, t: Millis, n: u32, value: u64, payload: Payload, i: usize) {
        self.b.mark(x, Y::Track(LEDGER), Glyph::Dot, "mark increment", t, Some(i));
        let payload = if self.payloads { format!(", payload {}", payload.name()) } else { String::new() };
        let text = format!("+1 → counter {value} (attempt {n}{payload})");
        self.b.label(LEDGER, x, text, "label increment-label", t, Some(i));
    }

    fn stored(&mut self, key: OpKey, x: f64, t: Millis, until: Millis, i: usize) {
        let xe = self.b.x_clamped(until);
        let row = self.b.bar_row(STORE, x, xe);
        self.key_rows.push((key, row));
        self.b.bar(x, xe, Y::Bar(STORE, row), "stored", t, Some(i));
        let more = if until > self.b.end() { " →" } else { "" };
        self.b.label(STORE, x, format!("{key} result stored until {until}{more}"), "label", t, Some(i));
    }

    /// Where idempotency broke: the place in its lane, ringed and named,
    /// and the duplicate increment linked back to the first one.
    fn broke(&mut self, b: &Break) {
        let (at, first, dup) = (self.records[b.at], self.records[b.first], self.records[b.duplicate]);
        let (lane, x) = (lane_of(b.place), self.b.x(at.t));
        // Marked from the moment the duplicate commits, when it has broken,
        // so that the mark gives nothing away before then.
        self.b.spot(lane, x - 16.0, x + 16.0, "broke-spot", dup.t, Some(b.at));
        self.b.mark(x, Y::Track(lane), Glyph::Ring, "mark broke-ring", dup.t, Some(b.at));
        self.b.label(lane, x, "where it broke".to_owned(), "label broke-label", dup.t, Some(b.at));
        let (x1, x2) = (self.b.x(dup.t), self.b.x(first.t));
        self.b.line((x1, Y::Bar(LEDGER, 1)), (x2, Y::Bar(LEDGER, 1)), true, "same-intent", dup.t, Some(b.duplicate));
        let text = "the same intent counted twice".to_owned();
        self.b.label(LEDGER, x2, text, "label same-intent-label", dup.t, Some(b.duplicate));
    }

    fn close_windows(&mut self) {
        for Window { sent, deadline, decided, record: i, .. } in std::mem::take(&mut self.windows) {
            let until = decided.unwrap_or(deadline);
            let (x1, x2) = (self.b.x(sent), self.b.x_clamped(until));
            self.b.bar(x1, x2, Y::Track(CLIENT), "window", sent, Some(i));
            if decided.is_some_and(|d| d < deadline) {
                let x3 = self.b.x_clamped(deadline);
                self.b.bar(x2, x3, Y::Track(CLIENT), "window-rest", until, None);
                self.b.mark(x3, Y::Track(CLIENT), Glyph::Bar, "deadline", until, None);
            }
        }
    }

    /// A reservation bar, drawn when it is made: solid while its lease
    /// protects the key, dashed once the lease has lapsed, red for the
    /// orphan of an operation that died in a crash.
    fn reservation(&mut self, op: OpId, key: OpKey, i: usize) {
        let Some(h) = self.held.iter().find(|h| h.op == op) else {
            return;
        };
        let (from, lease_ends, orphaned) = (h.from, h.lease_ends, h.orphaned);
        let until = h.until.unwrap_or(Millis(u64::MAX));
        let x1 = self.b.x(from);
        let x2 = self.b.x_clamped(until.min(lease_ends));
        let x3 = self.b.x_clamped(until);
        let row = self.b.bar_row(STORE, x1, x3);
        self.key_rows.push((key, row));
        let class = if orphaned { "reserved orphaned" } else { "reserved" };
        self.b.bar(x1, x2, Y::Bar(STORE, row), class, from, Some(i));
        if lease_ends < until && lease_ends <= self.b.end() {
            self.b.bar(x2, x3, Y::Bar(STORE, row), "reserved lapsed", lease_ends, Some(i));
        }
    }
}

/// Every reservation's span, worked out from the records before drawing:
/// it ends when its operation releases it, a newer reservation takes the
/// key over, or an in-memory store is wiped; it is orphaned when its
/// operation dies in a crash.
fn reservation_spans(records: &[Record]) -> Vec<Held> {
    let mut spans: Vec<Held> = Vec::new();
    for r in records {
        let t = r.t;
        match r.what {
            What::OperationStarted { op, reserved: true, took_over, lease_ends: Some(lease_ends), .. } => {
                let Some(key) = r.key else { continue };
                if took_over {
                    for h in spans.iter_mut().filter(|h| h.key == key && h.until.is_none()) {
                        h.until = Some(t);
                    }
                }
                spans.push(Held { op, key, from: t, lease_ends, until: None, orphaned: false });
            }
            What::OperationCommitted { op, released: true, .. } => {
                for h in spans.iter_mut().filter(|h| h.op == op && h.until.is_none()) {
                    h.until = Some(t);
                }
            }
            What::ServerCrashed { op, wiped, released, .. } => {
                for h in spans.iter_mut().filter(|h| h.until.is_none()) {
                    if wiped || (released && h.op == op) {
                        h.until = Some(t);
                    } else {
                        // Every operation in flight died with the server.
                        h.orphaned = true;
                    }
                }
            }
            _ => {}
        }
    }
    spans
}

fn exhausted_word(by: ExhaustedBy) -> &'static str {
    match by {
        ExhaustedBy::Attempts => "out of attempts",
        ExhaustedBy::Deadline => "deadline",
    }
}

fn summary_sentence(run: &Run) -> String {
    let s = run.summary();
    let increments = increments(s.committed);
    let crash = match s.crash_at {
        Some(at) => format!(" the server crashed at {at};"),
        None => String::new(),
    };
    format!(
        "Timeline from 0.00 s to {}: {} attempt(s);{crash} the client {} at {}; the ledger holds {increments}; {} deduplication hit(s).",
        s.end,
        s.attempts,
        match s.outcome {
            Outcome::Succeeded => "succeeded".to_owned(),
            Outcome::Rejected(status) => format!("was rejected ({})", status_word(status)),
            Outcome::Exhausted(by) => format!("gave up (exhausted, {})", exhausted_word(by)),
        },
        s.outcome_at,
        s.dedup_hits
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ParamDef;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{
        CRASH, DEADLINE, DEDUP, EXEC, FAULT, FINGERPRINT, IN_FLIGHT, JITTER, KEY, LEASE, MAX_ATTEMPTS_PARAM, PAYLOAD,
        RESPONSE_TRANSIT, RESTART, STORE as STORE_KIND, TIMEOUT,
    };
    use crate::view::timeline::Shape;
    use crate::view::timeline::axis::MIN_GAP;

    fn run(pairs: &[(&'static ParamDef, &str)]) -> Run {
        Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap()
    }

    #[test]
    fn two_runs_on_one_clock_put_each_moment_at_the_same_x() {
        // Dedup on ends at 4.05 s, dedup off at 6.05 s (docs/model.md's worked
        // example); on the shared clock both axes run to 6.05 s.
        let (a, b) = (run(&[]), run(&[(&DEDUP, "off")]));
        let mut times = stop_times(&a);
        times.extend(stop_times(&b));
        let end = a.end().max(b.end());
        let (da, db) =
            (diagram_on(&a, times.clone(), end, Frame::Across(None)), diagram_on(&b, times, end, Frame::Across(None)));
        for t in [0, 1000, 2000, 2050, 3000, 4000, 4050, 5000, 6000, 6050] {
            assert_eq!(da.along(Millis(t)), db.along(Millis(t)), "at {t} ms");
        }
        assert_eq!(da.end, Millis(6050));
        assert!(diagram(&a).along(Millis(6050)) < da.along(Millis(6050)), "alone, A's axis stops at its own end");
        assert!(da.label_collisions().is_empty() && db.label_collisions().is_empty());
    }

    fn labels(d: &Diagram) -> Vec<&str> {
        d.texts().into_iter().map(|t| t.0).collect()
    }

    /// Runs that between them draw every kind of mark.
    fn varied() -> Vec<Vec<(&'static ParamDef, &'static str)>> {
        vec![
            vec![],
            vec![(&DEDUP, "off")],
            vec![(&FAULT, "lose-all"), (&MAX_ATTEMPTS_PARAM, "10"), (&JITTER, "full")],
            vec![(&TIMEOUT, "1"), (&EXEC, "0"), (&RESPONSE_TRANSIT, "0"), (&MAX_ATTEMPTS_PARAM, "10")],
            vec![(&FAULT, "none"), (&CRASH, "after-effect"), (&STORE_KIND, "durable-separate"), (&LEASE, "5000")],
            vec![(&FAULT, "none"), (&TIMEOUT, "1000"), (&LEASE, "1500")],
            vec![(&FAULT, "none"), (&TIMEOUT, "1000"), (&IN_FLIGHT, "reject-409")],
            vec![(&PAYLOAD, "changed"), (&FINGERPRINT, "off")],
            vec![(&FAULT, "none"), (&CRASH, "before-commit"), (&TIMEOUT, "500"), (&RESTART, "3000")],
            vec![(&FAULT, "lose-all"), (&DEADLINE, "5000")],
        ]
    }

    #[test]
    fn labels_never_overlap_and_fit_inside() {
        for pairs in varied() {
            let d = diagram(&run(&pairs));
            let collisions = d.label_collisions();
            assert!(
                collisions.is_empty(),
                "{collisions:?} for {:?}",
                pairs.iter().map(|p| p.0.name).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn every_seed_run_fits_the_boxes_it_is_shown_in() {
        // The diagram's box, in its own units: 880 px at 1280 x 900; 1 548 px
        // at twice the size in presenter mode at 1920 x 1080; about 766 px in
        // the 800 px embed.
        for width in [880.0, 774.0, 766.0] {
            for e in super::super::experiments::EXPERIMENTS {
                let r = Run::simulate(&e.settings()).unwrap();
                let d = diagram_on(&r, stop_times(&r), r.end(), Frame::Across(Some(width)));
                assert!(d.width <= width, "{} is {} wide in {width}", e.id, d.width);
                assert!(d.label_collisions().is_empty(), "{}: {:?}", e.id, d.label_collisions());
                let first = d.texts().iter().map(|t| t.1).fold(f64::INFINITY, f64::min);
                assert!(first >= 0.0, "{}: a label starts left of the box", e.id);
            }
        }
    }

    #[test]
    fn bars_that_overlap_in_time_get_rows_of_their_own() {
        let all: [Vec<(&'static ParamDef, &str)>; 3] = [
            vec![(&FAULT, "none"), (&DEDUP, "off"), (&TIMEOUT, "1000"), (&EXEC, "2500")],
            vec![(&KEY, "per-attempt")],
            vec![(&FAULT, "none"), (&TIMEOUT, "1000"), (&LEASE, "1500")],
        ];
        for pairs in all {
            let d = diagram(&run(&pairs));
            let bars: Vec<(f64, f64, f64, f64)> = d
                .items
                .iter()
                .filter(|i| {
                    i.class.starts_with("operation") || i.class.starts_with("stored") || i.class.starts_with("reserved")
                })
                .filter_map(|i| match i.shape {
                    Shape::Rect { x, y, w, h } => Some((x, y, w, h)),
                    _ => None,
                })
                .collect();
            assert!(bars.len() >= 2);
            for (a, &(xa, ya, wa, ha)) in bars.iter().enumerate() {
                for &(xb, yb, wb, hb) in &bars[a + 1..] {
                    let overlap = xa < xb + wb - 0.5 && xb < xa + wa - 0.5 && ya < yb + hb && yb < ya + ha;
                    assert!(!overlap, "bars overlap at ({xa},{ya}) and ({xb},{yb})");
                }
            }
        }
        let off = diagram(&run(&[(&DEDUP, "off")]));
        assert!(labels(&off).iter().any(|t| t.starts_with("deduplication is off")));
    }

    #[test]
    fn time_maps_monotonically_with_room_between_events() {
        let d = diagram(&run(&[]));
        let times = [0, 2000, 2050, 3000, 4000, 4050];
        let xs: Vec<f64> = times.iter().map(|&t| d.along(Millis(t))).collect();
        for w in xs.windows(2) {
            assert!(w[1] - w[0] >= MIN_GAP, "{xs:?}");
        }
        assert!(d.along(Millis(1000)) > xs[0] && d.along(Millis(1000)) < xs[1]);
    }

    #[test]
    fn the_opening_run_draws_the_lost_ack_and_the_replay() {
        let d = diagram(&run(&[]));
        let labels = labels(&d);
        for expected in [
            "attempt 1 sent · key intent-1",
            "success for attempt 1 lost",
            "attempt 1 times out",
            "backoff 1.00 s",
            "replayed to attempt 2 (counter 1)",
            "+1 → counter 1 (attempt 1)",
            "intent-1 result stored until 62.00 s →",
            "success for attempt 2: client reports success",
        ] {
            assert!(labels.contains(&expected), "missing {expected:?} in {labels:?}");
        }
        assert_eq!(d.items.iter().filter(|i| i.class == "mark increment").count(), 1);
        assert_eq!(d.items.iter().filter(|i| i.class == "response lost").count(), 1);
        assert_eq!(
            d.lanes.iter().map(|l| l.title.as_str()).collect::<Vec<_>>(),
            ["Model time", "Client", "Network", "Server", "Dedup store", "Ledger"]
        );
    }

    #[test]
    fn v2_draws_the_crash_the_orphan_the_lease_and_the_payloads() {
        // Example 3 with a lease: the crash, the down interval, the orphaned
        // reservation and its lease-ended marker.
        let d = diagram(&run(&[
            (&FAULT, "none"),
            (&CRASH, "after-effect"),
            (&STORE_KIND, "durable-separate"),
            (&LEASE, "5000"),
        ]));
        let l = labels(&d);
        assert!(l.contains(&"crash after the effect, before the result is stored; down until 3.00 s"), "{l:?}");
        assert!(l.contains(&"lease on intent-1 ends: orphaned reservation cleared"), "{l:?}");
        assert!(l.contains(&"attempt 2 joins attempt 1's dead operation: no answer will come"), "{l:?}");
        assert!(l.contains(&"intent-1 reserved again"), "{l:?}");
        for class in ["down", "mark crash", "reserved orphaned", "mark lease-ended", "mark restart"] {
            assert!(d.items.iter().any(|i| i.class == class), "no {class}");
        }
        // Example 6: the 409 arrow and label; example 5: 422 and payloads.
        let d = diagram(&run(&[(&FAULT, "none"), (&TIMEOUT, "1000"), (&IN_FLIGHT, "reject-409")]));
        assert!(d.items.iter().any(|i| i.class == "response conflict"));
        assert!(labels(&d).contains(&"409: attempt 2 conflicts with attempt 1's operation"));
        let d = diagram(&run(&[(&PAYLOAD, "changed")]));
        let l = labels(&d);
        assert!(l.contains(&"422: attempt 2's payload B ≠ attempt 1's A"), "{l:?}");
        assert!(l.contains(&"attempt 2 sent · key intent-1 · payload B"), "{l:?}");
        assert!(l.contains(&"+1 → counter 1 (attempt 1, payload A)"), "{l:?}");
        assert!(l.contains(&"422 for attempt 2: rejected, no retry"), "{l:?}");
        let d = diagram(&run(&[(&PAYLOAD, "changed"), (&FINGERPRINT, "off")]));
        assert!(labels(&d).iter().any(|t| t.ends_with("mismatched hit")));
        // Example 7: the overall deadline and the reason the client gave up.
        let d = diagram(&run(&[(&FAULT, "lose-all"), (&DEADLINE, "5000")]));
        assert!(labels(&d).contains(&"attempt 2 times out: exhausted (deadline)"));
        assert!(labels(&d).contains(&"overall deadline 5.00 s"));
        // Example 8: the lapsed lease is drawn dashed.
        let d = diagram(&run(&[(&FAULT, "none"), (&TIMEOUT, "1000"), (&LEASE, "1500")]));
        assert!(d.items.iter().any(|i| i.class == "reserved lapsed"));
        // A refused request.
        let d = diagram(&run(&[(&FAULT, "none"), (&CRASH, "before-commit"), (&TIMEOUT, "500"), (&RESTART, "3000")]));
        assert!(labels(&d).contains(&"refused: server down (attempt 3)"));
        assert!(d.items.iter().any(|i| i.class == "response refused"));
    }

    #[test]
    fn every_event_can_be_clicked_somewhere() {
        for pairs in varied() {
            let r = run(&pairs);
            let d = diagram(&r);
            for i in 0..r.records().len() {
                assert!(d.items.iter().any(|item| item.record == Some(i)), "event {i} has no drawn item");
            }
        }
    }

    #[test]
    fn svg_export_is_well_formed() {
        let svg = diagram(&run(&[])).to_svg(Some(Millis(2050)));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("class=\"playhead\""));
    }
}
