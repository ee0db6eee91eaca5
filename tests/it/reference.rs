//! A deliberately plain second implementation of the lost-acknowledgement
//! model (MODEL.md v1 and v2), used as a test oracle.
//!
//! It favours obvious code over speed: the pending events live in a Vec that
//! is scanned for the smallest (time, class, sequence) on every step.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// Past this many handled events the run is assumed to be broken; valid
/// settings stay far below it.
const EVENT_LIMIT: u64 = 10_000;

/// The key of the one logical intent, reused by every attempt with stable keys.
const INTENT_KEY: &str = "intent-1";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fault {
    None,
    LoseFirst,
    LoseAll,
    First503,
    Reject400,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Crash {
    None,
    BeforeCommit,
    AfterEffect,
    AfterRecord,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Store {
    InMemory,
    DurableSeparate,
    DurableAtomic,
}

/// Every parameter of the model, read once from the JSON settings.
struct Settings {
    fault: Fault,
    dedup: bool,
    stable_key: bool,
    retention_ms: u64,
    timeout_ms: u64,
    exec_ms: u64,
    max_attempts: u64,
    initial_delay_ms: u64,
    backoff_cap_ms: u64,
    full_jitter: bool,
    request_transit_ms: u64,
    response_transit_ms: u64,
    join: bool,
    payload_changed: bool,
    fingerprint: bool,
    crash: Crash,
    restart_ms: u64,
    store: Store,
    lease_ms: u64,
    deadline_ms: Option<u64>,
}

fn text<'a>(settings: &'a Value, name: &str) -> &'a str {
    settings[name].as_str().unwrap_or_else(|| panic!("setting {name} must be a string, got {}", settings[name]))
}

fn number(settings: &Value, name: &str) -> u64 {
    settings[name].as_u64().unwrap_or_else(|| panic!("setting {name} must be a whole number, got {}", settings[name]))
}

impl Settings {
    fn from_json(settings: &Value) -> Settings {
        let fault = match text(settings, "fault") {
            "none" => Fault::None,
            "lose-first" => Fault::LoseFirst,
            "lose-all" => Fault::LoseAll,
            "first-503" => Fault::First503,
            "reject-400" => Fault::Reject400,
            other => panic!("unknown fault {other}"),
        };
        let crash = match text(settings, "crash") {
            "none" => Crash::None,
            "before-commit" => Crash::BeforeCommit,
            "after-effect" => Crash::AfterEffect,
            "after-record" => Crash::AfterRecord,
            other => panic!("unknown crash {other}"),
        };
        let store = match text(settings, "store") {
            "in-memory" => Store::InMemory,
            "durable-separate" => Store::DurableSeparate,
            "durable-atomic" => Store::DurableAtomic,
            other => panic!("unknown store {other}"),
        };
        let deadline_ms = match &settings["deadline_ms"] {
            Value::String(s) if s == "off" => None,
            _ => Some(number(settings, "deadline_ms")),
        };
        Settings {
            fault,
            dedup: text(settings, "dedup") == "on",
            stable_key: text(settings, "key") == "stable",
            retention_ms: number(settings, "retention_ms"),
            timeout_ms: number(settings, "timeout_ms"),
            exec_ms: number(settings, "exec_ms"),
            max_attempts: number(settings, "max_attempts"),
            initial_delay_ms: number(settings, "initial_delay_ms"),
            backoff_cap_ms: number(settings, "backoff_cap_ms"),
            full_jitter: text(settings, "jitter") == "full",
            request_transit_ms: number(settings, "request_transit_ms"),
            response_transit_ms: number(settings, "response_transit_ms"),
            join: text(settings, "in_flight") == "join",
            payload_changed: text(settings, "payload") == "changed",
            fingerprint: text(settings, "fingerprint") == "on",
            crash,
            restart_ms: number(settings, "restart_ms"),
            store,
            lease_ms: number(settings, "lease_ms"),
            deadline_ms,
        }
    }
}

/// The n-th term of the base-2 van der Corput sequence as a fraction
/// numerator / 2^bits: the bits of n mirrored around the binary point.
fn van_der_corput(n: u64) -> (u64, u32) {
    let bits = 64 - n.leading_zeros();
    let mut mirrored = 0u64;
    for i in 0..bits {
        if n & (1 << i) != 0 {
            mirrored |= 1 << (bits - 1 - i);
        }
    }
    (mirrored, bits)
}

