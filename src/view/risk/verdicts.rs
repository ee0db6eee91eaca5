//! The checks' figures in words for the checks panel, as a reader would
//! say them ("reviews for O20260728001: 2"); their titles are their rows'
//! in `checks`.

use crate::sim::risk::{Check, CheckName, Fig, Value};

use super::sentences::value;

/// A figure the words need, as text. The words read only figures their
/// check reports (a test says every summary, harm and explanation of every
/// preset in both modes); one missing is a bug, said "?" rather than a
/// number the check never gave.
pub fn said(check: &Check, fig: Fig) -> String {
    match check.figure(fig) {
        Some(v) => value(v),
        None => {
            debug_assert!(false, "{:?} does not report {:?}", check.name, fig);
            "?".to_owned()
        }
    }
}

/// A count or a duration the words need, in whole units; `None` (and a
/// failed debug assertion) if the check does not report it.
pub fn number(check: &Check, fig: Fig) -> Option<u64> {
    let n = match check.figure(fig) {
        Some(Value::Count(n) | Value::Ms(n)) => Some(n),
        _ => None,
    };
    debug_assert!(n.is_some(), "{:?} does not report {:?} as a number", check.name, fig);
    n
}

/// Whether the check reports `fig`: for the figures it names only when
/// something went wrong (the worst key, the first illegal row).
fn has(check: &Check, fig: Fig) -> bool {
    check.figure(fig).is_some()
}

/// The check's figures, said plainly.
pub fn summary(check: &Check) -> String {
    let g = |fig| said(check, fig);
    match check.name {
        CheckName::SameRequestKeyOneRow if has(check, Fig::WorstKey) => {
            format!("rows for {}: {}; review ids returned: {}", g(Fig::WorstKey), g(Fig::MaxRows), g(Fig::MaxReviewIds))
        }
        CheckName::SameRequestKeyOneRow if number(check, Fig::ReusedKeys) == Some(0) => {
            "no request_key was used twice yet".to_owned()
        }
        CheckName::SameRequestKeyOneRow => {
            format!("request_keys used twice: {}; rows per key at most {}", g(Fig::ReusedKeys), g(Fig::MaxRows))
        }
        CheckName::SameBusinessKeyOneReview if has(check, Fig::WorstOrder) => {
            format!("reviews for {}: {}; rows: {}", g(Fig::WorstOrder), g(Fig::MaxReviews), g(Fig::MaxRows))
        }
        CheckName::SameBusinessKeyOneReview if number(check, Fig::BusinessKeys) == Some(0) => {
            "no order was requested under two request_keys yet".to_owned()
        }
        CheckName::SameBusinessKeyOneReview => {
            format!(
                "orders requested twice: {}; reviews per order at most {}",
                g(Fig::BusinessKeys),
                g(Fig::MaxReviews)
            )
        }
        CheckName::LostResponseConverges => format!(
            "lost responses: {}; converged to SUCCEEDED: {}; FAILED: {}; unresolved: {}; creates after the loss: {}; extra reviews: {}",
            g(Fig::LostResponses),
            g(Fig::Converged),
            g(Fig::Failed),
            g(Fig::Unresolved),
            g(Fig::LaterCreates),
            g(Fig::ExtraReviews)
        ),
        CheckName::SingleClaimWinner if has(check, Fig::WorstRow) => format!(
            "resends for {} at one version: {}; claims: {} (won {}); resends: {}",
            g(Fig::WorstRow),
            g(Fig::MaxResendsPerVersion),
            g(Fig::Claims),
            g(Fig::Won),
            g(Fig::Resends)
        ),
        CheckName::SingleClaimWinner if number(check, Fig::Claims) == Some(0) => {
            "no worker claimed a row yet".to_owned()
        }
        CheckName::SingleClaimWinner => format!(
            "claims: {}; won: {}; lost: {}; most resends for one row and version: {}; resends: {}",
            g(Fig::Claims),
            g(Fig::Won),
            g(Fig::Lost),
            g(Fig::MaxResendsPerVersion),
            g(Fig::Resends)
        ),
        CheckName::ForgedNoDownstream if number(check, Fig::ForgedCalls) == Some(0) => "no forged call yet".to_owned(),
        CheckName::ForgedNoDownstream => format!(
            "forged calls: {}; refused: {}; answered otherwise: {}; rows: {}; Risk API calls: {}",
            g(Fig::ForgedCalls),
            g(Fig::Refused),
            g(Fig::NotRefused),
            g(Fig::Rows),
            g(Fig::DownstreamCalls)
        ),
        CheckName::OverloadFastBounded => {
            format!(
                "OVERLOADED: {} (slowest {} of {}); in flight at most {} of {}; queued at most {} of {}; longest wait in a queue {}; waited past their budget: {}",
                g(Fig::Overloaded),
                g(Fig::SlowestOverloadedMs),
                g(Fig::OverloadedWithinMs),
                g(Fig::MaxInFlight),
                g(Fig::ConcurrencyCap),
                g(Fig::MaxQueue),
                g(Fig::QueueCapacity),
                g(Fig::LongestQueueWaitMs),
                g(Fig::WaitedPastBudget)
            ) + &waited_for_fleet(check)
        }
        CheckName::OneReviewPerBusinessKey
        | CheckName::LegalTransitions
        | CheckName::UnknownResolved
        | CheckName::DownstreamWithinCapacity
        | CheckName::NoEffectAfterDeadline
        | CheckName::CallerTokenNotForwarded
        | CheckName::BusinessErrorsAreResults
        | CheckName::OutsideSchemaRefused => invariant_summary(check),
    }
}

