//! The lessons that come with the labs: every step opens a run its lab
//! accepts without a notice, at a moment inside that run, and what each
//! answer says is what the run shows (worked out from MODEL.md and
//! RISK-MODEL.md by hand, then checked against the records here).

use idempotency_lab::sim::Millis;
use idempotency_lab::view::ack::ACK;
use idempotency_lab::view::ack::AckLab;
use idempotency_lab::view::ack::broke::{Place, where_it_broke};
use idempotency_lab::view::lab::LabModel;
use idempotency_lab::view::lesson::{LESSONS, Step, parse};
use idempotency_lab::view::risk::RISK;
use idempotency_lab::view::risk::RiskLab;
use idempotency_lab::view::storm::STORMS;
use idempotency_lab::view::storm::StormLab;
use idempotency_lab::view::url::decode_settings;

/// The step's run in its lab, with the notices its settings gave, and the
/// run's last moment.
fn open<L: LabModel>(step: &Step) -> (L::Run, Vec<String>, Millis) {
    let (settings, notices) = decode_settings::<L::Settings>(&step.settings);
    let run = L::simulate(&settings).unwrap_or_else(|e| panic!("{}: {e}", step.title));
    let end = L::last_moment(&run);
    (run, notices, end)
}

#[test]
fn every_step_of_every_shipped_lesson_opens_cleanly() {
    for text in LESSONS {
        let lesson = parse(text).unwrap();
        for step in &lesson.steps {
            let (notices, end) = match step.lab {
                lab if lab == ACK => checked::<AckLab>(step),
                lab if lab == RISK => checked::<RiskLab>(step),
                lab if lab == STORMS => checked::<StormLab>(step),
                lab => panic!("no lab {}", lab.id),
            };
            assert!(notices.is_empty(), "{}: {notices:?}", step.title);
            assert!(step.at.is_none_or(|at| at <= end), "{}: At {:?} is past the end {end}", step.title, step.at);
        }
    }
}

/// The notices a step's settings gave, and its run's last moment.
fn checked<L: LabModel>(step: &Step) -> (Vec<String>, Millis) {
    let (_, notices, end) = open::<L>(step);
    (notices, end)
}

#[test]
fn the_three_ways_lesson_says_what_its_runs_show() {
    let lesson = parse(LESSONS[0]).unwrap();
    let steps = &lesson.steps;
    // The opening run: one increment, and the playhead at its end (the
    // replayed success reaches the client at 4.05 s).
    let (opening, _, end) = open::<AckLab>(&steps[0]);
    assert_eq!((opening.ledger().len(), end, steps[0].at), (1, Millis(4_050), Some(Millis(4_050))));
    // The three breaks, each in the lane and at the moment its answer names;
    // each run ends at 6.05 s, when the second attempt's success arrives.
    for (step, place, at) in [
        (&steps[1], Place::Server, "4.00 s"),
        (&steps[2], Place::DedupStore, "2.00 s"),
        (&steps[3], Place::Client, "4.00 s"),
    ] {
        let (run, _, end) = open::<AckLab>(step);
        let b = where_it_broke(&run).unwrap_or_else(|| panic!("{} breaks", step.title));
        assert_eq!((b.place, end, step.at), (place, Millis(6_050), Some(Millis(6_050))), "{}", step.title);
        let answer = step.answer.as_deref().unwrap();
        assert!(answer.starts_with(&format!("In the {}, at {at}", place.lane())), "{}: {answer}", step.title);
        assert_eq!(b.t(&run).to_string(), at);
    }
    // The incident without its patterns: two reviews for one order.
    let (incident, _, _) = open::<RiskLab>(&steps[4]);
    assert_eq!(incident.reviews().len(), 2);
    assert!(steps[4].answer.as_deref().unwrap().starts_with("Two."));
}