/// The wait before attempt n+1, for n >= 1, exactly as MODEL.md's backoff.
fn backoff_delay(s: &Settings, n: u64) -> u64 {
    let doubled = s.initial_delay_ms.saturating_mul(1u64 << (n - 1).min(62));
    let base = doubled.min(s.backoff_cap_ms);
    if s.full_jitter {
        let (numerator, bits) = van_der_corput(n);
        // base is at most 600 000 and numerator below 2^bits with bits <= 4
        // for n <= 10, so the product fits easily; integer division floors.
        base * numerator / (1u64 << bits)
    } else {
        base
    }
}

/// What reaches the client (or is lost on the way).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reply {
    Success,
    Lost,
    Status400,
    Status503,
    Status409,
    Status422,
    Refused,
}

#[derive(Clone, Debug)]
enum Kind {
    // Markers carry nothing: they have no effect on the summary, whether the
    // thing they mark still exists or not, and never set the end time.
    StoredExpired,
    LeaseEnded,
    Deliver { attempt: u64, reply: Reply },
    Send { attempt: u64 },
    Restart,
    Arrive { attempt: u64, key: String, payload: &'static str },
    Commit { op_id: u64 },
    Deadline { attempt: u64 },
}

impl Kind {
    /// The tie-break class at equal times, MODEL.md v2 ordering.
    fn class(&self) -> u8 {
        match self {
            Kind::StoredExpired | Kind::LeaseEnded => 0,
            Kind::Deliver { .. } => 1,
            Kind::Send { .. } => 2,
            Kind::Restart => 3,
            Kind::Arrive { .. } => 4,
            Kind::Commit { .. } => 5,
            Kind::Deadline { .. } => 6,
        }
    }

    fn is_message_in_transit(&self) -> bool {
        matches!(self, Kind::Deliver { .. } | Kind::Arrive { .. })
    }
}

#[derive(Clone, Debug)]
struct Event {
    time: u64,
    class: u8,
    seq: u64,
    kind: Kind,
}

#[derive(Clone, Debug)]
struct Operation {
    id: u64,
    attempt: u64,
    key: String,
    payload: &'static str,
    joiners: Vec<u64>,
}

#[derive(Clone, Debug)]
struct Reservation {
    op_id: u64,
    reserved_at: u64,
    payload: &'static str,
}

#[derive(Clone, Debug)]
struct StoredResult {
    committed_at: u64,
    payload: &'static str,
}

#[derive(Clone, Debug)]
struct LedgerEntry {
    t_ms: u64,
    attempt: u64,
    key: String,
    payload: &'static str,
}

struct Sim {
    s: Settings,
    queue: Vec<Event>,
    next_seq: u64,
    next_op_id: u64,

    // Client.
    current: Option<u64>,
    current_deadline: u64,
    done: bool,
    outcome: &'static str,
    outcome_ms: u64,
    ack_ms: Option<u64>,
    final_status: Option<u64>,
    exhausted_by: Option<&'static str>,

    // Server.
    ops: Vec<Operation>,
    reservations: BTreeMap<String, Reservation>,
    stored: BTreeMap<String, StoredResult>,
    down: bool,
    crashed: bool,
    crash_at_ms: Option<u64>,
    restart_at_ms: Option<u64>,
    success_responses_sent: u64,

    // Counters.
    committed: u64,
    dedup_hits: u64,
    attempts: u64,
    lost_responses: u64,
    late_responses: u64,
    conflicts: u64,
    refused: u64,
    unprocessable: u64,
    mismatched_hits: u64,
    ledger: Vec<LedgerEntry>,
    end_ms: u64,
}

impl Sim {
    fn new(s: Settings) -> Sim {
        Sim {
            s,
            queue: Vec::new(),
            next_seq: 0,
            next_op_id: 1,
            current: None,
            current_deadline: 0,
            done: false,
            outcome: "exhausted",
            outcome_ms: 0,
            ack_ms: None,
            final_status: None,
            exhausted_by: None,
            ops: Vec::new(),
            reservations: BTreeMap::new(),
            stored: BTreeMap::new(),
            down: false,
            crashed: false,
            crash_at_ms: None,
            restart_at_ms: None,
            success_responses_sent: 0,
            committed: 0,
            dedup_hits: 0,
            attempts: 0,
            lost_responses: 0,
            late_responses: 0,
            conflicts: 0,
            refused: 0,
            unprocessable: 0,
            mismatched_hits: 0,
            ledger: Vec::new(),
            end_ms: 0,
        }
    }

