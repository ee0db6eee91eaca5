//! Two storm runs compared, in words: the lines of the storm lab's
//! "Differences" region. The worker writes them (it holds both runs); the
//! page shows them as they come.

use serde::{Deserialize, Serialize};

use crate::sim::compare::Divergence;
use crate::sim::storm::StormSettings;
use crate::sim::storm::compare::StormPair;
use crate::sim::storm::occ::OccEvent;
use crate::sim::storm::overload::{Answer, StormEvent};
use crate::sim::time::Micros;
use crate::view::compare::{counts, what_b_changes};

/// One line of the differences, as the page receives it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Difference {
    pub label: String,
    pub text: String,
}

fn line(label: &str, text: String) -> Difference {
    Difference { label: label.to_owned(), text }
}

/// Clients are counted from 1, as a reader would.
fn client(c: u32) -> String {
    format!("client {}", u64::from(c) + 1)
}

/// An overload run's event as a short phrase.
pub fn overload_phrase(event: &StormEvent) -> String {
    match *event {
        StormEvent::Send { client: c, attempt: 1 } => format!("{} sends its first attempt", client(c)),
        StormEvent::Send { client: c, attempt } => format!("{} sends attempt {attempt}", client(c)),
        StormEvent::Request { client: c, attempt } => format!("{}'s attempt {attempt} reaches the server", client(c)),
        StormEvent::Done(_) => "an operation finishes at the server".to_owned(),
        StormEvent::Response { client: c, attempt, answer: Answer::Success } => {
            format!("{} hears success for attempt {attempt}", client(c))
        }
        StormEvent::Response { client: c, attempt, answer: Answer::TooMany } => {
            format!("{} hears 429 for attempt {attempt}", client(c))
        }
        StormEvent::Deadline { client: c, attempt } => format!("{}'s deadline for attempt {attempt} comes", client(c)),
    }
}

/// A contention run's event as a short phrase.
pub fn occ_phrase(event: &OccEvent) -> String {
    match *event {
        OccEvent::WriteAtServer { client: c, read_at } => {
            format!("{}'s write, based on its read at {}, reaches the server", client(c), ms(read_at))
        }
    }
}

/// Microseconds as milliseconds with three decimals: "152.345 ms".
fn ms(t: Micros) -> String {
    let us = t.us();
    format!("{}.{:03} ms", us / 1000, us % 1000)
}

/// The "First divergence" line: where the runs first handle different
/// events, each run's event there, or that they never part.
fn divergence_line<E>(d: Option<&Divergence<(Micros, E)>>, phrase: impl Fn(&E) -> String) -> Difference {
    let text = match d {
        None => "none: the runs handle the same events in the same order".to_owned(),
        Some(d) => {
            let t = [&d.a, &d.b].into_iter().flatten().map(|(t, _)| *t).min().unwrap_or(Micros::ZERO);
            let side = |e: &Option<(Micros, E)>| match e {
                Some((at, e)) if *at == t => phrase(e),
                Some((at, e)) => format!("{} at {}", phrase(e), ms(*at)),
                None => "nothing more happens (the run has ended)".to_owned(),
            };
            format!(
                "at {} (event {}; the runs agree on every event before it). A: {}. B: {}.",
                ms(t),
                d.index + 1,
                side(&d.a),
                side(&d.b)
            )
        }
    };
    line("First divergence", text)
}

fn plain(n: u64) -> String {
    n.to_string()
}

fn millis(v: Option<f64>) -> String {
    v.map_or("none".to_owned(), |v| format!("{v:.1} ms"))
}

