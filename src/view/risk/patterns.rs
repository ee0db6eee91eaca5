//! The eight patterns in words: what each one buys, and the check that
//! fails without it.

use crate::sim::risk::{CheckName, Pattern};

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
        Pattern::Gates => "A concurrency cap and a bounded queue answer OVERLOADED at once instead of piling up.",
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ParamDef;
    use crate::sim::risk::settings::{MODE, PRESET, SEED, UNIQUE_BUSINESS_KEY};
    use crate::sim::risk::{Run, Settings};

    /// For each pattern, a run that exercises it: with the patterns on the
    /// protected check holds, and with this one switched off it fails.
    #[test]
    fn switching_a_pattern_off_fails_the_check_it_protects() {
        let cases: [(Pattern, &[(&'static ParamDef, &str)]); 8] = [
            // With both keys unique the business key catches the duplicate
            // too, so this one runs without it.
            (Pattern::UniqueRequestKey, &[(&PRESET, "same-request-key"), (&UNIQUE_BUSINESS_KEY, "off")]),
            (Pattern::UniqueBusinessKey, &[(&PRESET, "same-business-key")]),
            (Pattern::TimeoutIsUnknown, &[(&PRESET, "incident")]),
            // Seed 18 draws a slow create: the probe finds nothing, a worker
            // resends, and only the idempotent create keeps one review.
            (Pattern::IdempotentCreate, &[(&PRESET, "random-faults"), (&SEED, "18")]),
            (Pattern::FindByKey, &[(&PRESET, "lost-create-response")]),
            (Pattern::Cas, &[(&PRESET, "not-found-resend")]),
            (Pattern::Authorize, &[(&PRESET, "forged-order")]),
            (Pattern::Gates, &[(&PRESET, "overload")]),
        ];
        for (pattern, pairs) in cases {
            let mut on: Vec<(&'static ParamDef, &str)> = vec![(&MODE, "patterns")];
            on.extend_from_slice(pairs);
            let holds = |pairs: &[(&'static ParamDef, &str)]| {
                let run = Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap();
                run.checks().into_iter().find(|c| c.name == protects(pattern)).unwrap().holds
            };
            assert_eq!(holds(&on), Some(true), "{pattern:?} on");
            let mut off = on.clone();
            off.push((pattern.param(), "off"));
            assert_eq!(holds(&off), Some(false), "{pattern:?} off");
            assert!(buys(pattern).ends_with('.'));
        }
    }
}
