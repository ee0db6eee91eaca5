//! The text mirror: the state at one moment, in plain sentences. It says in
//! words what the diagram draws, for screen readers, printouts and tests.

use crate::sim::Millis;
use crate::sim::ack::network::Body;
use crate::sim::ack::server::Power;
use crate::sim::ack::settings::PayloadMode;
use crate::sim::ack::{ClientState, Outcome, Payload, Run, Snapshot};

use super::sentences::{RECONCILE, increments, outcome_reason, sentence, status_noun};

/// The text mirror of `run` at model time `t` (clamped to the run's end):
/// a section per actor, in the diagram's order, then the run's counts, the
/// client's outcome and the latest event.
pub fn text_mirror(run: &Run, t: Millis) -> String {
    text_mirror_with(run, t, false)
}

/// The text mirror as a reader who must not see ahead reads it
/// (`so_far`): nothing of when the run ends, nor of what is still to
/// happen to what is in flight (a response that will be lost reads as any
/// other on its way, an operation as running, not as when it commits).
pub fn text_mirror_with(run: &Run, t: Millis, so_far: bool) -> String {
    let t = t.min(run.end());
    let s = run.snapshot_at(t);
    let settings = run.settings();
    let payloads = settings.client.payload == PayloadMode::Changed;
    let mut lines: Vec<String> = Vec::with_capacity(16);

    if so_far {
        lines.push(format!("Model time: {t}"));
    } else {
        lines.push(format!("Model time: {t} (the run ends at {})", run.end()));
    }
    lines.push(client_line(&s));
    server_lines(&s, payloads, so_far, &mut lines);
    if settings.dedup() {
        store_lines(&s, payloads, &mut lines);
    } else {
        lines.push("Deduplication: off; the server does not look at keys.".to_owned());
    }
    lines.push(network_line(&s, so_far));
    lines.push(lost_line(&s));
    lines.push(ledger_line(&s, payloads));
    count_lines(&s, settings.max_attempts(), &mut lines);
    outcome_lines(&s, &mut lines);

    if let Some(latest) = run.records_until(t).last() {
        lines.push(format!("Latest event ({}): {}", latest.t, sentence(latest)));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// ", payload A" when the run changes payloads, so that it is worth saying.
fn payload_note(payloads: bool, payload: Payload) -> String {
    if payloads { format!(", payload {}", payload.name()) } else { String::new() }
}

/// What the client is doing: about to send, backing off, waiting or done.
fn client_line(s: &Snapshot) -> String {
    match s.client {
        ClientState::WaitingToSend { attempt: 1, at } => format!("Client: about to send attempt 1 at {at}."),
        ClientState::WaitingToSend { attempt, at } => {
            format!("Client: backing off; attempt {attempt} goes out at {at}.")
        }
        ClientState::AwaitingResponse { attempt, key, deadline } => {
            format!("Client: waiting for attempt {attempt} (key {key}) to be answered; it times out at {deadline}.")
        }
        ClientState::Done { outcome, at } => format!("Client: done; {} at {at}.", outcome.name()),
    }
}

/// Whether the server is down, and each operation in flight with the
/// attempts that joined it.
fn server_lines(s: &Snapshot, payloads: bool, so_far: bool, lines: &mut Vec<String>) {
    if let Power::Down { since, until } = s.power {
        lines.push(format!(
            "Server: down since the crash at {since}; it restarts at {until} and refuses requests until then."
        ));
    } else if s.operations.is_empty() {
        lines.push("Server: no operation in flight.".to_owned());
    }
    for op in &s.operations {
        let payload = payload_note(payloads, op.payload);
        let mut text = format!(
            "Server: attempt {}'s operation (key {}{payload}) has been running since {}",
            op.origin, op.key, op.started_at
        );
        if !so_far {
            text.push_str(&format!(" and commits at {}", op.commits_at));
        }
        let joined: Vec<String> = s.joins.iter().filter(|j| j.op == op.id).map(|j| j.attempt.to_string()).collect();
        if !joined.is_empty() {
            text.push_str(&format!("; joined by attempt {}", joined.join(", ")));
        }
        text.push('.');
        lines.push(text);
    }
    // Attempts that joined an operation that died: nobody will answer them.
    let stranded: Vec<String> =
        s.joins.iter().filter(|j| !s.operations.iter().any(|o| o.id == j.op)).map(|j| j.attempt.to_string()).collect();
    if !stranded.is_empty() {
        lines.push(format!(
            "Server: attempt {} joined an operation that died in the crash and will never be answered.",
            stranded.join(", ")
        ));
    }
}

/// The deduplication store (when deduplication is on): the reservations
/// worth a word, and every stored result.
fn store_lines(s: &Snapshot, payloads: bool, lines: &mut Vec<String>) {
    for held in &s.reservations {
        let r = held.reservation;
        // A live reservation with a running lease is the ordinary case
        // the server line already covers; say only what is unusual.
        if held.orphaned && held.blocking {
            lines.push(format!(
                "Deduplication store: key {} is reserved by attempt {}'s operation, which died in the crash; \
                 the orphaned reservation blocks the key until its lease ends at {}.",
                r.key, r.origin.attempt, r.lease_ends
            ));
        } else if !held.blocking {
            lines.push(format!(
                "Deduplication store: the lease on key {} (attempt {}'s reservation) ended at {}; the key no \
                 longer blocks duplicates.",
                r.key, r.origin.attempt, r.lease_ends
            ));
        }
    }
    if s.store.is_empty() {
        lines.push("Deduplication store: no stored results.".to_owned());
    }
    for r in &s.store {
        let payload = payload_note(payloads, r.origin.payload);
        lines.push(format!(
            "Deduplication store: key {} holds attempt {}'s result (counter {}{payload}) until {}.",
            r.key, r.origin.attempt, r.value, r.expires_at
        ));
    }
}

/// Every message on the wire, and when it arrives (or vanishes).
fn network_line(s: &Snapshot, so_far: bool) -> String {
    if s.in_transit.is_empty() {
        return "Network: nothing in transit.".to_owned();
    }
    let parts: Vec<String> = s
        .in_transit
        .iter()
        .map(|m| match m.body {
            Body::Request(_) => format!("attempt {}'s request, arriving at {}", m.attempt, m.arrives_at),
            Body::Response(status) if m.dropped && !so_far => {
                format!("attempt {}'s {}, which will be lost at {}", m.attempt, status_noun(status), m.arrives_at)
            }
            Body::Response(status) => {
                format!("attempt {}'s {}, due at {}", m.attempt, status_noun(status), m.arrives_at)
            }
        })
        .collect();
    format!("Network: in transit: {}.", parts.join("; "))
}

/// The responses the network lost so far.
fn lost_line(s: &Snapshot) -> String {
    if s.lost.is_empty() {
        return "Lost responses: none.".to_owned();
    }
    let parts: Vec<String> = s
        .lost
        .iter()
        .map(|m| {
            let noun = match m.body {
                Body::Response(status) => status_noun(status),
                Body::Request(_) => "request",
            };
            format!("attempt {}'s {noun} vanished at {}", m.attempt, m.arrives_at)
        })
        .collect();
    format!("Lost responses: {}.", parts.join("; "))
}

/// Every increment the ledger holds, with the attempt that made it.
fn ledger_line(s: &Snapshot, payloads: bool) -> String {
    if s.ledger.is_empty() {
        return "Ledger: no increments yet.".to_owned();
    }
    let parts: Vec<String> = s
        .ledger
        .iter()
        .map(|e| {
            let payload = payload_note(payloads, e.payload);
            format!("{} by attempt {} (key {}{payload})", e.t, e.attempt, e.key)
        })
        .collect();
    format!("Ledger: {}: {}.", increments(s.counter()), parts.join("; "))
}

/// The run's counts so far; v2's appear once there is something to count.
fn count_lines(s: &Snapshot, max_attempts: u32, lines: &mut Vec<String>) {
    lines.push(format!("Committed counter: {}", s.counter()));
    lines.push(format!("Deduplication hits: {}", s.dedup_hits));
    for (label, count) in [
        ("Mismatched hits", s.mismatched_hits),
        ("Conflicts (409)", s.conflicts),
        ("Unprocessable (422)", s.unprocessable),
        ("Refused while down", s.refused),
    ] {
        if count > 0 {
            lines.push(format!("{label}: {count}"));
        }
    }
    lines.push(format!("Attempts sent: {} of at most {}", s.attempts_sent, max_attempts));
    lines.push(format!("Late responses: {}", s.late_responses));
}

/// Once the client is done: its outcome, and whether it agrees with the
/// ledger.
fn outcome_lines(s: &Snapshot, lines: &mut Vec<String>) {
    let ClientState::Done { outcome, at } = s.client else {
        return;
    };
    lines.push(format!("Client outcome: {} at {at}{}", outcome.name(), outcome_reason(outcome)));
    let increments = increments(s.counter());
    lines.push(match outcome {
        Outcome::Succeeded if s.counter() == 1 => "Client and ledger agree: one success, one increment.".to_owned(),
        Outcome::Succeeded => {
            format!("Client and ledger disagree: the client reports one success, but the ledger holds {increments}.")
        }
        Outcome::Exhausted(_) => {
            format!("The client gave up without knowing what happened; the ledger holds {increments}; {RECONCILE}.")
        }
        Outcome::Rejected(_) => format!("The client was refused; the ledger holds {increments}."),
    });
    if s.mismatched_hits > 0 && outcome == Outcome::Succeeded {
        lines.push(
            "The client believes its payload B was applied, but the ledger holds payload A: a mismatched hit."
                .to_owned(),
        );
    }
}
