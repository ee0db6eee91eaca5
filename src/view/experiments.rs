//! Guided experiments: settings to apply, a question to predict, and an
//! explanation whose figures come from the run itself.

use crate::sim::{Param, Run, Settings};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// "How many increments will the ledger show?"
    Increments,
    /// "What will the client report?"
    Outcome,
}

impl Question {
    pub fn text(self) -> &'static str {
        match self {
            Question::Increments => "How many increments will the ledger show when the run is over?",
            Question::Outcome => "What will the client report when it is done?",
        }
    }

    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Question::Increments => &["0", "1", "2", "3"],
            Question::Outcome => &["succeeded", "rejected", "exhausted"],
        }
    }

    /// The right choice for `run`.
    pub fn answer(self, run: &Run) -> String {
        match self {
            Question::Increments => run.summary().committed.to_string(),
            Question::Outcome => run.summary().outcome.name().to_owned(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    pub id: &'static str,
    pub title: &'static str,
    /// Applied on top of the opening settings.
    pub setup: &'static [(Param, &'static str)],
    pub question: Question,
    /// Why it comes out as it does; `{counter}`, `{outcome}`, `{hits}`,
    /// `{attempts}`, `{late}` and `{lost}` are filled in from the run.
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
        setup: &[(Param::Dedup, "off")],
        question: Question::Increments,
        why: "The retry looks exactly like the first request, and without deduplication the server executes it \
              again. The client reports {outcome} once, yet the ledger holds {counter} increments: the client's \
              status and the ledger disagree, and only the ledger tells the truth.",
    },
    Experiment {
        id: "key-per-attempt",
        title: "A new key for every attempt",
        setup: &[(Param::Key, "per-attempt")],
        question: Question::Increments,
        why: "Deduplication is on, but each attempt carries a fresh key, so the retry's key has no stored result \
              and the server executes it as new work: {counter} increments, {hits} deduplication hits. A key must \
              name the intent, not the attempt.",
    },
    Experiment {
        id: "retention-zero",
        title: "Retention zero",
        setup: &[(Param::RetentionMs, "0")],
        question: Question::Increments,
        why: "The result is stored but expires the instant it commits, so the retry finds nothing to replay and \
              executes again: {counter} increments. Retention must outlast the client's whole retry schedule.",
    },
    Experiment {
        id: "lose-all-dedup",
        title: "Every success lost, deduplication on",
        setup: &[(Param::Fault, "lose-all")],
        question: Question::Outcome,
        why: "Every success response, replays included, is lost. After {attempts} attempts the client gives up \
              ({outcome}) without knowing what happened, while the ledger holds {counter} increment: the intent \
              needs reconciliation, not another blind retry.",
    },
    Experiment {
        id: "lose-all-no-dedup",
        title: "Every success lost, deduplication off",
        setup: &[(Param::Fault, "lose-all"), (Param::Dedup, "off")],
        question: Question::Increments,
        why: "Each of the {attempts} attempts executes and each acknowledgement is lost: {counter} increments, \
              and the client still reports {outcome}. Retries without deduplication multiply effects.",
    },
    Experiment {
        id: "first-503",
        title: "First attempt gets 503",
        setup: &[(Param::Fault, "first-503")],
        question: Question::Increments,
        why: "A 503 means the server did nothing, so retrying is safe: the second attempt executes once and is \
              acknowledged. {counter} increment, outcome {outcome}.",
    },
    Experiment {
        id: "reject-400",
        title: "Input rejected with 400",
        setup: &[(Param::Fault, "reject-400")],
        question: Question::Outcome,
        why: "A 400 says the request itself is wrong; sending it again cannot help, so the client stops at once: \
              outcome {outcome}, {attempts} attempt, {counter} increments.",
    },
    Experiment {
        id: "timeout-short-no-dedup",
        title: "Timeout shorter than execution, deduplication off",
        setup: &[(Param::Fault, "none"), (Param::Dedup, "off"), (Param::TimeoutMs, "1000"), (Param::ExecMs, "2500")],
        question: Question::Increments,
        why: "Nothing is lost, yet every attempt times out before the server can finish, and the server keeps \
              working after the client stops waiting. The client gives up ({outcome}) while {counter} operations \
              commit; {late} answers arrive late and are ignored.",
    },
    Experiment {
        id: "timeout-short-dedup",
        title: "Timeout shorter than execution, deduplication on",
        setup: &[(Param::Fault, "none"), (Param::TimeoutMs, "1000"), (Param::ExecMs, "2500")],
        question: Question::Increments,
        why: "The retry arrives while the first operation is still running under the same key, so it joins that \
              operation instead of starting another: {counter} increment, {hits} deduplication hit, outcome \
              {outcome}. The first attempt's answer arrives late and is ignored.",
    },
];

impl Experiment {
    pub fn settings(&self) -> Settings {
        Settings::from_pairs(self.setup).expect("experiment settings are valid")
    }

    /// The explanation with the run's own figures filled in.
    pub fn explain(&self, run: &Run) -> String {
        let s = run.summary();
        self.why
            .replace("{counter}", &s.committed.to_string())
            .replace("{outcome}", s.outcome.name())
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
    use crate::sim::Outcome;

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
        // Worked out from MODEL.md, as in the scenario table.
        let expect = [
            ("lost-ack-dedup", 1, Outcome::Succeeded),
            ("lost-ack-no-dedup", 2, Outcome::Succeeded),
            ("key-per-attempt", 2, Outcome::Succeeded),
            ("retention-zero", 2, Outcome::Succeeded),
            ("lose-all-dedup", 1, Outcome::Exhausted),
            ("lose-all-no-dedup", 3, Outcome::Exhausted),
            ("first-503", 1, Outcome::Succeeded),
            ("reject-400", 0, Outcome::Rejected),
            ("timeout-short-no-dedup", 3, Outcome::Exhausted),
            ("timeout-short-dedup", 1, Outcome::Succeeded),
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
}
