//! The text mirror: the state at one moment, in plain sentences. It says in
//! words what the diagram draws, for screen readers, printouts and tests.

use std::fmt::Write;

use super::client::ClientState;
use super::event::Outcome;
use super::network::Payload;
use super::run::Run;
use super::time::Millis;

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// "1 increment", "2 increments": how every view counts the ledger.
pub fn increments(n: u64) -> String {
    plural(n, "increment", "increments")
}

/// The text mirror of `run` at model time `t` (clamped to the run's end).
pub fn text_mirror(run: &Run, t: Millis) -> String {
    let t = t.min(run.end());
    let s = run.snapshot_at(t);
    let settings = run.settings();
    let mut out = String::with_capacity(1024);
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };

    line(format!("Model time: {t} (the run ends at {})", run.end()));

    line(match s.client {
        ClientState::WaitingToSend { attempt: 1, at } => {
            format!("Client: about to send attempt 1 at {at}.")
        }
        ClientState::WaitingToSend { attempt, at } => {
            format!("Client: backing off; attempt {attempt} goes out at {at}.")
        }
        ClientState::AwaitingResponse { attempt, key, deadline } => {
            format!("Client: waiting for attempt {attempt} (key {key}) to be answered; it times out at {deadline}.")
        }
        ClientState::Done { outcome, at } => format!("Client: done; {} at {at}.", outcome.name()),
    });

    if s.operations.is_empty() {
        line("Server: no operation in flight.".to_owned());
    } else {
        for op in &s.operations {
            let mut text = format!(
                "Server: attempt {}'s operation (key {}) has been running since {} and commits at {}",
                op.origin, op.key, op.started_at, op.commits_at
            );
            if !op.joined.is_empty() {
                let joined: Vec<String> = op.joined.iter().map(|a| a.to_string()).collect();
                let _ = write!(text, "; joined by attempt {}", joined.join(", "));
            }
            text.push('.');
            line(text);
        }
    }

    if !settings.dedup() {
        line("Deduplication: off; the server does not look at keys.".to_owned());
    } else if s.store.is_empty() {
        line("Deduplication store: no stored results.".to_owned());
    } else {
        for r in &s.store {
            line(format!(
                "Deduplication store: key {} holds attempt {}'s result (counter {}) until {}.",
                r.key, r.origin, r.value, r.expires_at
            ));
        }
    }

    if s.in_transit.is_empty() {
        line("Network: nothing in transit.".to_owned());
    } else {
        let parts: Vec<String> = s
            .in_transit
            .iter()
            .map(|m| match m.payload {
                Payload::Request => format!("attempt {}'s request, arriving at {}", m.attempt, m.arrives_at),
                Payload::Response(status) if m.dropped => {
                    format!("attempt {}'s {}, which will be lost at {}", m.attempt, status.noun(), m.arrives_at)
                }
                Payload::Response(status) => {
                    format!("attempt {}'s {}, due at {}", m.attempt, status.noun(), m.arrives_at)
                }
            })
            .collect();
        line(format!("Network: in transit: {}.", parts.join("; ")));
    }

    if s.lost.is_empty() {
        line("Lost responses: none.".to_owned());
    } else {
        let parts: Vec<String> = s
            .lost
            .iter()
            .map(|m| {
                let noun = match m.payload {
                    Payload::Response(status) => status.noun(),
                    Payload::Request => "request",
                };
                format!("attempt {}'s {noun} vanished at {}", m.attempt, m.arrives_at)
            })
            .collect();
        line(format!("Lost responses: {}.", parts.join("; ")));
    }

    if s.ledger.is_empty() {
        line("Ledger: no increments yet.".to_owned());
    } else {
        let parts: Vec<String> =
            s.ledger.iter().map(|e| format!("{} by attempt {} (key {})", e.t, e.attempt, e.key)).collect();
        line(format!("Ledger: {}: {}.", increments(s.counter()), parts.join("; ")));
    }

    line(format!("Committed counter: {}", s.counter()));
    line(format!("Deduplication hits: {}", s.dedup_hits));
    line(format!("Attempts sent: {} of at most {}", s.attempts_sent, settings.max_attempts()));
    line(format!("Late responses: {}", s.late_responses));

    if let ClientState::Done { outcome, at } = s.client {
        line(format!("Client outcome: {} at {at}", outcome.name()));
        let increments = increments(s.counter());
        line(match outcome {
            Outcome::Succeeded if s.counter() == 1 => "Client and ledger agree: one success, one increment.".to_owned(),
            Outcome::Succeeded => format!(
                "Client and ledger disagree: the client reports one success, but the ledger holds {increments}."
            ),
            Outcome::Exhausted => {
                format!("The client gave up without knowing what happened; the ledger holds {increments}.")
            }
            Outcome::Rejected => format!("The client was refused; the ledger holds {increments}."),
        });
    }

    if let Some(latest) = run.records_until(t).last() {
        line(format!("Latest event ({}): {}", latest.t, latest.sentence()));
    }
    out
}
