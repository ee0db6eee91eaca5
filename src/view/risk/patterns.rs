//! The patterns in words, one row each: what a pattern buys, the check
//! that fails when it alone is off, the run that shows it ("Show me"), and,
//! where another pattern absorbs its harm, the harm that remains.

use crate::sim::ParamDef;
use crate::sim::risk::settings::{FAULTS, MODE, PRESET, RETRY_POLICY};
use crate::sim::risk::{CheckName, Pattern, Run};

/// What the Mode setting does, under it.
pub const MODE_HINT: &str =
    "Patterns turns every switch on; Naive turns every switch off. Each switch can then be set on its own.";

use super::checks::title;

type Pairs = &'static [(&'static ParamDef, &'static str)];

/// Another pattern that keeps most of a pattern's harm away: what remains
/// with this pattern alone off, and the check that fails with both off.
#[derive(Clone, Copy, Debug)]
pub struct Absorbed {
    pub by: Pattern,
    /// What still goes wrong with only this pattern off.
    pub remains: &'static str,
    /// The check that fails with both off, in the same run.
    pub both_off: CheckName,
}

/// One pattern, described once.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub pattern: Pattern,
    /// What it buys, in one line.
    pub buys: &'static str,
    /// The check that fails in its "Show me" run with it alone off.
    pub protects: CheckName,
    pub absorbed: Option<Absorbed>,
    /// The run that shows it at work: every pattern on, and these (the
    /// agent's retry policy shows against the naive server, where the
    /// server's patterns do not hide it).
    pub show_me: Pairs,
}

const fn on(preset: &'static str) -> [(&'static ParamDef, &'static str); 2] {
    [(MODE.def(), "patterns"), (PRESET.def(), preset)]
}