/// How many calls queued for the global gate, when any did.
fn waited_for_fleet(check: &Check) -> String {
    match number(check, Fig::WaitedForFleet) {
        Some(0) | None => String::new(),
        Some(n) => format!("; queued for the fleet's quota: {n}"),
    }
}

/// The invariants' figures, said plainly.
fn invariant_summary(check: &Check) -> String {
    let g = |fig| said(check, fig);
    match check.name {
        CheckName::OneReviewPerBusinessKey if has(check, Fig::WorstOrder) => {
            format!("reviews for {}: {}", g(Fig::WorstOrder), g(Fig::MaxReviews))
        }
        CheckName::OneReviewPerBusinessKey => {
            format!(
                "reviews: {}; orders with a review: {}; most for one order: {}",
                g(Fig::Reviews),
                g(Fig::BusinessKeys),
                g(Fig::MaxReviews)
            )
        }
        CheckName::LegalTransitions if has(check, Fig::FirstIllegalRow) => format!(
            "transitions: {}; illegal: {} (first on {})",
            g(Fig::Transitions),
            g(Fig::Illegal),
            g(Fig::FirstIllegalRow)
        ),
        CheckName::LegalTransitions => format!("transitions: {}; illegal: {}", g(Fig::Transitions), g(Fig::Illegal)),
        CheckName::UnknownResolved => format!(
            "rows: {}; settled: {}; in progress: {}; UNKNOWN: {}; stalled: {}",
            g(Fig::Rows),
            g(Fig::Settled),
            g(Fig::InProgress),
            g(Fig::Unknown),
            g(Fig::Stalled)
        ),
        CheckName::DownstreamWithinCapacity => format!(
            "Risk API calls: {}; at most {} at once of a safe {}",
            g(Fig::Calls),
            g(Fig::PeakConcurrency),
            g(Fig::SafeConcurrency)
        ),
        CheckName::NoEffectAfterDeadline if number(check, Fig::CallsGivenUp) == Some(0) => {
            "the agent gave up on no call yet".to_owned()
        }
        CheckName::NoEffectAfterDeadline => format!(
            "calls the agent gave up on: {}; inserts after that: {}; creates after that: {}",
            g(Fig::CallsGivenUp),
            g(Fig::InsertsAfter),
            g(Fig::CreatesAfter)
        ),
        CheckName::CallerTokenNotForwarded => {
            format!("creates sent: {}; carrying the caller's token: {}", g(Fig::Creates), g(Fig::CallerTokens))
        }
        CheckName::BusinessErrorsAreResults if number(check, Fig::BusinessErrors) == Some(0) => {
            "no well-formed call got an error yet".to_owned()
        }
        CheckName::BusinessErrorsAreResults => format!(
            "errors to well-formed calls: {}; as Tool Results: {}; as JSON-RPC errors: {}",
            g(Fig::BusinessErrors),
            g(Fig::AsToolResults),
            g(Fig::AsJsonrpcErrors)
        ),
        CheckName::OutsideSchemaRefused if number(check, Fig::CallsOutsideSchema) == Some(0) => {
            "no call broke the input schema yet".to_owned()
        }
        CheckName::OutsideSchemaRefused => format!(
            "calls outside the schema: {}; refused INVALID_ARGUMENT: {}; reached the handler: {}; rows: {}; creates: {}",
            g(Fig::CallsOutsideSchema),
            g(Fig::Refused),
            g(Fig::ReachedHandler),
            g(Fig::Rows),
            g(Fig::Creates)
        ),
        // The six acceptance conditions are said by `summary`.
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::settings::{MODE, RETRY_POLICY};
    use crate::sim::risk::{Mode, Preset, Run, Settings};

    fn check(preset: Preset, mode: Mode, name: CheckName) -> Check {
        let run = Run::simulate(&Settings::preset(preset, mode)).unwrap();
        run.checks().into_iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn figures_read_as_the_report_would_say_them() {
        let c = check(Preset::Incident, Mode::Naive, CheckName::OneReviewPerBusinessKey);
        assert_eq!(summary(&c), "reviews for O20260728001: 2");
        let c = check(Preset::Incident, Mode::Naive, CheckName::LegalTransitions);
        assert_eq!(summary(&c), "transitions: 4; illegal: 1 (first on R10086)");
        // With the agent's retry policy the patterns incident's retry is a
        // status poll, which carries no request_key; an agent that calls
        // again uses rk-0001 twice, and the unique key keeps one row.
        let c = check(Preset::Incident, Mode::Patterns, CheckName::SameRequestKeyOneRow);
        assert_eq!(summary(&c), "no request_key was used twice yet");
        let settings = Settings::from_pairs(&[(&MODE, "patterns"), (&RETRY_POLICY, "off")]).unwrap();
        let run = Run::simulate(&settings).unwrap();
        let c = run.checks().into_iter().find(|c| c.name == CheckName::SameRequestKeyOneRow).unwrap();
        assert_eq!(summary(&c), "request_keys used twice: 1; rows per key at most 1");
        let c = check(Preset::ForgedOrder, Mode::Patterns, CheckName::SameBusinessKeyOneReview);
        assert_eq!(summary(&c), "no order was requested under two request_keys yet");
    }

    #[test]
    fn every_check_has_words_in_every_preset() {
        for preset in Preset::ALL {
            let run = Run::simulate(&Settings::preset(preset, Mode::Patterns)).unwrap();
            for c in run.checks() {
                assert!(!summary(&c).is_empty());
            }
        }
    }
}
