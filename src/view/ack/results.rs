//! The results strip in words, at the playhead: what the ledger, the
//! client and the store show at that moment (nothing of what is still to
//! come), the verdict once there is one, and the end of the run as a line
//! of its own.

use crate::sim::Millis;
use crate::sim::ack::{ClientState, Outcome, Run, Status};

use super::increments;
use super::sentences::outcome_reason;

/// The strip's four figures at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    pub counter: String,
    pub outcome: String,
    pub hits: String,
    pub attempts: String,
}

/// A verdict on the client's status against the ledger: its class (the
/// colour), a lead in bold, and the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub class: &'static str,
    pub lead: &'static str,
    pub text: String,
}

/// The figures with the playhead at `t`.
pub fn at(run: &Run, t: Millis) -> Figures {
    let s = run.snapshot_at(t);
    let outcome = match s.client {
        ClientState::Done { outcome, at } => format!("{} at {at}", outcome.name()),
        ClientState::AwaitingResponse { attempt, .. } => format!("not yet: waiting for attempt {attempt}"),
        ClientState::WaitingToSend { attempt, at } if attempt > 1 => format!("not yet: attempt {attempt} at {at}"),
        ClientState::WaitingToSend { .. } => "not yet".to_owned(),
    };
    Figures {
        counter: s.counter().to_string(),
        outcome,
        hits: s.dedup_hits.to_string(),
        attempts: format!("{} of {}", s.attempts_sent, run.settings().max_attempts()),
    }
}

/// The verdict with the playhead at `t`, once the client has decided.
pub fn verdict_at(run: &Run, t: Millis) -> Option<Verdict> {
    let s = run.snapshot_at(t);
    let ClientState::Done { outcome, .. } = s.client else { return None };
    let increments = increments(s.counter());
    let verdict = |class, lead, text| Some(Verdict { class, lead, text });
    match outcome {
        Outcome::Succeeded if s.counter() != 1 => verdict(
            "disagree",
            "The client status and the ledger disagree: ",
            format!("the client reports one success, but the ledger holds {increments}."),
        ),
        Outcome::Exhausted(_) => verdict(
            "unknown",
            "",
            format!(
                "The client gave up{} without knowing the result; the ledger holds {increments}. The intent is kept for reconciliation.",
                outcome_reason(outcome)
            ),
        ),
        Outcome::Rejected(Status::Unprocessable) => verdict(
            "unknown",
            "",
            format!(
                "The server refused the retry with 422: its payload differs from the one the key was first used with. The ledger holds {increments}."
            ),
        ),
        Outcome::Succeeded if s.mismatched_hits > 0 => verdict(
            "disagree",
            "A mismatched hit: ",
            "the client believes its payload B was applied, but the ledger holds payload A.".to_owned(),
        ),
        _ => None,
    }
}

/// The end of the run in one line, for the strip's second line.
pub fn end_line(run: &Run) -> String {
    let s = run.summary();
    format!(
        "At the end of the run ({}): {}; the client {} at {}.",
        s.end,
        increments(s.committed),
        s.outcome.name(),
        s.outcome_at
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::DEDUP;

    #[test]
    fn the_strip_reads_the_playheads_moment_and_the_end_apart() {
        // docs/model.md's opening run with deduplication off: attempt 1 is sent
        // at 0 and commits at 2.00 s (its success lost at 2.05 s); attempt 2
        // goes at 4.00 s and commits at 6.00 s; acknowledged at 6.05 s.
        let run = Run::simulate(&Settings::from_pairs(&[(&DEDUP, "off")]).unwrap()).unwrap();
        let f = at(&run, Millis::ZERO);
        assert_eq!((f.counter.as_str(), f.outcome.as_str()), ("0", "not yet: waiting for attempt 1"));
        assert_eq!(f.attempts, "1 of 3");
        assert_eq!(verdict_at(&run, Millis::ZERO), None);
        let f = at(&run, Millis(3_500));
        assert_eq!((f.counter.as_str(), f.outcome.as_str()), ("1", "not yet: attempt 2 at 4.00 s"));
        let f = at(&run, Millis(6_050));
        assert_eq!((f.counter.as_str(), f.outcome.as_str(), f.hits.as_str()), ("2", "succeeded at 6.05 s", "0"));
        assert_eq!(
            verdict_at(&run, Millis(6_050)).unwrap().text,
            "the client reports one success, but the ledger holds 2 increments."
        );
        assert_eq!(end_line(&run), "At the end of the run (6.05 s): 2 increments; the client succeeded at 6.05 s.");
    }
}