    fn schedule(&mut self, time: u64, kind: Kind) {
        let class = kind.class();
        self.queue.push(Event { time, class, seq: self.next_seq, kind });
        self.next_seq += 1;
    }

    /// Removes and returns the earliest event by (time, class, sequence).
    fn pop_next(&mut self) -> Option<Event> {
        let mut best: Option<usize> = None;
        for (i, e) in self.queue.iter().enumerate() {
            let better = match best {
                None => true,
                Some(b) => {
                    let o = &self.queue[b];
                    (e.time, e.class, e.seq) < (o.time, o.class, o.seq)
                }
            };
            if better {
                best = Some(i);
            }
        }
        best.map(|i| self.queue.remove(i))
    }

    /// The run is over once nothing the contract cares about can still happen.
    fn finished(&self) -> bool {
        self.done && self.ops.is_empty() && !self.down && !self.queue.iter().any(|e| e.kind.is_message_in_transit())
    }

    fn run(&mut self) {
        self.schedule(0, Kind::Send { attempt: 1 });
        let mut handled = 0u64;
        while let Some(event) = self.pop_next() {
            handled += 1;
            if handled > EVENT_LIMIT {
                panic!("the reference simulation handled more than {EVENT_LIMIT} events; the run does not end");
            }
            let time = event.time;
            let sets_end = self.handle(event);
            if sets_end {
                self.end_ms = time;
            }
            if self.finished() {
                break;
            }
        }
    }

    /// Handles one event and says whether it counts as a real, non-marker
    /// event (the ones that set the end time).
    fn handle(&mut self, event: Event) -> bool {
        let t = event.time;
        match event.kind {
            Kind::StoredExpired | Kind::LeaseEnded => {
                // Validity is always checked against the time itself, so a
                // marker changes nothing and never sets the end.
                false
            }
            Kind::Deliver { attempt, reply } => {
                self.client_receives(t, attempt, reply);
                true
            }
            Kind::Send { attempt } => {
                self.client_sends(t, attempt);
                true
            }
            Kind::Restart => {
                self.down = false;
                true
            }
            Kind::Arrive { attempt, key, payload } => {
                self.server_receives(t, attempt, key, payload);
                true
            }
            Kind::Commit { op_id } => self.commit(t, op_id),
            Kind::Deadline { attempt } => {
                if !self.done && self.current == Some(attempt) {
                    self.attempt_failed(t, attempt);
                    true
                } else {
                    // The attempt was already decided: not an event.
                    false
                }
            }
        }
    }

    // ----- Client -----

    fn client_sends(&mut self, t: u64, n: u64) {
        self.attempts += 1;
        self.current = Some(n);
        let mut deadline = t + self.s.timeout_ms;
        if let Some(d) = self.s.deadline_ms {
            deadline = deadline.min(d);
        }
        self.current_deadline = deadline;
        let key = if self.s.stable_key { INTENT_KEY.to_string() } else { format!("attempt-{n}") };
        let payload = if n == 1 || !self.s.payload_changed { "A" } else { "B" };
        self.schedule(t + self.s.request_transit_ms, Kind::Arrive { attempt: n, key, payload });
        self.schedule(deadline, Kind::Deadline { attempt: n });
    }

    fn client_receives(&mut self, t: u64, n: u64, reply: Reply) {
        if reply == Reply::Lost {
            // A lost response never reaches the client; it was counted when
            // the fault dropped it.
            return;
        }
        let decides = !self.done && self.current == Some(n) && t <= self.current_deadline;
        if !decides {
            self.late_responses += 1;
            return;
        }
        match reply {
            Reply::Success => {
                self.finish(t, "succeeded");
                self.ack_ms = Some(t);
            }
            Reply::Status400 => {
                self.finish(t, "rejected");
                self.final_status = Some(400);
            }
            Reply::Status422 => {
                self.finish(t, "rejected");
                self.final_status = Some(422);
            }
            Reply::Status503 | Reply::Status409 | Reply::Refused => self.attempt_failed(t, n),
            Reply::Lost => unreachable!(),
        }
    }

    fn finish(&mut self, t: u64, outcome: &'static str) {
        self.done = true;
        self.current = None;
        self.outcome = outcome;
        self.outcome_ms = t;
    }

