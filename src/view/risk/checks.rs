//! The checks, one row each: what a check is called, whether it is one of
//! the invariants, how bad its harm ranks, whether it judges what happens
//! eventually, and the patterns there to keep it. The checks panel, the
//! notes of the switches, the questions' explanations and "Where it broke"
//! read them here. What needs the run (a check's figures in words, the
//! harm said from a record) is in `verdicts` and `broke`, keyed by the same
//! [`CheckName`].

use crate::sim::risk::{CheckName, Pattern};

/// One check, described once.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub check: CheckName,
    /// What the page calls it.
    pub title: &'static str,
    /// One of the invariants, which the panel lists after the six
    /// acceptance conditions.
    pub invariant: bool,
    /// Where its harm ranks as a reader would rank it, 0 the worst: "Where
    /// it broke" heads with the worst harm the run has.
    pub worst: u8,
    /// It judges what happens eventually: it fails while a lost response
    /// or an UNKNOWN row is still unsettled and holds again once that
    /// settles, so it can fail and then hold. Every other check, once
    /// failed, stays failed.
    pub eventually: bool,
    /// The patterns there to keep it: "Where it broke" names those that
    /// are off.
    pub guarded_by: &'static [Pattern],
}

/// Every check, in the order of [`CheckName::ALL`]: the six acceptance
/// conditions, then the invariants.
pub const ROWS: [Row; 14] = [
    Row {
        check: CheckName::SameRequestKeyOneRow,
        title: "Same request_key, one row",
        invariant: false,
        worst: 5,
        eventually: false,
        guarded_by: &[Pattern::UniqueRequestKey],
    },
    Row {
        check: CheckName::SameBusinessKeyOneReview,
        title: "Same order, one review",
        invariant: false,
        worst: 4,
        eventually: false,
        guarded_by: &[Pattern::UniqueBusinessKey],
    },
    Row {
        check: CheckName::LostResponseConverges,
        title: "A lost response converges",
        invariant: false,
        worst: 8,
        eventually: true,
        guarded_by: &[],
    },
    Row {
        check: CheckName::SingleClaimWinner,
        title: "One claim wins",
        invariant: false,
        worst: 9,
        eventually: false,
        guarded_by: &[Pattern::Cas],
    },
    Row {
        check: CheckName::ForgedNoDownstream,
        title: "A forged call goes nowhere",
        invariant: false,
        worst: 1,
        eventually: false,
        guarded_by: &[Pattern::Authorize, Pattern::SubjectFromToken],
    },
    Row {
        check: CheckName::OverloadFastBounded,
        title: "Overload is fast and bounded",
        invariant: false,
        worst: 12,
        eventually: false,
        guarded_by: &[Pattern::Gates],
    },
    Row {
        check: CheckName::OneReviewPerBusinessKey,
        title: "One review per business key",
        invariant: true,
        worst: 0,
        eventually: false,
        guarded_by: &[Pattern::IdempotentCreate, Pattern::RetryPolicy],
    },
    Row {
        check: CheckName::LegalTransitions,
        title: "Only legal transitions",
        invariant: true,
        worst: 10,
        eventually: false,
        guarded_by: &[Pattern::TimeoutIsUnknown],
    },
    Row {
        check: CheckName::UnknownResolved,
        title: "UNKNOWN gets resolved",
        invariant: true,
        worst: 7,
        eventually: true,
        guarded_by: &[Pattern::FindByKey, Pattern::GlobalGate],
    },
    Row {
        check: CheckName::DownstreamWithinCapacity,
        title: "The Risk API within its safe concurrency",
        invariant: true,
        worst: 6,
        eventually: false,
        guarded_by: &[Pattern::GlobalGate, Pattern::DownstreamLimit],
    },
    Row {
        check: CheckName::NoEffectAfterDeadline,
        title: "No side effect after its caller gave up",
        invariant: true,
        worst: 3,
        eventually: false,
        guarded_by: &[Pattern::DeadlinePropagation],
    },
    Row {
        check: CheckName::CallerTokenNotForwarded,
        title: "The caller's token stays at the server",
        invariant: true,
        worst: 13,
        eventually: false,
        guarded_by: &[Pattern::OwnCredential],
    },
    Row {
        check: CheckName::BusinessErrorsAreResults,
        title: "A business error is a Tool Result",
        invariant: true,
        worst: 11,
        eventually: false,
        guarded_by: &[Pattern::ErrorResults],
    },
    Row {
        check: CheckName::OutsideSchemaRefused,
        title: "Arguments outside the schema are refused",
        invariant: true,
        worst: 2,
        eventually: false,
        guarded_by: &[Pattern::StrictSchema],
    },
];

