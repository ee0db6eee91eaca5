//! The checks in words for the checks panel: a title, what each one
//! asks, and its figures as a reader would say them ("reviews for
//! O20260728001: 2").

use crate::sim::risk::{Check, CheckName, Value};

use super::sentences::value;

pub fn title(name: CheckName) -> &'static str {
    match name {
        CheckName::SameRequestKeyOneRow => "Same request_key, one row",
        CheckName::SameBusinessKeyOneReview => "Same order, one review",
        CheckName::LostResponseConverges => "A lost response converges",
        CheckName::SingleClaimWinner => "One claim wins",
        CheckName::ForgedNoDownstream => "A forged call goes nowhere",
        CheckName::OverloadFastBounded => "Overload is fast and bounded",
        CheckName::OneReviewPerBusinessKey => "One review per business key",
        CheckName::LegalTransitions => "Only legal transitions",
        CheckName::UnknownResolved => "UNKNOWN gets resolved",
        CheckName::DownstreamWithinCapacity => "The Risk API within its safe concurrency",
        CheckName::NoEffectAfterDeadline => "No side effect after its caller gave up",
        CheckName::CallerTokenNotForwarded => "The caller's token stays at the server",
        CheckName::BusinessErrorsAreResults => "A business error is a Tool Result",
        CheckName::OutsideSchemaRefused => "Arguments outside the schema are refused",
    }
}

/// The six acceptance conditions come first, then the invariants.
pub fn is_invariant(name: CheckName) -> bool {
    !matches!(
        name,
        CheckName::SameRequestKeyOneRow
            | CheckName::SameBusinessKeyOneReview
            | CheckName::LostResponseConverges
            | CheckName::SingleClaimWinner
            | CheckName::ForgedNoDownstream
            | CheckName::OverloadFastBounded
    )
}

fn get(check: &Check, name: &str) -> String {
    check.figure(name).map_or_else(|| "0".to_owned(), value)
}

fn has(check: &Check, name: &str) -> bool {
    check.figure(name).is_some()
}

fn count(check: &Check, name: &str) -> u64 {
    match check.figure(name) {
        Some(Value::Count(n) | Value::Ms(n)) => n,
        _ => 0,
    }
}