    /// A timeout or a retryable answer: retry if attempts and the overall
    /// deadline allow, otherwise give up.
    fn attempt_failed(&mut self, now: u64, n: u64) {
        self.current = None;
        let delay = backoff_delay(&self.s, n);
        let next_at = now + delay;
        let before_deadline = match self.s.deadline_ms {
            None => true,
            Some(d) => next_at < d,
        };
        if n < self.s.max_attempts && before_deadline {
            self.schedule(next_at, Kind::Send { attempt: n + 1 });
        } else {
            self.finish(now, "exhausted");
            self.exhausted_by = Some(if n == self.s.max_attempts { "attempts" } else { "deadline" });
        }
    }

    // ----- Server -----

    fn respond(&mut self, t: u64, attempt: u64, reply: Reply) {
        self.schedule(t + self.s.response_transit_ms, Kind::Deliver { attempt, reply });
    }

    /// A success response goes through the fault, which may drop it.
    fn respond_success(&mut self, t: u64, attempt: u64) {
        self.success_responses_sent += 1;
        let dropped = match self.s.fault {
            Fault::LoseAll => true,
            Fault::LoseFirst => self.success_responses_sent == 1,
            _ => false,
        };
        if dropped {
            self.lost_responses += 1;
            self.respond(t, attempt, Reply::Lost);
        } else {
            self.respond(t, attempt, Reply::Success);
        }
    }

    fn server_receives(&mut self, t: u64, n: u64, key: String, payload: &'static str) {
        // Rule 0: the server is down.
        if self.down {
            self.refused += 1;
            self.respond(t, n, Reply::Refused);
            return;
        }
        // Rule 1.
        if self.s.fault == Fault::Reject400 {
            self.respond(t, n, Reply::Status400);
            return;
        }
        // Rule 2: by attempt number, whatever the key.
        if self.s.fault == Fault::First503 && n == 1 {
            self.respond(t, n, Reply::Status503);
            return;
        }
        if !self.s.dedup {
            // Rule 6.
            self.start_operation(t, n, key, payload);
            return;
        }
        // Rule 3: a still-valid stored result wins over any reservation.
        let retention = self.s.retention_ms;
        let valid_stored = self.stored.get(&key).filter(|r| t < r.committed_at + retention).map(|r| r.payload);
        if let Some(stored_payload) = valid_stored {
            if self.s.fingerprint && payload != stored_payload {
                self.unprocessable += 1;
                self.respond(t, n, Reply::Status422);
            } else {
                self.dedup_hits += 1;
                if payload != stored_payload {
                    self.mismatched_hits += 1;
                }
                self.respond_success(t, n);
            }
            return;
        }
        // Rule 4: a reservation whose lease still runs.
        let lease = self.s.lease_ms;
        let live_reservation =
            self.reservations.get(&key).filter(|r| t < r.reserved_at + lease).map(|r| (r.payload, r.op_id));
        if let Some((reserved_payload, holder)) = live_reservation {
            if self.s.fingerprint && payload != reserved_payload {
                self.unprocessable += 1;
                self.respond(t, n, Reply::Status422);
            } else if self.s.join {
                self.dedup_hits += 1;
                if payload != reserved_payload {
                    self.mismatched_hits += 1;
                }
                // If the holder died in a crash the attempt is never answered.
                if let Some(op) = self.ops.iter_mut().find(|op| op.id == holder) {
                    op.joiners.push(n);
                }
            } else {
                self.conflicts += 1;
                self.respond(t, n, Reply::Status409);
            }
            return;
        }
        // Rule 5: reserve (replacing any reservation whose lease has ended).
        let op_id = self.next_op_id;
        self.reservations.insert(key.clone(), Reservation { op_id, reserved_at: t, payload });
        self.schedule(t + self.s.lease_ms, Kind::LeaseEnded);
        self.start_operation(t, n, key, payload);
    }

    fn start_operation(&mut self, t: u64, attempt: u64, key: String, payload: &'static str) {
        let id = self.next_op_id;
        self.next_op_id += 1;
        self.ops.push(Operation { id, attempt, key, payload, joiners: Vec::new() });
        self.schedule(t + self.s.exec_ms, Kind::Commit { op_id: id });
    }

    fn apply_effect(&mut self, t: u64, op: &Operation) {
        self.committed += 1;
        self.ledger.push(LedgerEntry { t_ms: t, attempt: op.attempt, key: op.key.clone(), payload: op.payload });
    }

    /// Stores the result for the key and releases the reservation if this
    /// operation still holds it.
    fn record_result(&mut self, t: u64, op: &Operation) {
        if !self.s.dedup {
            return;
        }
        self.stored.insert(op.key.clone(), StoredResult { committed_at: t, payload: op.payload });
        self.schedule(t + self.s.retention_ms, Kind::StoredExpired);
        if self.reservations.get(&op.key).is_some_and(|r| r.op_id == op.id) {
            self.reservations.remove(&op.key);
        }
    }

