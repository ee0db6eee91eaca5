//! Guided experiments: settings to apply, a question to predict, and an
//! explanation whose figures come from the run itself.

use crate::sim::ParamDef;
use crate::sim::Surely;
use crate::sim::ack::settings::{
    CRASH, DEDUP, EXEC, FAULT, FINGERPRINT, IN_FLIGHT, KEY, LEASE, PAYLOAD, RETENTION, STORE, TIMEOUT,
};
use crate::sim::ack::{Run, Settings};

use super::broke::{Place, break_words, where_it_broke};
use super::sentences::outcome_text;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// "How many increments will the ledger show?"
    Increments,
    /// "What will the client report?"
    Outcome,
    /// "How many attempts will the client send?"
    Attempts,
}

impl Question {
    pub fn text(self) -> &'static str {
        match self {
            Question::Increments => "How many increments will the ledger show when the run is over?",
            Question::Outcome => "What will the client report when it is done?",
            Question::Attempts => "How many attempts will the client send?",
        }
    }

    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Question::Increments => &["0", "1", "2", "3"],
            Question::Outcome => &["succeeded", "rejected", "exhausted"],
            Question::Attempts => &["1", "2", "3"],
        }
    }

    /// The right choice for `run`.
    pub fn answer(self, run: &Run) -> String {
        match self {
            Question::Increments => run.summary().committed.to_string(),
            Question::Outcome => run.summary().outcome.name().to_owned(),
            Question::Attempts => run.summary().attempts.to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    pub id: &'static str,
    pub title: &'static str,
    /// Applied on top of the opening settings.
    pub setup: &'static [(&'static ParamDef, &'static str)],
    pub question: Question,
    /// Why it comes out as it does; `{counter}`, `{outcome}`, `{hits}`,
    /// `{attempts}`, `{late}`, `{lost}`, `{conflicts}`, `{mismatched}`,
    /// `{outcome_at}` and `{outcome_reason}` are filled in from the run.
    pub why: &'static str,
}

pub const EXPERIMENTS: &[Experiment] = &[
    Experiment {
        id: "lost-ack-dedup",
        title: "Lost acknowledgement, deduplication on",
        setup: &[],
        question: Question::Increments,
        why: "The first success response vanished, so the client retried with the same key. The server found the \
              stored result and replayed it instead of executing again: {hits} deduplication hit(s), {counter} \
              increment(s), and the client reports {outcome}.",
    },
    Experiment {
        id: "lost-ack-no-dedup",
        title: "Lost acknowledgement, deduplication off",
        setup: &[(DEDUP.def(), "off")],
        question: Question::Increments,
        why: "The retry looks exactly like the first request, and without deduplication the server executes it \
              again. The client reports {outcome} once, yet the ledger holds {counter} increments: the client's \
              status and the ledger disagree, and only the ledger tells the truth.",
    },
    Experiment {
        id: "key-per-attempt",
        title: "A new key for every attempt",
        setup: &[(KEY.def(), "per-attempt")],
        question: Question::Increments,
        why: "Deduplication is on, but each attempt carries a fresh key, so the retry's key has no stored result \
              and the server executes it as new work: {counter} increments, {hits} deduplication hits. A key must \
              name the intent, not the attempt.",
    },
    Experiment {
        id: "retention-zero",
        title: "Retention zero",
        setup: &[(RETENTION.def(), "0")],
        question: Question::Increments,
        why: "The result is stored but expires the instant it commits, so the retry finds nothing to replay and \
              executes again: {counter} increments. Retention must outlast the client's whole retry schedule.",
    },
    Experiment {
        id: "lose-all-dedup",
        title: "Every success lost, deduplication on",
        setup: &[(FAULT.def(), "lose-all")],
        question: Question::Outcome,
        why: "Every success response, replays included, is lost. After {attempts} attempts the client gives up \
              ({outcome}) without knowing what happened, while the ledger holds {counter} increment: the intent \
              needs reconciliation, not another blind retry.",
    },
    Experiment {
        id: "lose-all-no-dedup",
        title: "Every success lost, deduplication off",
        setup: &[(FAULT.def(), "lose-all"), (DEDUP.def(), "off")],
        question: Question::Increments,
        why: "Each of the {attempts} attempts executes and each acknowledgement is lost: {counter} increments, \
              and the client still reports {outcome}. Retries without deduplication multiply effects.",
    },
    Experiment {
        id: "first-503",
        title: "First attempt gets 503",
        setup: &[(FAULT.def(), "first-503")],
        question: Question::Increments,
        why: "A 503 means the server did nothing, so retrying is safe: the second attempt executes once and is \
              acknowledged. {counter} increment, outcome {outcome}.",
    },
    Experiment {
        id: "reject-400",
        title: "Input rejected with 400",
        setup: &[(FAULT.def(), "reject-400")],
        question: Question::Outcome,
        why: "A 400 says the request itself is wrong; sending it again cannot help, so the client stops at once: \
              outcome {outcome}, {attempts} attempt, {counter} increments.",
    },
    Experiment {
        id: "timeout-short-no-dedup",
        title: "Timeout shorter than execution, deduplication off",
        setup: &[(FAULT.def(), "none"), (DEDUP.def(), "off"), (TIMEOUT.def(), "1000"), (EXEC.def(), "2500")],
        question: Question::Increments,
        why: "Nothing is lost, yet every attempt times out before the server can finish, and the server keeps \
              working after the client stops waiting. The client gives up ({outcome}) while {counter} operations \
              commit; {late} answers arrive late and are ignored.",
    },
    Experiment {
        id: "timeout-short-dedup",
        title: "Timeout shorter than execution, deduplication on",
        setup: &[(FAULT.def(), "none"), (TIMEOUT.def(), "1000"), (EXEC.def(), "2500")],
        question: Question::Increments,
        why: "The retry arrives while the first operation is still running under the same key, so it joins that \
              operation instead of starting another: {counter} increment, {hits} deduplication hit, outcome \
              {outcome}. The first attempt's answer arrives late and is ignored.",
    },
    Experiment {
        id: "crash-after-effect-memory",
        title: "Crash after the effect, in-memory store",
        setup: &[(FAULT.def(), "none"), (CRASH.def(), "after-effect")],
        question: Question::Increments,
        why: "The server applied the increment, then crashed before storing the result, and an in-memory store \
              forgets every key in a crash. The retry finds nothing and executes again: {counter} increments, and \
              the client reports {outcome}. Deduplication that does not survive a crash protects nothing across one.",
    },
    Experiment {
        id: "crash-after-effect-atomic",
        title: "Crash after the effect, durable atomic store",
        setup: &[(FAULT.def(), "none"), (CRASH.def(), "after-effect"), (STORE.def(), "durable-atomic")],
        question: Question::Increments,
        why: "The effect and the stored result are one transaction in a durable store, so the crash cannot fall \
              between them. The retry is answered from the store: {counter} increment, {hits} deduplication hit, \
              outcome {outcome}.",
    },
    Experiment {
        id: "orphan-no-lease",
        title: "Orphaned reservation, no lease",
        setup: &[(FAULT.def(), "none"), (CRASH.def(), "after-effect"), (STORE.def(), "durable-separate")],
        question: Question::Outcome,
        why: "The durable store kept the key's reservation, but the operation that held it died in the crash. \
              Every retry joins a dead operation and waits for an answer that never comes: {hits} deduplication \
              hits, outcome {outcome_reason} at {outcome_at}, while the ledger holds {counter} increment.",
    },
    Experiment {
        id: "orphan-with-lease",
        title: "Orphaned reservation with a 5 s lease",
        setup: &[
            (FAULT.def(), "none"),
            (CRASH.def(), "after-effect"),
            (STORE.def(), "durable-separate"),
            (LEASE.def(), "5000"),
        ],
        question: Question::Increments,
        why: "The lease lets the orphaned reservation go at 5.00 s, so a later retry reserves the key afresh and \
              executes. The client reports {outcome}, but the first increment was applied before the crash: \
              {counter} increments. A lease frees a stuck key; only a result stored with the effect prevents the \
              duplicate.",
    },
    Experiment {
        id: "short-lease",
        title: "A lease shorter than the work",
        setup: &[(FAULT.def(), "none"), (TIMEOUT.def(), "1000"), (LEASE.def(), "1500")],
        question: Question::Increments,
        why: "Nothing fails: no lost response, no crash. But the lease ends at 1.50 s while the operation still \
              runs, so the retry at 2.00 s reserves the key again and executes a second time: {counter} \
              increments, {late} late answers. A lease must outlast the work it protects.",
    },
    Experiment {
        id: "payload-changed-checked",
        title: "Changed payload, fingerprint checked",
        setup: &[(PAYLOAD.def(), "changed")],
        question: Question::Outcome,
        why: "The retry rebuilt its body (payload B) but kept the key of payload A. The server compares \
              fingerprints and answers 422, which is final: outcome {outcome_reason}, {counter} increment. The bug \
              surfaces instead of hiding.",
    },
    Experiment {
        id: "payload-changed-unchecked",
        title: "Changed payload, no fingerprint check",
        setup: &[(PAYLOAD.def(), "changed"), (FINGERPRINT.def(), "off")],
        question: Question::Outcome,
        why: "Without a fingerprint check the server replays payload A's stored result to a request carrying B: \
              the client reports {outcome}, {mismatched} mismatched hit, and believes B was applied while the \
              ledger holds A.",
    },
    Experiment {
        id: "join-vs-409",
        title: "Duplicate in flight: 409 instead of joining",
        setup: &[(FAULT.def(), "none"), (TIMEOUT.def(), "1000"), (IN_FLIGHT.def(), "reject-409")],
        question: Question::Attempts,
        why: "The retry arrives while the first operation still runs. Answered 409, it backs off and comes back \
              for the stored result: {attempts} attempts, {conflicts} conflict, acknowledged at {outcome_at}. With \
              join, the same retry would have waited for the running operation and been answered at 2.05 s.",
    },
];

/// Each experiment's id and title, taken from [`EXPERIMENTS`] when the
/// program is compiled: a list that carries none of the experiments'
/// questions and explanations (the opening page's list).
pub const NAMES: [(&str, &str); EXPERIMENTS.len()] = {
    let mut names = [("", ""); EXPERIMENTS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = (EXPERIMENTS[i].id, EXPERIMENTS[i].title);
        i += 1;
    }
    names
};

/// "Break it three ways": the seed's three changes, each with the first
/// success lost, shown one under the other on one clock.
pub const THREE_WAYS: [(&str, &[(&ParamDef, &str)]); 3] = [
    ("Deduplication off", &[(DEDUP.def(), "off")]),
    ("Retention zero", &[(RETENTION.def(), "0")]),
    ("A new key per attempt", &[(KEY.def(), "per-attempt")]),
];

/// The question each of the three runs asks.
pub const WHERE_QUESTION: &str = "Where did idempotency break?";

/// The three runs of "Break it three ways", with their titles.
pub fn three_ways() -> Vec<(&'static str, Run)> {
    THREE_WAYS
        .iter()
        .map(|(title, setup)| {
            let settings = Settings::from_pairs(setup).surely("the three ways' settings are valid");
            (*title, Run::simulate(&settings).surely("the three ways run"))
        })
        .collect()
}

/// What the page says once the reader has chosen `chosen` for `run`.
pub fn where_verdict(run: &Run, chosen: Place) -> String {
    let Some(b) = where_it_broke(run) else {
        return "Nothing broke in this run.".to_owned();
    };
    let lead = if chosen == b.place {
        format!("Right: the {} lane.", b.place.lane())
    } else {
        format!("Not quite: you chose the {} lane; it broke in the {} lane.", chosen.lane(), b.place.lane())
    };
    format!("{lead} {}", break_words(run, Some(&b)))
}

impl Experiment {
    pub fn settings(&self) -> Settings {
        Settings::from_pairs(self.setup).surely("experiment settings are valid")
    }

    /// The explanation with the run's own figures filled in.
    pub fn explain(&self, run: &Run) -> String {
        let s = run.summary();
        self.why
            .replace("{counter}", &s.committed.to_string())
            .replace("{outcome_reason}", &outcome_text(s.outcome))
            .replace("{outcome_at}", &s.outcome_at.to_string())
            .replace("{outcome}", s.outcome.name())
            .replace("{conflicts}", &s.conflicts.to_string())
            .replace("{mismatched}", &s.mismatched_hits.to_string())
            .replace("{hits}", &s.dedup_hits.to_string())
            .replace("{attempts}", &s.attempts.to_string())
            .replace("{late}", &s.late_responses.to_string())
            .replace("{lost}", &s.lost_responses.to_string())
    }
}

/// "Right: 2." or "Not quite: you said 1, the run shows 2."
pub fn verdict(prediction: &str, answer: &str) -> String {
    if prediction == answer {
        format!("Right: {answer}.")
    } else {
        format!("Not quite: you said {prediction}, the run shows {answer}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::{ExhaustedBy, Outcome, Status};

    fn run(e: &Experiment) -> Run {
        Run::simulate(&e.settings()).unwrap()
    }

    #[test]
    fn every_answer_is_one_of_the_choices_and_every_placeholder_is_filled() {
        for e in EXPERIMENTS {
            let r = run(e);
            let answer = e.question.answer(&r);
            assert!(e.question.choices().contains(&answer.as_str()), "{}: {answer}", e.id);
            assert!(!e.explain(&r).contains('{'), "{}", e.id);
        }
    }

    #[test]
    fn experiments_teach_what_their_titles_say() {
        // Worked out from docs/model.md, as in the scenario table.
        let expect = [
            ("lost-ack-dedup", 1, Outcome::Succeeded),
            ("lost-ack-no-dedup", 2, Outcome::Succeeded),
            ("key-per-attempt", 2, Outcome::Succeeded),
            ("retention-zero", 2, Outcome::Succeeded),
            ("lose-all-dedup", 1, Outcome::Exhausted(ExhaustedBy::Attempts)),
            ("lose-all-no-dedup", 3, Outcome::Exhausted(ExhaustedBy::Attempts)),
            ("first-503", 1, Outcome::Succeeded),
            ("reject-400", 0, Outcome::Rejected(Status::Rejected)),
            ("timeout-short-no-dedup", 3, Outcome::Exhausted(ExhaustedBy::Attempts)),
            ("timeout-short-dedup", 1, Outcome::Succeeded),
            // docs/model.md's worked examples 1 to 8, as the new experiments use them.
            ("crash-after-effect-memory", 2, Outcome::Succeeded),
            ("crash-after-effect-atomic", 1, Outcome::Succeeded),
            ("orphan-no-lease", 1, Outcome::Exhausted(ExhaustedBy::Attempts)),
            ("orphan-with-lease", 2, Outcome::Succeeded),
            ("short-lease", 2, Outcome::Succeeded),
            ("payload-changed-checked", 1, Outcome::Rejected(Status::Unprocessable)),
            ("payload-changed-unchecked", 1, Outcome::Succeeded),
            ("join-vs-409", 1, Outcome::Succeeded),
        ];
        assert_eq!(expect.len(), EXPERIMENTS.len());
        for (id, counter, outcome) in expect {
            let e = EXPERIMENTS.iter().find(|e| e.id == id).unwrap();
            let s = *run(e).summary();
            assert_eq!((s.committed, s.outcome), (counter, outcome), "{id}");
        }
    }

    #[test]
    fn verdicts_say_right_or_not() {
        assert_eq!(verdict("2", "2"), "Right: 2.");
        assert_eq!(verdict("1", "2"), "Not quite: you said 1, the run shows 2.");
    }

    #[test]
    fn the_three_ways_break_in_three_lanes() {
        let runs = three_ways();
        let lanes: Vec<Place> = runs.iter().map(|(_, r)| where_it_broke(r).unwrap().place).collect();
        assert_eq!(lanes, [Place::Server, Place::DedupStore, Place::Client]);
        let (_, off) = &runs[0];
        assert!(where_verdict(off, Place::Server).starts_with("Right: the Server lane. Server lane, at 4.00 s:"));
        assert!(
            where_verdict(off, Place::Client)
                .starts_with("Not quite: you chose the Client lane; it broke in the Server lane.")
        );
    }
}