/// The check's figures, said plainly.
pub fn summary(check: &Check) -> String {
    let g = |name| get(check, name);
    match check.name {
        CheckName::SameRequestKeyOneRow if has(check, "worst_key") => {
            format!("rows for {}: {}; review ids returned: {}", g("worst_key"), g("max_rows"), g("max_review_ids"))
        }
        CheckName::SameRequestKeyOneRow if count(check, "reused_keys") == 0 => {
            "no request_key was used twice yet".to_owned()
        }
        CheckName::SameRequestKeyOneRow => {
            format!("request_keys used twice: {}; rows per key at most {}", g("reused_keys"), g("max_rows"))
        }
        CheckName::SameBusinessKeyOneReview if has(check, "worst_order") => {
            format!("reviews for {}: {}; rows: {}", g("worst_order"), g("max_reviews"), g("max_rows"))
        }
        CheckName::SameBusinessKeyOneReview if count(check, "business_keys") == 0 => {
            "no order was requested under two request_keys yet".to_owned()
        }
        CheckName::SameBusinessKeyOneReview => {
            format!("orders requested twice: {}; reviews per order at most {}", g("business_keys"), g("max_reviews"))
        }
        CheckName::LostResponseConverges => format!(
            "lost responses: {}; converged to SUCCEEDED: {}; FAILED: {}; unresolved: {}; creates after the loss: {}; extra reviews: {}",
            g("lost_responses"),
            g("converged"),
            g("failed"),
            g("unresolved"),
            g("later_creates"),
            g("extra_reviews")
        ),
        CheckName::SingleClaimWinner if has(check, "worst_row") => format!(
            "resends for {} at one version: {}; claims: {} (won {}); resends: {}",
            g("worst_row"),
            g("max_resends_per_version"),
            g("claims"),
            g("won"),
            g("resends")
        ),
        CheckName::SingleClaimWinner if count(check, "claims") == 0 => "no worker claimed a row yet".to_owned(),
        CheckName::SingleClaimWinner => format!(
            "claims: {}; won: {}; lost: {}; most resends for one row and version: {}; resends: {}",
            g("claims"),
            g("won"),
            g("lost"),
            g("max_resends_per_version"),
            g("resends")
        ),
        CheckName::ForgedNoDownstream if count(check, "forged_calls") == 0 => "no forged call yet".to_owned(),
        CheckName::ForgedNoDownstream => format!(
            "forged calls: {}; refused: {}; answered otherwise: {}; rows: {}; Risk API calls: {}",
            g("forged_calls"),
            g("refused"),
            g("not_refused"),
            g("rows"),
            g("downstream_calls")
        ),
        CheckName::OverloadFastBounded => {
            format!(
                "OVERLOADED: {} (slowest {} of {}); in flight at most {} of {}; queued at most {} of {}; longest wait in a queue {}; waited past their budget: {}",
                g("overloaded"),
                g("slowest_overloaded_ms"),
                g("overloaded_within_ms"),
                g("max_in_flight"),
                g("concurrency_cap"),
                g("max_queue"),
                g("queue_capacity"),
                g("longest_queue_wait_ms"),
                g("waited_past_budget")
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
    match count(check, "waited_for_fleet") {
        0 => String::new(),
        n => format!("; queued for the fleet's quota: {n}"),
    }
}

/// The invariants' figures, said plainly.
fn invariant_summary(check: &Check) -> String {
    let g = |name| get(check, name);
    match check.name {
        CheckName::OneReviewPerBusinessKey if has(check, "worst_order") => {
            format!("reviews for {}: {}", g("worst_order"), g("max_reviews"))
        }
        CheckName::OneReviewPerBusinessKey => {
            format!(
                "reviews: {}; orders with a review: {}; most for one order: {}",
                g("reviews"),
                g("business_keys"),
                g("max_reviews")
            )
        }
        CheckName::LegalTransitions if has(check, "first_illegal_row") => format!(
            "transitions: {}; illegal: {} (first on {})",
            g("transitions"),
            g("illegal"),
            g("first_illegal_row")
        ),
        CheckName::LegalTransitions => format!("transitions: {}; illegal: {}", g("transitions"), g("illegal")),
        CheckName::UnknownResolved => format!(
            "rows: {}; settled: {}; in progress: {}; UNKNOWN: {}; stalled: {}",
            g("rows"),
            g("settled"),
            g("in_progress"),
            g("unknown"),
            g("stalled")
        ),
        CheckName::DownstreamWithinCapacity => format!(
            "Risk API calls: {}; at most {} at once of a safe {}",
            g("calls"),
            g("peak_concurrency"),
            g("safe_concurrency")
        ),
        CheckName::NoEffectAfterDeadline if count(check, "calls_given_up") == 0 => {
            "the agent gave up on no call yet".to_owned()
        }
        CheckName::NoEffectAfterDeadline => format!(
            "calls the agent gave up on: {}; inserts after that: {}; creates after that: {}",
            g("calls_given_up"),
            g("inserts_after"),
            g("creates_after")
        ),
        CheckName::CallerTokenNotForwarded => {
            format!("creates sent: {}; carrying the caller's token: {}", g("creates"), g("caller_tokens"))
        }
        CheckName::BusinessErrorsAreResults if count(check, "business_errors") == 0 => {
            "no well-formed call got an error yet".to_owned()
        }
        CheckName::BusinessErrorsAreResults => format!(
            "errors to well-formed calls: {}; as Tool Results: {}; as JSON-RPC errors: {}",
            g("business_errors"),
            g("as_tool_results"),
            g("as_jsonrpc_errors")
        ),
        CheckName::OutsideSchemaRefused if count(check, "calls_outside_schema") == 0 => {
            "no call broke the input schema yet".to_owned()
        }
        CheckName::OutsideSchemaRefused => format!(
            "calls outside the schema: {}; refused INVALID_ARGUMENT: {}; reached the handler: {}; rows: {}; creates: {}",
            g("calls_outside_schema"),
            g("refused"),
            g("reached_handler"),
            g("rows"),
            g("creates")
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
                assert!(!summary(&c).is_empty() && !title(c.name).is_empty());
            }
        }
        assert_eq!(CheckName::ALL.iter().filter(|n| is_invariant(**n)).count(), 8);
    }
}
