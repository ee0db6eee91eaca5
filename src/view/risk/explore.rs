//! The risk lab explores every schedule of its aimed faults, in both race
//! orders, and judges each run by its fourteen checks.

use crate::sim::risk::{self, Settings};
use crate::view::explore::{Explores, Found, Shortest, found, link_of};
use crate::view::lab::LabModel;

use super::RiskLab;

impl Explores for RiskLab {
    const ALPHABET: &'static str = "a create's response or request lost, a 5xx or a slow create, a probe timing out, \
                                    a worker crashing after its resend, a replica pausing, a tie going the other way, \
                                    in both race orders";

    fn explore(base: &Settings, k: usize, progress: &mut dyn FnMut(u64, u64) -> bool) -> Found {
        let e = risk::explore::explore(base, k, progress);
        found(
            RiskLab::LAB,
            k,
            &e,
            |&check| (check.name(), super::checks::title(check)),
            |s| {
                let faults = s.fault_texts();
                let mut flags: Vec<String> = faults.iter().map(|f| format!("--fault {f}")).collect();
                if flags.is_empty() {
                    flags.push("--fault none".to_owned());
                }
                flags.push(format!("--worker-order {}", s.order.value()));
                Shortest {
                    faults,
                    worker_order: Some(s.order.value().to_owned()),
                    flags: flags.join(" "),
                    link: link_of(RiskLab::LAB, s.settings(base)),
                }
            },
        )
    }
}
