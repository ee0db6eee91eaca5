//! The nine patterns in words: what each one buys, the check that fails
//! without it, and the run that shows it ("Show me").

use crate::sim::ParamDef;
use crate::sim::risk::settings::{FAULTS, MODE, PRESET};
use crate::sim::risk::{CheckName, Pattern, Run};

use super::verdicts::title;

/// One line on what the pattern buys.
pub fn buys(pattern: Pattern) -> &'static str {
    match pattern {
        Pattern::UniqueRequestKey => {
            "A retry with the same request_key finds the first row instead of inserting a second."
        }
        Pattern::UniqueBusinessKey => {
            "A second click for the same order reads the active review instead of starting another."
        }
        Pattern::TimeoutIsUnknown => {
            "A timeout means \"we do not know\": the row becomes UNKNOWN, never a false FAILED."
        }
        Pattern::IdempotentCreate => {
            "A resent create with the same request_key returns the first review, not a new one."
        }
        Pattern::FindByKey => "Workers ask the Risk API whether an UNKNOWN create happened before anything else.",
        Pattern::Cas => "Only one worker's claim of a RETRYABLE row hits, so the create is resent once.",
        Pattern::Authorize => "The server checks that the subject owns the order before any write or call.",
        Pattern::Gates => {
            "A concurrency cap and a bounded queue on each replica answer OVERLOADED at once when the queue is full, so the wait for a place is bounded and the excess hears at once."
        }
        Pattern::GlobalGate => {
            "A quota across all replicas, sized to the Risk API's safe concurrency: a call waits in its replica's queue until the fleet has a place, and a place is held until the Risk API is done with the call, not only until the replica stops waiting."
        }
        Pattern::DownstreamLimit => {
            "The Risk API admits no more calls than its safe concurrency and answers the excess 503 at once, which callers treat as any transient error: the hard boundary that holds whatever the callers count."
        }
        Pattern::DeadlinePropagation => {
            "Each call carries its deadline: a queued call whose time left cannot cover the work is answered at once, nothing is written or sent after the caller gave up, and the Risk API gets no longer than what is left."
        }
    }
}

/// The check that fails when the pattern is switched off (in a run that
/// exercises it).
pub fn protects(pattern: Pattern) -> CheckName {
    match pattern {
        Pattern::UniqueRequestKey => CheckName::SameRequestKeyOneRow,
        Pattern::UniqueBusinessKey => CheckName::SameBusinessKeyOneReview,
        Pattern::TimeoutIsUnknown => CheckName::LegalTransitions,
        Pattern::IdempotentCreate => CheckName::OneReviewPerBusinessKey,
        Pattern::FindByKey => CheckName::UnknownResolved,
        Pattern::Cas => CheckName::SingleClaimWinner,
        Pattern::Authorize => CheckName::ForgedNoDownstream,
        Pattern::Gates => CheckName::OverloadFastBounded,
        Pattern::GlobalGate => CheckName::DownstreamWithinCapacity,
        Pattern::DownstreamLimit => CheckName::DownstreamWithinCapacity,
        Pattern::DeadlinePropagation => CheckName::NoEffectAfterDeadline,
    }
}

/// What a wrong design on a switch's select does, and the check that
/// catches it: `None` for auto, on and off, which [`buys`] covers.
pub fn design_says(pattern: Pattern, raw: u64) -> Option<String> {
    let (what, check) = match (pattern, raw) {
        (Pattern::UniqueRequestKey | Pattern::UniqueBusinessKey, 3) => (
            "Check, then insert: a SELECT and then an INSERT, two statements, so two replicas can both find nothing and both insert (the check-then-insert-race preset shows it).",
            protects(pattern),
        ),
        (Pattern::UniqueRequestKey | Pattern::UniqueBusinessKey, 4) => (
            "A lock with a lease around the check and the insert: a replica that pauses longer than the lease goes on after another one took the lock, and both insert (the pause-past-lease preset shows it).",
            protects(pattern),
        ),
        (Pattern::GlobalGate, 3) => (
            "A leaky gate frees a place when the replica stops waiting, while the Risk API may still be working on the call: with a Risk API slower than the replicas' budget, the fleet starts more calls than it can take (the slow-fleet preset shows it).",
            CheckName::DownstreamWithinCapacity,
        ),
        (Pattern::TimeoutIsUnknown, 3) => (
            "Catching the timeout and calling again at once sends a second create for a row nobody gave the right to execute; only idempotent create keeps that to one review.",
            CheckName::SingleClaimWinner,
        ),
        _ => return None,
    };
    Some(format!("{what} It fails the check \u{201c}{}\u{201d}.", title(check)))
}

