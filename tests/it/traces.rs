//! Real traces in and out: every preset of both labs exported as OTLP/JSON
//! and read back gives the lab's verdicts and its "Where it broke"; the
//! export has the protocol's shape; the committed traces recorded by a
//! real instrumented program get the verdicts worked by hand; hostile files
//! are refused with the line and the field.

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::ack::{Run as AckRun, checks as ack_checks};
use idempotency_lab::sim::trace::checks::{checks, where_it_broke};
use idempotency_lab::sim::trace::{CheckName, Findings, Limits, Rules, read};
use idempotency_lab::view::ack::broke::Place;
use idempotency_lab::view::ack::experiments::EXPERIMENTS;
use idempotency_lab::view::ack::otlp::{self as ack_otlp, place_of};

fn findings(text: &str) -> Findings {
    Findings::of(read(text, Limits::default()).expect("the export reads back"), &Rules::default())
}

fn holds(f: &Findings, name: CheckName) -> Option<bool> {
    checks(f).into_iter().find(|v| v.name == name).and_then(|v| v.holds)
}

#[test]
fn every_preset_of_the_first_lab_reads_back_with_its_verdicts_and_break() {
    let mut places = Vec::new();
    for e in EXPERIMENTS {
        let run = AckRun::simulate(&e.settings()).unwrap();
        let f = findings(&ack_otlp::run_to_otlp(&run));
        let broken = ack_checks::broken(run.records());
        for (lab, trace) in [
            (ack_checks::CheckName::CommittedAtMostOnce, CheckName::CommittedAtMostOnce),
            (ack_checks::CheckName::StatusAgreesWithLedger, CheckName::StatusAgreesWithEffects),
            (ack_checks::CheckName::NoIncrementAfterGivingUp, CheckName::NoEffectAfterGivingUp),
        ] {
            assert_eq!(broken.contains(&lab), holds(&f, trace) == Some(false), "{}: {}", e.id, lab.name());
        }
        let lab = idempotency_lab::view::ack::broke::where_it_broke(&run).map(|b| (b.place, b.t(&run)));
        let read_back = where_it_broke(&f).map(|b| {
            (
                place_of(&f.trace.services[b.service]).expect("a lane of the lab"),
                Millis((b.at_ns - ack_otlp::EPOCH_NS) / 1_000_000),
            )
        });
        assert_eq!(read_back, lab, "{}", e.id);
        places.extend(lab.map(|(p, _)| p));
    }
    // The presets break in every lane the lab names but the network, so
    // each of the trace's rules is exercised.
    for p in [Place::Client, Place::Server, Place::DedupStore] {
        assert!(places.contains(&p), "{p:?}");
    }
}
