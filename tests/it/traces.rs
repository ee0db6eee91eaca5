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

#[test]
fn every_preset_of_the_risk_lab_reads_back_with_its_verdicts_and_break() {
    use idempotency_lab::sim::risk::{CheckName as RiskCheck, Preset, Run as RiskRun, Settings as RiskSettings};
    use idempotency_lab::view::risk::otlp as risk_otlp;
    let mut broke = 0;
    for preset in Preset::ALL {
        for mode in ["naive", "patterns"] {
            let settings = RiskSettings::from_pairs(&[
                (idempotency_lab::sim::risk::settings::PRESET.def(), preset.value()),
                (idempotency_lab::sim::risk::settings::MODE.def(), mode),
            ])
            .unwrap();
            let run = RiskRun::simulate(&settings).unwrap();
            let f = findings(&risk_otlp::run_to_otlp(&run));
            let id = format!("{} {mode}", preset.value());
            // The lab's own check of one review per order.
            let lab = run.checks().into_iter().find(|c| c.name == RiskCheck::OneReviewPerBusinessKey).unwrap().holds;
            assert_eq!(holds(&f, CheckName::OneReviewPerBusinessKey), lab, "{id}");
            // At most one review per request_key, from the Risk API's ledger.
            let mut per_key = std::collections::HashMap::new();
            for r in run.reviews() {
                *per_key.entry(r.request_key).or_insert(0) += 1;
            }
            let once = per_key.values().all(|&n| n <= 1);
            assert_eq!(holds(&f, CheckName::CommittedAtMostOnce).unwrap_or(true), once, "{id}");
            // Where it broke: the lab's second review for an order.
            let lab = idempotency_lab::view::risk::broke::second_review(&run).map(|b| b.t(&run));
            let read_back = where_it_broke(&f).map(|b| {
                let e = &f.trace.spans[f.effects[b.duplicate].span];
                assert_eq!(f.trace.services[e.service], risk_otlp::RISK_API, "{id}");
                Millis((f.effects[b.duplicate].at_ns - risk_otlp::EPOCH_NS) / 1_000_000)
            });
            assert_eq!(read_back, lab, "{id}");
            broke += usize::from(lab.is_some());
        }
    }
    assert!(broke >= 3, "the naive presets break: {broke}");
}
