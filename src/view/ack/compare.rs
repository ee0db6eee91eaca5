//! Two runs compared, in words: the "Differences" panel's lines and the
//! text mirror of both runs.

use crate::sim::Millis;
use crate::sim::ack::compare::Comparison;
use crate::sim::ack::ledger::LedgerEntry;
use crate::sim::ack::{Decision, Record, Run, What};
pub use crate::view::compare::DiffLine;
use crate::view::compare::{both_mirrors, counts, divergence_line, fork_line};

use super::mirror::text_mirror;
use super::sentences::{increments, outcome_text, status_noun};

/// What run B changes, for headings: "Server deduplicates operation keys:
/// on → off", or "the same settings".
pub fn what_b_changes(a: &Run, b: &Run) -> String {
    crate::view::compare::what_b_changes(a.settings(), b.settings())
}

fn decision_clause(decision: Decision) -> String {
    match decision {
        Decision::Done(outcome) => format!("; the client is done: {}", outcome_text(outcome)),
        Decision::Retry { next, at, .. } => format!("; attempt {next} follows at {at}"),
    }
}

/// An event as a short phrase with its subject: "attempt 2 replayed
/// attempt 1's stored result".
pub fn phrase(record: &Record) -> String {
    let n = record.attempt;
    let key = record.key.map_or_else(String::new, |k| k.to_string());
    match record.what {
        What::AttemptSent { payload, .. } => format!("attempt {n} sent with key {key}, payload {}", payload.name()),
        What::RequestRefused { .. } => format!("attempt {n} refused: the server is down"),
        What::RequestLost { .. } => format!("attempt {n}'s request was lost"),
        What::RequestRejected => format!("attempt {n} rejected with 400"),
        What::RequestUnavailable => format!("attempt {n} answered with 503"),
        What::PayloadMismatch { .. } => format!("attempt {n} refused with 422 (payload mismatch)"),
        What::InFlightConflict { .. } => format!("attempt {n} answered with 409 (in flight)"),
        What::OperationStarted { .. } => format!("attempt {n} executed (a new operation starts)"),
        What::DedupJoined { origin, .. } => format!("attempt {n} joined attempt {origin}'s operation in flight"),
        What::DedupReplayed { origin, .. } => format!("attempt {n} replayed attempt {origin}'s stored result"),
        What::OperationCommitted { value, .. } => {
            format!("attempt {n}'s operation committed (counter {value})")
        }
        What::ServerCrashed { .. } => format!("the server crashed during attempt {n}'s commit"),
        What::ServerRestarted { .. } => "the server restarted".to_owned(),
        What::ResponseDelivered { status, decision, .. } => {
            format!("the {} to attempt {n} arrived{}", status_noun(status), decision_clause(decision))
        }
        What::ResponseLate { status, .. } => format!("the {} to attempt {n} arrived too late", status_noun(status)),
        What::ResponseLost { status, .. } => format!("the {} to attempt {n} was lost", status_noun(status)),
        What::AttemptTimedOut { decision } => format!("attempt {n} timed out{}", decision_clause(decision)),
        What::StoredResultExpired { .. } => format!("attempt {n}'s stored result expired"),
        What::LeaseEnded { .. } => format!("attempt {n}'s lease ended"),
    }
}

