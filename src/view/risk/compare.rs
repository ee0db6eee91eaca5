//! Two risk-review runs compared, in words: the "Differences" panel's lines
//! and the text mirror of both runs on one clock.

use crate::sim::Millis;
use crate::sim::risk::compare::Comparison;
use crate::sim::risk::{Review, Run};
use crate::view::compare::{DiffLine, both_mirrors, counts, divergence_line, fork_line, what_b_changes};
use crate::view::num::plural;

use super::checks::title;
use super::mirror::{intent_kind, text_mirror};
use super::names;
use super::sentences::{sentence, verdict};

fn reviews(n: u64) -> String {
    plural(n, "review", "reviews")
}

/// "1 intent done, SUCCEEDED": the agent's intents by how they stand at the
/// end of the run, in order of first appearance.
fn agent_outcome(run: &Run) -> String {
    let snapshot = run.snapshot_at(run.horizon());
    let mut kinds: Vec<(&'static str, u64)> = Vec::new();
    for intent in &snapshot.intents {
        let kind = intent_kind(intent.state);
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    if kinds.is_empty() {
        return "no intents".to_owned();
    }
    kinds.iter().map(|(kind, n)| format!("{} {kind}", plural(*n, "intent", "intents"))).collect::<Vec<_>>().join(", ")
}

/// The checks whose verdicts differ at the end of the runs.
fn checks(a: &Run, b: &Run) -> String {
    let differ: Vec<String> = a
        .checks()
        .iter()
        .zip(b.checks().iter())
        .filter(|(x, y)| x.holds != y.holds)
        .map(|(x, y)| format!("{}: A {}, B {}", title(x.name), verdict(x.holds), verdict(y.holds)))
        .collect();
    if differ.is_empty() { "every check has the same verdict".to_owned() } else { differ.join("; ") }
}

fn review_list(list: &[Review]) -> String {
    if list.is_empty() {
        return "none".to_owned();
    }
    list.iter()
        .map(|r| {
            format!(
                "{} for {} (request_key {}) at {}",
                names::review(r.review),
                names::order(r.order),
                names::request_key(r.request_key),
                names::when(r.at)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// An event as a phrase: its sentence without the final stop.
fn phrase(record: &crate::sim::risk::Record) -> String {
    let mut text = sentence(record);
    if text.ends_with('.') {
        text.pop();
    }
    text
}

/// The differences between A and B, line by line; `fork` is the model time
/// B was forked at, if it was.
pub fn differences(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>) -> Vec<DiffLine> {
    let count = |run: &Run| run.reviews().len() as u64;
    let mut lines = vec![
        DiffLine { label: "Reviews at the Risk API".to_owned(), text: counts(count(a), count(b), reviews) },
        DiffLine { label: "Agent".to_owned(), text: format!("A: {}; B: {}", agent_outcome(a), agent_outcome(b)) },
        DiffLine { label: "Checks".to_owned(), text: checks(a, b) },
        divergence_line(c, phrase, (a.horizon(), b.horizon())),
        DiffLine { label: "Only in A's Risk API".to_owned(), text: review_list(&c.only_a) },
        DiffLine { label: "Only in B's Risk API".to_owned(), text: review_list(&c.only_b) },
    ];
    lines.extend(fork.map(|at| fork_line(c, at)));
    lines
}

/// The text mirror of both runs at model time `t` on their shared clock,
/// and their differences.
pub fn compare_mirror(a: &Run, b: &Run, c: &Comparison, fork: Option<Millis>, t: Millis) -> String {
    let t = t.min(a.horizon().max(b.horizon()));
    // Each run's own mirror without its clock line (the second): the clock
    // is shared.
    let own = |run: &Run| {
        let text = text_mirror(run, t);
        let lines: Vec<&str> = text.lines().enumerate().filter(|(i, _)| *i != 1).map(|(_, l)| l).collect();
        (lines.join("\n"), run.horizon())
    };
    let clock = format!("Model time: {t}, {} on the wall clock.", names::clock(t));
    both_mirrors(clock, what_b_changes(a.settings(), b.settings()), [own(a), own(b)], t, &differences(a, b, c, fork))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::Settings;
    use crate::sim::risk::settings::{IDEMPOTENT_CREATE, MODE};

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
    fn an_idempotent_create_in_words() {
        // The incident, naive, against the same with only the idempotent
        // create: the retry's create at 10:31:12.531 (4.411 s) returns the
        // first review instead of creating RV-2.
        let (a, b, c) = pair(&[(&IDEMPOTENT_CREATE, "on")]);
        let lines = differences(&a, &b, &c, None);
        assert_eq!(line(&lines, "Reviews at the Risk API"), "A: 2 reviews, B: 1 review");
        let first = line(&lines, "First divergence");
        assert!(first.starts_with("at 4.411 s (event "), "{first}");
        assert_eq!(
            line(&lines, "Only in A's Risk API"),
            "RV-2 for O20260728001 (request_key rk-0001) at 10:31:12.531 (4.411 s)"
        );
        assert_eq!(line(&lines, "Only in B's Risk API"), "none");
        // The retry hears SUCCEEDED in both runs (the idempotent create
        // answers with the first review), so the agent cannot tell them
        // apart; only the ledger and its check can.
        assert_eq!(line(&lines, "Agent"), "A: 1 intent done, SUCCEEDED; B: 1 intent done, SUCCEEDED");
        assert!(line(&lines, "Checks").contains("One review per business key: A fails, B holds"), "{lines:?}");
        assert_eq!(
            crate::view::compare::what_b_changes(a.settings(), b.settings()),
            "Idempotent create: As the mode says → On"
        );
    }

    #[test]
    fn a_fork_after_the_first_create_agrees_before_it() {
        let (_, _, c) = pair(&[(&IDEMPOTENT_CREATE, "on")]);
        assert_eq!(fork_line(&c, Millis(3880)).text, "at 3.88 s: the runs agree on every event before the fork");
        assert!(fork_line(&c, Millis(5000)).text.contains("already differ at 4.411 s"));
    }

    #[test]
    fn identical_runs_say_so() {
        let (a, b, c) = pair(&[]);
        let lines = differences(&a, &b, &c, None);
        assert_eq!(line(&lines, "First divergence"), "none: the runs agree on every event");
        assert_eq!(line(&lines, "Reviews at the Risk API"), "A: 2 reviews, B: 2 reviews (the same)");
        assert_eq!(line(&lines, "Checks"), "every check has the same verdict");
    }

    #[test]
    fn the_mirror_describes_both_runs_and_the_difference() {
        let (a, b, c) = pair(&[(&MODE, "patterns")]);
        let text = compare_mirror(&a, &b, &c, None, Millis(6000));
        assert!(
            text.starts_with(
                "Model time: 6.00 s, 10:31:14.120 on the wall clock.\nTwo runs on one clock. Run B is run A with Mode: "
            ),
            "{text}"
        );
        assert!(
            text.contains("\nRun A (it ends at 30.00 s):\n  Risk-review lab: preset incident, mode naive."),
            "{text}"
        );
        assert!(
            text.contains("\nRun B (it ends at 30.00 s):\n  Risk-review lab: preset incident, mode patterns."),
            "{text}"
        );
        assert!(text.contains("\n  Reviews at the Risk API: A: 2 reviews, B: 1 review"), "{text}");
    }
}