/// Every pattern, in the order of [`Pattern::ALL`].
pub const ROWS: [Row; 16] = [
    Row {
        pattern: Pattern::UniqueRequestKey,
        buys: "A retry with the same request_key finds the first row instead of inserting a second.",
        protects: CheckName::SameRequestKeyOneRow,
        absorbed: Some(Absorbed {
            by: Pattern::UniqueBusinessKey,
            remains: "The unique business_key catches a copy of the call in the same generation of the order; only after a rejection closes that generation does a late copy get a second row for the same request_key, and with it a review for an intent the Risk API rejected.",
            both_off: CheckName::SameRequestKeyOneRow,
        }),
        // The duplicated call's first copy is rejected, which closes its
        // generation, and the second arrives 2 s late: only the unique
        // request_key still finds the first row.
        show_me: &[
            (MODE.def(), "patterns"),
            (PRESET.def(), "same-request-key"),
            (FAULTS.def(), "business-rejection@1,call-delayed@2"),
        ],
    },
    Row {
        pattern: Pattern::UniqueBusinessKey,
        buys: "A second click for the same order reads the active review instead of starting another.",
        protects: CheckName::SameBusinessKeyOneReview,
        absorbed: None,
        show_me: &on("same-business-key"),
    },
    Row {
        pattern: Pattern::TimeoutIsUnknown,
        buys: "A timeout means \"we do not know\": the row becomes UNKNOWN, never a false FAILED.",
        protects: CheckName::LegalTransitions,
        absorbed: None,
        show_me: &on("incident"),
    },
    Row {
        pattern: Pattern::IdempotentCreate,
        buys: "A resent create with the same request_key returns the first review, not a new one, and a probe hears that a create with the key is still under way.",
        protects: CheckName::OneReviewPerBusinessKey,
        absorbed: None,
        // The probe asks while the slow create is in flight: without
        // idempotent create it hears "not found", a worker resends, and the
        // Risk API makes a second review.
        show_me: &on("probe-races-create"),
    },
    Row {
        pattern: Pattern::FindByKey,
        buys: "Workers ask the Risk API whether an UNKNOWN create happened before anything else.",
        protects: CheckName::UnknownResolved,
        absorbed: None,
        show_me: &on("lost-create-response"),
    },
    Row {
        pattern: Pattern::Cas,
        buys: "Only one worker's claim of a RETRYABLE row hits, so the create is resent once.",
        protects: CheckName::SingleClaimWinner,
        absorbed: Some(Absorbed {
            by: Pattern::IdempotentCreate,
            remains: "Idempotent create turns the second resend into the first review again, so the customer sees one review; but two workers each believed they had the right to execute, the Risk API performed the create twice, and the losing claim wrote PENDING over PENDING, an illegal transition.",
            both_off: CheckName::OneReviewPerBusinessKey,
        }),
        show_me: &on("not-found-resend"),
    },
    Row {
        pattern: Pattern::Authorize,
        buys: "The server checks that the subject owns the order before any write or call.",
        protects: CheckName::ForgedNoDownstream,
        absorbed: None,
        show_me: &on("forged-order"),
    },
    Row {
        pattern: Pattern::Gates,
        buys: "A concurrency cap and a bounded queue on each replica answer OVERLOADED at once when the queue is full, so the wait for a place is bounded and the excess hears at once.",
        protects: CheckName::OverloadFastBounded,
        absorbed: None,
        // The global gate holds the wide fleet's burst at 100 working calls
        // and the rest wait: without the per-replica queues' bound they
        // pile up past it.
        show_me: &on("wide-fleet"),
    },
    Row {
        pattern: Pattern::GlobalGate,
        buys: "A quota across all replicas, sized to the Risk API's safe concurrency: a call waits in its replica's queue until the fleet has a place, and a place is held until the Risk API is done with the call, not only until the replica stops waiting.",
        protects: CheckName::UnknownResolved,
        absorbed: Some(Absorbed {
            by: Pattern::DownstreamLimit,
            remains: "The Risk API's own limit refuses the excess with 503 instead of working on it: the calls are not lost, but each refused create leaves an UNKNOWN row for the workers, more than they settle in time. Capacity is spent twice.",
            both_off: CheckName::DownstreamWithinCapacity,
        }),
        show_me: &on("wide-fleet"),
    },
    Row {
        pattern: Pattern::DownstreamLimit,
        buys: "The Risk API admits no more calls than its safe concurrency and answers the excess 503 at once, which callers treat as any transient error: the hard boundary that holds whatever the callers count.",
        protects: CheckName::DownstreamWithinCapacity,
        absorbed: None,
        // The fleet holds all 100 places while the creates outlive the
        // replicas' budget; the workers' probes come on top of them.
        show_me: &on("slow-fleet"),
    },
    Row {
        pattern: Pattern::DeadlinePropagation,
        buys: "Each call carries its deadline: a queued call whose time left cannot cover the work is answered at once, nothing is written or sent after the caller gave up, and the Risk API gets no longer than what is left.",
        protects: CheckName::NoEffectAfterDeadline,
        absorbed: None,
        show_me: &on("replica-pause"),
    },
    Row {
        pattern: Pattern::ErrorResults,
        buys: "A business error goes back as a Tool Result with isError and its code, which the agent reads and acts on: fix the arguments, retry later, or stop. Thrown as a JSON-RPC error it reads as a broken server, and the agent gives up.",
        protects: CheckName::BusinessErrorsAreResults,
        absorbed: None,
        // The burst's OVERLOADED answers: as JSON-RPC errors, the agent does
        // not retry them and those intents end without their review.
        show_me: &on("overload"),
    },
    Row {
        pattern: Pattern::SubjectFromToken,
        buys: "The end user comes from the verified token, never from the tool's arguments, so a call that names another user in its arguments still acts for its caller.",
        protects: CheckName::ForgedNoDownstream,
        absorbed: None,
        show_me: &on("user-in-arguments"),
    },
    Row {
        pattern: Pattern::StrictSchema,
        buys: "The tool's input schema has additionalProperties: false and length limits, so an argument it does not declare or a reason past 500 characters is refused with INVALID_ARGUMENT before the handler writes anything.",
        protects: CheckName::OutsideSchemaRefused,
        absorbed: None,
        show_me: &on("extra-argument"),
    },
    Row {
        pattern: Pattern::OwnCredential,
        buys: "The server calls the Risk API with its own credential; the caller's token stays at the protocol boundary, where it was verified.",
        protects: CheckName::CallerTokenNotForwarded,
        absorbed: None,
        show_me: &on("incident"),
    },
    Row {
        pattern: Pattern::RetryPolicy,
        buys: "When the agent tries an intent again, it polls get_risk_review_status with the review_id an answer gave it instead of calling request_risk_review again, so a naive server gets no second create. With the server's patterns on, a call made again is harmless too.",
        protects: CheckName::OneReviewPerBusinessKey,
        absorbed: None,
        // The naive server of the incident, and an agent that polls: the
        // retry at 10:31:12.000 reads R10086 rather than making RV-2.
        show_me: &[(MODE.def(), "naive"), (PRESET.def(), "incident"), (RETRY_POLICY.def(), "on")],
    },
];

/// The pattern's row.
pub fn row(pattern: Pattern) -> &'static Row {
    let i = Pattern::ALL.iter().position(|&p| p == pattern).unwrap_or(0);
    &ROWS[i]
}

/// One line on what the pattern buys.
pub fn buys(pattern: Pattern) -> &'static str {
    row(pattern).buys
}

/// The check that fails when the pattern is switched off alone, in the run
/// that shows it.
pub fn protects(pattern: Pattern) -> CheckName {
    row(pattern).protects
}