fn ledger_list(entries: &[LedgerEntry]) -> String {
    if entries.is_empty() {
        return "none".to_owned();
    }
    entries
        .iter()
        .map(|e| format!("+1 at {} by attempt {} (key {}, payload {})", e.t, e.attempt, e.key, e.payload.name()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The differences between A and B, line by line; `fork` is the model time
/// B was forked at, if it was.
pub fn differences(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>) -> Vec<DiffLine> {
    let (sa, sb) = (a.summary(), b.summary());
    let mut lines = Vec::with_capacity(6);
    lines.push(DiffLine { label: "Counter".to_owned(), text: counts(sa.committed, sb.committed, increments) });
    let outcome = |s: &crate::sim::ack::Summary| format!("{} at {}", outcome_text(s.outcome), s.outcome_at);
    let both_succeed = sa.outcome == sb.outcome && sa.outcome == crate::sim::ack::Outcome::Succeeded;
    lines.push(DiffLine {
        label: "Client outcome".to_owned(),
        text: format!(
            "A: {}, B: {}{}",
            outcome(sa),
            outcome(sb),
            if both_succeed { " (both report success)" } else { "" }
        ),
    });
    lines.push(divergence_line(c, phrase, (a.end(), b.end())));
    lines.push(DiffLine { label: "Only in A's ledger".to_owned(), text: ledger_list(&c.only_a) });
    lines.push(DiffLine { label: "Only in B's ledger".to_owned(), text: ledger_list(&c.only_b) });
    lines.extend(fork.map(|at| fork_line(c, at)));
    lines
}

/// The text mirror of both runs at model time `t` on their shared clock,
/// and their differences.
pub fn compare_mirror(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>, t: Millis) -> String {
    let t = t.min(a.end().max(b.end()));
    // Each run's own mirror without its clock line: the clock is shared.
    let own = |run: &Run| (text_mirror(run, t).lines().skip(1).collect::<Vec<_>>().join("\n"), run.end());
    both_mirrors(format!("Model time: {t}"), what_b_changes(a, b), [own(a), own(b)], t, &differences(a, b, c, fork))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{DEDUP, KEY};

    fn pair(b: &[(&'static crate::sim::ParamDef, &str)]) -> (Run, Run, Comparison) {
        let a = Run::simulate(&Settings::default()).unwrap();
        let b = Run::simulate(&Settings::from_pairs(b).unwrap()).unwrap();
        let c = Comparison::of(&a, &b);
        (a, b, c)
    }

    fn line<'a>(lines: &'a [DiffLine], label: &str) -> &'a str {
        &lines.iter().find(|l| l.label == label).unwrap().text
    }

    #[test]
    fn dedup_on_against_off_in_words() {
        // docs/model.md's worked example: with deduplication attempt 2 is
        // answered from the stored result at 4.00 s; without, it executes
        // again and commits at 6.00 s.
        let (a, b, c) = pair(&[(&DEDUP, "off")]);
        let lines = differences(&a, &b, &c, None);
        assert_eq!(line(&lines, "Counter"), "A: 1 increment, B: 2 increments");
        assert_eq!(
            line(&lines, "Client outcome"),
            "A: succeeded at 4.05 s, B: succeeded at 6.05 s (both report success)"
        );
        let first = line(&lines, "First divergence");
        assert!(first.starts_with("at 4.00 s"), "{first}");
        assert!(first.contains("A: attempt 2 replayed attempt 1's stored result"), "{first}");
        assert!(first.contains("B: attempt 2 executed"), "{first}");
        assert_eq!(line(&lines, "Only in A's ledger"), "none");
        assert_eq!(line(&lines, "Only in B's ledger"), "+1 at 6.00 s by attempt 2 (key intent-1, payload A)");
        assert_eq!(what_b_changes(&a, &b), "Server deduplicates operation keys (idempotency keys): on → off");
    }

    #[test]
    fn a_fork_with_a_new_key_agrees_before_attempt_two() {
        let (a, b, c) = pair(&[(&KEY, "per-attempt")]);
        let lines = differences(&a, &b, &c, Some(Millis(4000)));
        assert_eq!(line(&lines, "Fork"), "at 4.00 s: the runs agree on every event before the fork");
        let first = line(&lines, "First divergence");
        assert!(first.contains("A: attempt 2 sent with key intent-1"), "{first}");
        assert!(first.contains("B: attempt 2 sent with key attempt-2"), "{first}");
        // Forking later than the divergence says the setting acted earlier.
        let lines = differences(&a, &b, &c, Some(Millis(5000)));
        assert!(line(&lines, "Fork").contains("already differ at 4.00 s"));
    }

    #[test]
    fn identical_runs_say_so() {
        let (a, b, c) = pair(&[]);
        let lines = differences(&a, &b, &c, None);
        assert_eq!(line(&lines, "First divergence"), "none: the runs agree on every event");
        assert_eq!(line(&lines, "Counter"), "A: 1 increment, B: 1 increment (the same)");
        assert_eq!(what_b_changes(&a, &b), "the same settings");
    }

    #[test]
    fn the_mirror_describes_both_runs_and_the_difference() {
        let (a, b, c) = pair(&[(&DEDUP, "off")]);
        let text = compare_mirror(&a, &b, &c, None, Millis(6050));
        assert!(
            text.starts_with("Model time: 6.05 s\nTwo runs on one clock. Run B is run A with Server deduplicates"),
            "{text}"
        );
        assert!(text.contains(" on → off.\nRun A (it ended at 4.05 s):\n  Client: done; succeeded"), "{text}");
        assert!(text.contains("\nRun B (it ended at 6.05 s):\n  Client: done; succeeded"), "{text}");
        // Midway, A is done and B is still waiting for attempt 2's operation.
        let text = compare_mirror(&a, &b, &c, None, Millis(5000));
        assert!(text.contains("Run A (it ended at 4.05 s):"), "{text}");
        assert!(text.contains("Run B (it ends at 6.05 s):"), "{text}");
        assert!(text.contains("  Counter: A: 1 increment, B: 2 increments"), "{text}");
    }
}