/// Every line of the differences between run A (`a`) and run B (`b`).
pub fn differences(a: &StormSettings, b: &StormSettings, pair: &StormPair) -> Vec<Difference> {
    let mut out = vec![line("Run B changes", what_b_changes(a, b))];
    match pair {
        StormPair::Overload { a: ra, b: rb, divergence } => {
            out.push(divergence_line(divergence.as_ref(), overload_phrase));
            let (ta, tb) = (&ra.totals, &rb.totals);
            for (label, x, y) in [
                ("Acknowledged", ta.acknowledged, tb.acknowledged),
                ("Exhausted", ta.exhausted, tb.exhausted),
                ("Requests", ta.requests, tb.requests),
                ("Retries", ta.retries, tb.retries),
                ("Operations executed", ta.operations, tb.operations),
                ("Wasted operations", ta.wasted, tb.wasted),
                ("Duplicate effects", ta.duplicate_effects, tb.duplicate_effects),
                ("429s", ta.rejected, tb.rejected),
                ("Timeouts", ta.timeouts, tb.timeouts),
            ] {
                out.push(line(label, counts(x, y, plain)));
            }
            let (p99a, p99b) = (ra.percentile_us(99), rb.percentile_us(99));
            out.push(line(
                "Latency p99",
                format!(
                    "A: {}, B: {}{}",
                    millis(p99a.map(|us| us as f64 / 1000.0)),
                    millis(p99b.map(|us| us as f64 / 1000.0)),
                    if p99a == p99b { " (the same)" } else { "" }
                ),
            ));
            out.push(line("Run ends", format!("A: at {}, B: at {}", ms(Micros(ta.end_us)), ms(Micros(tb.end_us)))));
        }
        StormPair::Occ { a: ra, b: rb, divergence } => {
            out.push(divergence_line(divergence.as_ref(), occ_phrase));
            out.push(line("Write calls", counts(ra.calls, rb.calls, plain)));
            out.push(line("Failed writes", counts(ra.failed_writes, rb.failed_writes, plain)));
            out.push(line(
                "Completion",
                format!("A: at {}, B: at {}", ms(Micros(ra.completion_us)), ms(Micros(rb.completion_us))),
            ));
        }
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::sim::Schema;

    fn settings(pairs: &[(&str, &str)]) -> StormSettings {
        StormSettings::from_links(pairs)
    }

    #[test]
    fn identical_runs_say_so_on_every_line() {
        let a = settings(&[("clients", "300")]);
        let pair = StormPair::simulate(&a, &a).unwrap();
        let lines = differences(&a, &a, &pair);
        assert_eq!(lines[0], line("Run B changes", "the same settings".to_owned()));
        assert_eq!(lines[1].text, "none: the runs handle the same events in the same order");
        for l in &lines[2..lines.len() - 2] {
            assert!(l.text.ends_with("(the same)"), "{l:?}");
        }
    }

    #[test]
    fn the_divergence_names_each_runs_event_and_the_counters_differ() {
        let a = settings(&[("seed", "3")]);
        let b = a.with(StormSettings::by_link("attempts").unwrap(), 1).unwrap();
        let pair = StormPair::simulate(&a, &b).unwrap();
        let lines = differences(&a, &b, &pair);
        assert_eq!(lines[0].text, "Maximum total attempts: 4 → 1");
        let first = &lines[1].text;
        assert!(first.starts_with("at "), "{first}");
        // Run A retries where run B, allowed one attempt, cannot.
        assert!(first.contains("A: client ") && first.contains(" sends attempt 2"), "{first}");
        let retries = lines.iter().find(|l| l.label == "Retries").unwrap();
        assert!(retries.text.ends_with(", B: 0"), "{retries:?}");
    }

    #[test]
    fn phrases_count_clients_from_one() {
        assert_eq!(overload_phrase(&StormEvent::Send { client: 0, attempt: 1 }), "client 1 sends its first attempt");
        assert_eq!(
            overload_phrase(&StormEvent::Response { client: 16, attempt: 2, answer: Answer::TooMany }),
            "client 17 hears 429 for attempt 2"
        );
        assert_eq!(
            occ_phrase(&OccEvent::WriteAtServer { client: 4, read_at: Micros(20_517) }),
            "client 5's write, based on its read at 20.517 ms, reaches the server"
        );
        assert_eq!(ms(Micros(152_345)), "152.345 ms");
    }
}