/// What the switch's note says beside its checkbox: what it buys, the check
/// it protects, and where another pattern absorbs its harm, what remains.
pub fn note(pattern: Pattern) -> String {
    let row = row(pattern);
    let mut note = format!("{} It protects the check \u{201c}{}\u{201d}.", row.buys, title(row.protects));
    if let Some(a) = row.absorbed {
        note.push_str(&format!(
            " With \u{201c}{}\u{201d} on, alone off it still costs this: {} With both off, \u{201c}{}\u{201d} fails.",
            a.by.param().label,
            a.remains,
            title(a.both_off)
        ));
    }
    note
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
            "A lock with a lease around the check and the insert: a replica that pauses longer than the lease goes on after another one took the lock, and both insert (the pause-past-lease preset shows it with a 10 s client deadline; within the default 5 s, deadline propagation refuses the late insert).",
            protects(pattern),
        ),
        (Pattern::GlobalGate, 3) => (
            "A leaky gate frees a place when the replica stops waiting, while the Risk API may still be working on the call: with a Risk API slower than the replicas' budget, the fleet starts more calls than the Risk API can take; its admission limit refuses the excess with 503 and leaves their rows UNKNOWN past the deadline (the slow-fleet preset shows it; with the limit off too, the Risk API works past its safe concurrency).",
            CheckName::UnknownResolved,
        ),
        (Pattern::TimeoutIsUnknown, 3) => (
            "Catching the timeout and calling again at once sends a second create for a row nobody gave the right to execute; only idempotent create keeps that to one review.",
            CheckName::SingleClaimWinner,
        ),
        (Pattern::RetryPolicy, 3) => {
            return Some(format!(
                "Calling again only a tool that declares idempotentHint: the naive server's tool declares nothing, so the agent leaves the intent with the error it heard, though the review exists; a server with a unique request_key declares it, and its keys make the call harmless. While the hint is true it keeps the check \u{201c}{}\u{201d}.",
                title(CheckName::OneReviewPerBusinessKey)
            ));
        }
        _ => return None,
    };
    Some(format!("{what} It fails the check \u{201c}{}\u{201d}.", title(check)))
}

/// The settings of the run that shows `pattern` at work: with every
/// pattern on (and these), the check it protects holds; with it alone
/// switched off, that check fails.
pub fn show_me(pattern: Pattern) -> Pairs {
    row(pattern).show_me
}

/// The verdict of `name` at the end of `run`, in a word.
/// A check's verdict as the verb of a sentence: "holds", "fails", "has
/// nothing to judge".
fn verdict(run: &Run, name: CheckName) -> &'static str {
    match run.checks().into_iter().find(|c| c.name == name).and_then(|c| c.holds) {
        None => "has nothing to judge",
        holds => super::sentences::verdict(holds),
    }
}

/// What "Show me" says, from the runs themselves: the one on screen
/// (`on`), the same with the switch off, and, where another pattern absorbs
/// its harm, with both off (`both`).
pub fn show_me_words(pattern: Pattern, on: &Run, off: &Run, both: Option<&Run>) -> String {
    let check = protects(pattern);
    let mut words = format!(
        "In this run \u{201c}{}\u{201d} {}; with \u{201c}{}\u{201d} off and nothing else changed, it {}.",
        title(check),
        verdict(on, check),
        pattern.param().label,
        verdict(off, check)
    );
    if let (Some(a), Some(both)) = (row(pattern).absorbed, both) {
        words.push_str(&format!(
            " With \u{201c}{}\u{201d} off too, \u{201c}{}\u{201d} {}.",
            a.by.param().label,
            title(a.both_off),
            verdict(both, a.both_off)
        ));
    }
    words
}

/// What "Turn it off" says once the switch is off in the run on screen.
pub fn turned_off_words(pattern: Pattern, off: &Run) -> String {
    let check = protects(pattern);
    format!(
        "\u{201c}{}\u{201d} is off: \u{201c}{}\u{201d} now {}.",
        pattern.param().label,
        title(check),
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
    /// on the protected check holds, with this one switched off it fails,
    /// and where another pattern absorbs its harm, with both off the check
    /// the row names fails too.
    #[test]
    fn switching_a_pattern_off_fails_the_check_it_protects() {
        for pattern in Pattern::ALL {
            let on = run(show_me(pattern));
            let mut pairs = show_me(pattern).to_vec();
            pairs.push((pattern.param(), "off"));
            let off = run(&pairs);
            // On, it holds, or (where another pattern absorbs the harm
            // and nothing is left to judge) is not applicable.
            assert_ne!(verdict(&on, protects(pattern)), "fails", "{pattern:?} on");
            assert_eq!(verdict(&off, protects(pattern)), "fails", "{pattern:?} off");
            let both = row(pattern).absorbed.map(|a| {
                pairs.push((a.by.param(), "off"));
                let both = run(&pairs);
                assert_eq!(verdict(&both, a.both_off), "fails", "{pattern:?} and {:?} off", a.by);
                both
            });
            assert!(note(pattern).ends_with('.'));
            let words = show_me_words(pattern, &on, &off, both.as_ref());
            assert!(words.contains("off and nothing else changed, it fails."), "{words}");
            assert!(turned_off_words(pattern, &off).ends_with("now fails."));
            if pattern.has_designs() {
                assert!(design_says(pattern, 3).is_some_and(|s| s.ends_with("\u{201d}.")));
            }
            assert_eq!(design_says(pattern, 1), None);
        }
        let cas = run(show_me(Pattern::Cas));
        assert_eq!(
            show_me_words(Pattern::Cas, &cas, &cas, None),
            "In this run \u{201c}One claim wins\u{201d} holds; with \u{201c}Compare-and-set claims\u{201d} off and nothing else changed, it holds."
        );
    }
}
