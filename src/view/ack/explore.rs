//! The first lab explores every schedule of its aimed faults (an attempt's
//! request or response lost, a 503, a crash at each step of the commit)
//! and judges each run by its three invariants.

use crate::sim::ack::checks::CheckName;
use crate::sim::ack::{self, Settings};
use crate::view::explore::{Explores, Found, Shortest, found, link_of};
use crate::view::lab::LabModel;

use super::AckLab;

/// An invariant as a reader reads it.
pub fn title(name: CheckName) -> &'static str {
    match name {
        CheckName::CommittedAtMostOnce => "Committed at most once per intent",
        CheckName::StatusAgreesWithLedger => "The client's status agrees with the ledger",
        CheckName::NoIncrementAfterGivingUp => "No increment after the client gave up",
    }
}

impl Explores for AckLab {
    const ALPHABET: &'static str =
        "an attempt's request or response lost, a 503 for it, the server crashing at each step of its commit";

    fn explore(base: &Settings, k: usize, progress: &mut dyn FnMut(u64, u64) -> bool) -> Found {
        let e = ack::explore::explore(base, k, progress);
        found(
            AckLab::LAB,
            k,
            &e,
            |&check| (check.name(), title(check)),
            |s| {
                let faults = s.fault_texts();
                let flags = if faults.is_empty() {
                    "--faults none".to_owned()
                } else {
                    format!("--faults {}", faults.join(","))
                };
                Shortest { faults, worker_order: None, flags, link: link_of(AckLab::LAB, s.settings(base)) }
            },
        )
    }
}