    /// Returns whether the commit was a real event (false when the
    /// operation was lost in a crash).
    fn commit(&mut self, t: u64, op_id: u64) -> bool {
        let Some(index) = self.ops.iter().position(|op| op.id == op_id) else {
            return false;
        };
        let op = self.ops.remove(index);

        if self.s.crash != Crash::None && !self.crashed && op.id == 1 {
            self.crash(t, &op);
            return true;
        }

        self.apply_effect(t, &op);
        self.record_result(t, &op);
        self.respond_success(t, op.attempt);
        for &joiner in &op.joiners {
            self.respond_success(t, joiner);
        }
        true
    }

    fn crash(&mut self, t: u64, op: &Operation) {
        self.crashed = true;
        match self.s.crash {
            Crash::None | Crash::BeforeCommit => {}
            Crash::AfterEffect => {
                self.apply_effect(t, op);
                // Only the atomic store writes the result with the effect.
                if self.s.store == Store::DurableAtomic {
                    self.record_result(t, op);
                }
            }
            Crash::AfterRecord => {
                self.apply_effect(t, op);
                self.record_result(t, op);
            }
        }
        // Every other operation in flight is lost, with its joined attempts.
        self.ops.clear();
        if self.s.store == Store::InMemory {
            self.reservations.clear();
            self.stored.clear();
        }
        self.down = true;
        let restart_at = t + self.s.restart_ms;
        self.crash_at_ms = Some(t);
        self.restart_at_ms = Some(restart_at);
        self.schedule(restart_at, Kind::Restart);
    }