/// The check's row.
pub fn row(check: CheckName) -> &'static Row {
    let i = CheckName::ALL.iter().position(|&c| c == check).unwrap_or(0);
    &ROWS[i]
}

/// What the page calls the check.
pub fn title(check: CheckName) -> &'static str {
    row(check).title
}

/// The six acceptance conditions come first, then the invariants.
pub fn is_invariant(check: CheckName) -> bool {
    row(check).invariant
}

/// Whether the check judges what happens eventually (see [`Row::eventually`]).
pub fn judges_eventually(check: CheckName) -> bool {
    row(check).eventually
}

/// Whether `pattern` is one of those there to keep `check`.
pub fn guards(pattern: Pattern, check: CheckName) -> bool {
    row(check).guarded_by.contains(&pattern)
}

/// The checks in the order a reader would rank their harms, worst first.
pub fn worst_first() -> [CheckName; 14] {
    let mut order = CheckName::ALL;
    order.sort_by_key(|&c| row(c).worst);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_has_one_row_and_one_rank() {
        for (row, check) in ROWS.iter().zip(CheckName::ALL) {
            assert_eq!(row.check, check);
            assert!(!row.title.is_empty());
        }
        let mut ranks: Vec<u8> = ROWS.iter().map(|r| r.worst).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (0..14).collect::<Vec<u8>>());
        assert_eq!(ROWS.iter().filter(|r| r.invariant).count(), 8);
        // The acceptance conditions come first.
        assert!(ROWS.iter().skip_while(|r| !r.invariant).all(|r| r.invariant));
    }

    /// Figures are read by their typed names, so none can be misspelled;
    /// what is left is words reading a figure their check does not report
    /// (the overload explanation once read two that the check had stopped
    /// reporting and said "0 ms" and "0"). The words assert, in a debug
    /// build, that each figure they read is there: every summary at the
    /// end and midway, every harm, every question's answer and explanation
    /// and the exported run, for every preset in both modes.
    #[test]
    fn the_words_read_only_figures_their_checks_report() {
        use crate::sim::Millis;
        use crate::sim::risk::checks::checks;
        use crate::sim::risk::{Mode, Preset, Run, Settings};
        use crate::view::risk::{broke, questions, report, verdicts};
        for preset in Preset::ALL {
            for mode in [Mode::Naive, Mode::Patterns] {
                let run = Run::simulate(&Settings::preset(preset, mode)).unwrap();
                let midway = Millis(run.horizon().ms() / 2);
                let records = run.records().iter().take_while(|r| r.t <= midway).count();
                let early = checks(run.settings(), &run.records()[..records], midway);
                for c in run.checks().iter().chain(&early) {
                    assert!(!verdicts::summary(c).contains('?'), "{preset:?} {mode:?} {c:?}");
                }
                for m in broke::broke(&run).map(|b| b.missing).unwrap_or_default() {
                    assert!(!broke::harm(&run, &m).contains('?'), "{preset:?} {mode:?} {:?}", m.check);
                }
                assert!(!questions::answer(&run).is_empty());
                assert!(!questions::explain(&run).is_empty());
                assert!(!report::run_to_json(&run).is_empty());
            }
        }
        assert_eq!(worst_first()[0], CheckName::OneReviewPerBusinessKey);
    }

    #[test]
    fn every_pattern_guards_the_check_it_protects() {
        for pattern in Pattern::ALL {
            let check = super::super::patterns::protects(pattern);
            assert!(guards(pattern, check), "{pattern:?} protects {check:?}");
        }
    }
}