type Pairs = &'static [(&'static ParamDef, &'static str)];

/// The "Show me" runs, in the order of [`Pattern::ALL`].
const SHOW_ME: [Pairs; 11] = [
    // The duplicated call's first copy is rejected, which closes its
    // generation, and the second is held until after that: only the unique
    // request_key still finds the first row (the business key has moved on).
    &[
        (MODE.def(), "patterns"),
        (PRESET.def(), "same-request-key"),
        (FAULTS.def(), "business-rejection@1,replica-pause@2"),
    ],
    &[(MODE.def(), "patterns"), (PRESET.def(), "same-business-key")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "incident")],
    // The probe says "not found" while the slow create is in flight, a
    // worker resends, and only the idempotent create keeps one review.
    &[(MODE.def(), "patterns"), (PRESET.def(), "probe-races-create")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "lost-create-response")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "not-found-resend")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "forged-order")],
    // The global gate holds the wide fleet's burst at 98 working calls and
    // the rest wait: the per-replica queues bound that wait and answer the
    // excess OVERLOADED at once; without them the later calls wait past
    // their deadline.
    &[(MODE.def(), "patterns"), (PRESET.def(), "wide-fleet")],
    // Twenty replicas of 64 slots each stay within their own caps; only the
    // quota across them keeps the Risk API within 100.
    &[(MODE.def(), "patterns"), (PRESET.def(), "wide-fleet")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "slow-fleet")],
    &[(MODE.def(), "patterns"), (PRESET.def(), "replica-pause")],
];

/// The settings of the run that shows `pattern` at work: with every
/// pattern on (and these), the check it protects holds; with it alone
/// switched off, that check fails.
pub fn show_me(pattern: Pattern) -> Pairs {
    let i = Pattern::ALL.iter().position(|&p| p == pattern).unwrap_or(0);
    SHOW_ME[i]
}

/// The verdict of `name` at the end of `run`, in a word.
fn verdict(run: &Run, name: CheckName) -> &'static str {
    let holds = run.checks().into_iter().find(|c| c.name == name).and_then(|c| c.holds);
    super::sentences::verdict(holds)
}

/// What "Show me" says, from the two runs themselves: the one on screen
/// (`on`) and the same with the switch off.
pub fn show_me_words(pattern: Pattern, on: &Run, off: &Run) -> String {
    let check = protects(pattern);
    format!(
        "In this run \u{201c}{}\u{201d} {}; with \u{201c}{}\u{201d} off and nothing else changed, it {}.",
        title(check),
        verdict(on, check),
        pattern.param().label,
        verdict(off, check)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::Settings;

    fn run(pairs: &[(&'static ParamDef, &str)]) -> Run {
        Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap()
    }

    /// For each pattern, its "Show me" run exercises it: with the patterns
    /// on the protected check holds, and with this one switched off it
    /// fails.
    #[test]
    fn switching_a_pattern_off_fails_the_check_it_protects() {
        for pattern in Pattern::ALL {
            let on = run(show_me(pattern));
            let mut pairs = show_me(pattern).to_vec();
            pairs.push((pattern.param(), "off"));
            let off = run(&pairs);
            assert_eq!(verdict(&on, protects(pattern)), "holds", "{pattern:?} on");
            assert_eq!(verdict(&off, protects(pattern)), "fails", "{pattern:?} off");
            assert!(buys(pattern).ends_with('.'));
            let words = show_me_words(pattern, &on, &off);
            assert!(words.ends_with("off and nothing else changed, it fails."), "{words}");
            if pattern.has_designs() {
                assert!(design_says(pattern, 3).is_some_and(|s| s.ends_with("\u{201d}.")));
            }
            assert_eq!(design_says(pattern, 1), None);
        }
        assert_eq!(
            show_me_words(Pattern::Cas, &run(show_me(Pattern::Cas)), &run(show_me(Pattern::Cas))),
            "In this run \u{201c}One claim wins\u{201d} holds; with \u{201c}Compare-and-set claims\u{201d} off and nothing else changed, it holds."
        );
    }
}