    fn report(&self) -> Value {
        let ledger: Vec<Value> = self
            .ledger
            .iter()
            .map(|e| json!({"t_ms": e.t_ms, "attempt": e.attempt, "key": e.key, "payload": e.payload}))
            .collect();
        json!({
            "outcome": self.outcome,
            "outcome_ms": self.outcome_ms,
            "ack_ms": self.ack_ms,
            "end_ms": self.end_ms,
            "committed": self.committed,
            "dedup_hits": self.dedup_hits,
            "attempts": self.attempts,
            "lost_responses": self.lost_responses,
            "late_responses": self.late_responses,
            "conflicts": self.conflicts,
            "refused": self.refused,
            "unprocessable": self.unprocessable,
            "mismatched_hits": self.mismatched_hits,
            "crash_at_ms": self.crash_at_ms,
            "restart_at_ms": self.restart_at_ms,
            "final_status": self.final_status,
            "exhausted_by": self.exhausted_by,
            "ledger": ledger,
        })
    }
}

/// Runs the model for the given settings and returns its summary.
pub fn simulate(settings: &serde_json::Value) -> serde_json::Value {
    let mut sim = Sim::new(Settings::from_json(settings));
    sim.run();
    assert!(sim.done, "the run ended before the client was done");
    sim.report()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MODEL.md's defaults, v1 and v2, with the given overrides.
    fn with(overrides: &[(&str, Value)]) -> Value {
        let mut s = json!({
            "fault": "lose-first",
            "dedup": "on",
            "key": "stable",
            "retention_ms": 60000,
            "timeout_ms": 3000,
            "exec_ms": 2000,
            "max_attempts": 3,
            "initial_delay_ms": 1000,
            "backoff_cap_ms": 8000,
            "jitter": "off",
            "request_transit_ms": 0,
            "response_transit_ms": 50,
            "in_flight": "join",
            "payload": "same",
            "fingerprint": "on",
            "crash": "none",
            "restart_ms": 1000,
            "store": "in-memory",
            "lease_ms": 86400000,
            "deadline_ms": "off",
        });
        for (name, value) in overrides {
            assert!(s.get(*name).is_some(), "unknown setting {name}");
            s[*name] = value.clone();
        }
        s
    }

    /// A full expected summary: the defaults of a quiet run, with overrides.
    fn expect(overrides: &[(&str, Value)]) -> Value {
        let mut e = json!({
            "outcome": "succeeded",
            "outcome_ms": 0,
            "ack_ms": null,
            "end_ms": 0,
            "committed": 0,
            "dedup_hits": 0,
            "attempts": 0,
            "lost_responses": 0,
            "late_responses": 0,
            "conflicts": 0,
            "refused": 0,
            "unprocessable": 0,
            "mismatched_hits": 0,
            "crash_at_ms": null,
            "restart_at_ms": null,
            "final_status": null,
            "exhausted_by": null,
            "ledger": [],
        });
        for (name, value) in overrides {
            assert!(e.get(*name).is_some(), "unknown field {name}");
            e[*name] = value.clone();
        }
        e
    }

    fn entry(t_ms: u64, attempt: u64, key: &str, payload: &str) -> Value {
        json!({"t_ms": t_ms, "attempt": attempt, "key": key, "payload": payload})
    }

    #[test]
    fn jitter_terms_follow_van_der_corput() {
        let terms: Vec<(u64, u32)> = (1..=9).map(van_der_corput).collect();
        assert_eq!(terms, vec![(1, 1), (1, 2), (3, 2), (1, 3), (5, 3), (3, 3), (7, 3), (1, 4), (9, 4)]);
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_and_jitter_floors() {
        let s = Settings::from_json(&with(&[]));
        let plain: Vec<u64> = (1..=5).map(|n| backoff_delay(&s, n)).collect();
        assert_eq!(plain, vec![1000, 2000, 4000, 8000, 8000]);
        let s = Settings::from_json(&with(&[("jitter", json!("full")), ("initial_delay_ms", json!(333))]));
        // base 333, 666, 1332, 2664, 5328 times 1/2, 1/4, 3/4, 1/8, 5/8, floored.
        let jittered: Vec<u64> = (1..=5).map(|n| backoff_delay(&s, n)).collect();
        assert_eq!(jittered, vec![166, 166, 999, 333, 3330]);
    }

    // v1 worked example: lost first response, replay from the store at 4.05 s.
    #[test]
    fn v1_opening_settings() {
        assert_eq!(
            simulate(&with(&[])),
            expect(&[
                ("outcome_ms", json!(4050)),
                ("ack_ms", json!(4050)),
                ("end_ms", json!(4050)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("lost_responses", json!(1)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v1 worked example, deduplication off: attempt 2 executes again.
    #[test]
    fn v1_opening_settings_without_dedup() {
        assert_eq!(
            simulate(&with(&[("dedup", json!("off"))])),
            expect(&[
                ("outcome_ms", json!(6050)),
                ("ack_ms", json!(6050)),
                ("end_ms", json!(6050)),
                ("committed", json!(2)),
                ("attempts", json!(2)),
                ("lost_responses", json!(1)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A"), entry(6000, 2, "intent-1", "A")])),
            ])
        );
    }

    // Deadline 100 fires long before the request lands at 500; op commits at
    // 2500 and its response at 2550 is late.
    #[test]
    fn slow_request_single_attempt() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("timeout_ms", json!(100)),
            ("request_transit_ms", json!(500)),
            ("max_attempts", json!(1)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(100)),
                ("end_ms", json!(2550)),
                ("committed", json!(1)),
                ("attempts", json!(1)),
                ("late_responses", json!(1)),
                ("exhausted_by", json!("attempts")),
                ("ledger", json!([entry(2500, 1, "intent-1", "A")])),
            ])
        );
    }

    // Sends at 0, 1100, 3200; timeouts at 100, 1200, 3300. Attempt 2 lands at
    // 1600 and joins op 1 (commit 2500, two late answers at 2550); attempt 3
    // lands at 3700 and is replayed, late at 3750.
    #[test]
    fn slow_request_three_attempts() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("timeout_ms", json!(100)),
            ("request_transit_ms", json!(500)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(3300)),
                ("end_ms", json!(3750)),
                ("committed", json!(1)),
                ("dedup_hits", json!(2)),
                ("attempts", json!(3)),
                ("late_responses", json!(3)),
                ("exhausted_by", json!("attempts")),
                ("ledger", json!([entry(2500, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 1: after-effect crash, in-memory store loses the reservation.
    #[test]
    fn v2_example_1_after_effect_in_memory() {
        let out = simulate(&with(&[("fault", json!("none")), ("crash", json!("after-effect"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(6050)),
                ("ack_ms", json!(6050)),
                ("end_ms", json!(6050)),
                ("committed", json!(2)),
                ("attempts", json!(2)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A"), entry(6000, 2, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 2: durable-atomic stores the result with the effect.
    #[test]
    fn v2_example_2_after_effect_durable_atomic() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("crash", json!("after-effect")),
            ("store", json!("durable-atomic")),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(4050)),
                ("ack_ms", json!(4050)),
                ("end_ms", json!(4050)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 3: durable-separate keeps an orphaned reservation; attempts
    // 2 (4000) and 3 (9000) join the dead operation and time out.
    #[test]
    fn v2_example_3_orphaned_reservation() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("crash", json!("after-effect")),
            ("store", json!("durable-separate")),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(12000)),
                ("end_ms", json!(12000)),
                ("committed", json!(1)),
                ("dedup_hits", json!(2)),
                ("attempts", json!(3)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("exhausted_by", json!("attempts")),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 3 with a 5 s lease: attempt 3 at 9000 reserves afresh.
    #[test]
    fn v2_example_3_short_lease() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("crash", json!("after-effect")),
            ("store", json!("durable-separate")),
            ("lease_ms", json!(5000)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(11050)),
                ("ack_ms", json!(11050)),
                ("end_ms", json!(11050)),
                ("committed", json!(2)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(3)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A"), entry(11000, 3, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 4: after-record, in-memory: the stored result dies.
    #[test]
    fn v2_example_4_after_record_in_memory() {
        let out = simulate(&with(&[("fault", json!("none")), ("crash", json!("after-record"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(6050)),
                ("ack_ms", json!(6050)),
                ("end_ms", json!(6050)),
                ("committed", json!(2)),
                ("attempts", json!(2)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A"), entry(6000, 2, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 4, durable-separate: the stored result survives.
    #[test]
    fn v2_example_4_after_record_durable_separate() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("crash", json!("after-record")),
            ("store", json!("durable-separate")),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(4050)),
                ("ack_ms", json!(4050)),
                ("end_ms", json!(4050)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(3000)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 5: payload B against stored A is a 422.
    #[test]
    fn v2_example_5_changed_payload_rejected() {
        let out = simulate(&with(&[("payload", json!("changed"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("rejected")),
                ("outcome_ms", json!(4050)),
                ("end_ms", json!(4050)),
                ("committed", json!(1)),
                ("attempts", json!(2)),
                ("lost_responses", json!(1)),
                ("unprocessable", json!(1)),
                ("final_status", json!(422)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 5 without the fingerprint: a mismatched replay.
    #[test]
    fn v2_example_5_changed_payload_no_fingerprint() {
        let out = simulate(&with(&[("payload", json!("changed")), ("fingerprint", json!("off"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(4050)),
                ("ack_ms", json!(4050)),
                ("end_ms", json!(4050)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("lost_responses", json!(1)),
                ("mismatched_hits", json!(1)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 6: 409 at 2000 (delivered 2050, retry at 4050), op 1's
    // success to attempt 1 late at 2050, replay answered at 4100.
    #[test]
    fn v2_example_6_reject_409() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("timeout_ms", json!(1000)),
            ("in_flight", json!("reject-409")),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(4100)),
                ("ack_ms", json!(4100)),
                ("end_ms", json!(4100)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(3)),
                ("late_responses", json!(1)),
                ("conflicts", json!(1)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 6 with join: attempt 2 joins and is acknowledged at 2050.
    #[test]
    fn v2_example_6_join() {
        let out = simulate(&with(&[("fault", json!("none")), ("timeout_ms", json!(1000))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(2050)),
                ("ack_ms", json!(2050)),
                ("end_ms", json!(2050)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("late_responses", json!(1)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 7: the next send at 7000 would pass the 5000 deadline.
    #[test]
    fn v2_example_7_overall_deadline() {
        let out = simulate(&with(&[("fault", json!("lose-all")), ("deadline_ms", json!(5000))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(5000)),
                ("end_ms", json!(5000)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(2)),
                ("lost_responses", json!(2)),
                ("exhausted_by", json!("deadline")),
                ("ledger", json!([entry(2000, 1, "intent-1", "A")])),
            ])
        );
    }

    // v2 example 8: a lease shorter than the work duplicates it.
    #[test]
    fn v2_example_8_short_lease_duplicates() {
        let out = simulate(&with(&[("fault", json!("none")), ("timeout_ms", json!(1000)), ("lease_ms", json!(1500))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(5050)),
                ("ack_ms", json!(5050)),
                ("end_ms", json!(5050)),
                ("committed", json!(2)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(3)),
                ("late_responses", json!(2)),
                ("ledger", json!([entry(2000, 1, "intent-1", "A"), entry(4000, 2, "intent-1", "A")])),
            ])
        );
    }

    // first-503 answers attempt 1 at once (delivered 50); full jitter waits
    // floor(1000 * 1/2) = 500; attempt 2 executes, commits 2550, acked 2600.
    #[test]
    fn first_503_with_full_jitter() {
        let out = simulate(&with(&[("fault", json!("first-503")), ("jitter", json!("full"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(2600)),
                ("ack_ms", json!(2600)),
                ("end_ms", json!(2600)),
                ("committed", json!(1)),
                ("attempts", json!(2)),
                ("ledger", json!([entry(2550, 2, "intent-1", "A")])),
            ])
        );
    }

    // reject-400 is final at once.
    #[test]
    fn reject_400_is_final() {
        let out = simulate(&with(&[("fault", json!("reject-400"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("rejected")),
                ("outcome_ms", json!(50)),
                ("end_ms", json!(50)),
                ("attempts", json!(1)),
                ("final_status", json!(400)),
            ])
        );
    }

    // Per-attempt keys defeat deduplication: attempt 2 uses a fresh key.
    #[test]
    fn per_attempt_keys_duplicate() {
        let out = simulate(&with(&[("key", json!("per-attempt"))]));
        assert_eq!(
            out,
            expect(&[
                ("outcome_ms", json!(6050)),
                ("ack_ms", json!(6050)),
                ("end_ms", json!(6050)),
                ("committed", json!(2)),
                ("attempts", json!(2)),
                ("lost_responses", json!(1)),
                ("ledger", json!([entry(2000, 1, "attempt-1", "A"), entry(6000, 2, "attempt-2", "A")])),
            ])
        );
    }

    // Op 1 runs until 100000. Timeout at 1000, jittered delay 500 -> send 2 at
    // 1500, 409 delivered 1550, delay floor(2000/4)=500 -> send 3 at 2050, 409
    // at 2100, delay floor(4000*3/4)=3000 -> send 4 at 5100, 409 at 5150:
    // exhausted. Op 1's answer at 100050 is late and ends the run.
    #[test]
    fn repeated_409_with_jitter() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("in_flight", json!("reject-409")),
            ("exec_ms", json!(100000)),
            ("timeout_ms", json!(1000)),
            ("jitter", json!("full")),
            ("max_attempts", json!(4)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(5150)),
                ("end_ms", json!(100050)),
                ("committed", json!(1)),
                ("attempts", json!(4)),
                ("late_responses", json!(1)),
                ("conflicts", json!(3)),
                ("exhausted_by", json!("attempts")),
                ("ledger", json!([entry(100000, 1, "intent-1", "A")])),
            ])
        );
    }

    // Zero delays. Timeout at 1000 -> attempt 2 at 1000 joins op 1. Crash
    // before commit at 2000, down until 2050. Attempt 2 times out at 2000 ->
    // attempt 3 at 2000 is refused (2050). At 2050 the refusal fails attempt 3,
    // attempt 4 is sent at 2050, the restart (class 3) comes before its
    // arrival (class 4), so it is served: fresh reservation, commit 4050.
    // Attempt 4 times out at 3050 (exhausted); its answer at 4100 is late.
    #[test]
    fn refusal_and_arrival_at_the_restart_instant() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("timeout_ms", json!(1000)),
            ("initial_delay_ms", json!(0)),
            ("max_attempts", json!(4)),
            ("crash", json!("before-commit")),
            ("restart_ms", json!(50)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(3050)),
                ("end_ms", json!(4100)),
                ("committed", json!(1)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(4)),
                ("late_responses", json!(1)),
                ("refused", json!(1)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(2050)),
                ("exhausted_by", json!("attempts")),
                ("ledger", json!([entry(4050, 4, "intent-1", "A")])),
            ])
        );
    }

    // The pending restart keeps the run going and is its last event: attempt
    // 3 is refused at 5000 (delivered 5050, exhausted) and the server comes
    // back at 7000.
    #[test]
    fn restart_can_be_the_last_event() {
        let out = simulate(&with(&[
            ("fault", json!("none")),
            ("timeout_ms", json!(1000)),
            ("crash", json!("before-commit")),
            ("restart_ms", json!(5000)),
        ]));
        assert_eq!(
            out,
            expect(&[
                ("outcome", json!("exhausted")),
                ("outcome_ms", json!(5050)),
                ("end_ms", json!(7000)),
                ("dedup_hits", json!(1)),
                ("attempts", json!(3)),
                ("refused", json!(1)),
                ("crash_at_ms", json!(2000)),
                ("restart_at_ms", json!(7000)),
                ("exhausted_by", json!("attempts")),
            ])
        );
    }
}
