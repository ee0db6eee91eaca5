//! The protocol and identity half of the report: each wrong design fails
//! its check in its preset, and the right one holds. Worked by hand with
//! the default timings (transit 20 ms each way, auth and policy 100, a
//! statement 1, a create 410, the client deadline 5 s, the agent's backoff
//! and poll interval 1 s), calls going round robin from replica A.

use idempotency_lab::sim::risk::explore::explore;
use idempotency_lab::sim::risk::facts::{Credential, OTHER_USER, RetryChoice, RpcError};
use idempotency_lab::sim::risk::{Check, CheckName, Fig, Heard, Reply, RowId, Run, Value, What};

use super::{run, settings};

fn check(run: &Run, name: CheckName) -> Check {
    run.checks().into_iter().find(|c| c.name == name).expect("every check is reported")
}

fn count(check: &Check, figure: Fig) -> u64 {
    match check.figure(figure) {
        Some(Value::Count(n)) => n,
        other => panic!("{figure:?}: {other:?}"),
    }
}

/// Every answer a replica sent, as (ms, call, what it was): "INVALID_ARGUMENT",
/// "SUCCEEDED R10086", "-32603 OVERLOADED".
fn answers(run: &Run) -> Vec<(u64, u32, String)> {
    run.records()
        .iter()
        .filter_map(|r| {
            let (call, heard) = match r.what {
                What::ToolResult { call, reply, .. } => (call, Heard::Result(reply)),
                What::RpcError { call, error } => (call, Heard::Rpc(error)),
                _ => return None,
            };
            let said = match heard {
                Heard::Result(Reply::Review { row, status }) => format!("{} R{}", status.name(), row.0),
                Heard::Result(Reply::Error { code, .. }) => code.name().to_owned(),
                Heard::Rpc(RpcError::Thrown(code)) => format!("{} {}", RpcError::Thrown(code).code(), code.name()),
                Heard::Rpc(error) => error.code().to_string(),
            };
            Some((r.t.ms(), call.0, said))
        })
        .collect()
}

fn reviews_at(run: &Run) -> Vec<u64> {
    run.reviews().iter().map(|r| r.at.ms()).collect()
}

#[test]
fn a_business_error_thrown_as_a_json_rpc_error_is_not_retried() {
    // The burst: 200 calls at 0, round robin, 100 to each replica, which
    // take 8 into their slots and 16 into their queue at 20: 2 x 24 = 48;
    // the other 2 x 76 = 152 get OVERLOADED at once, at 20.
    let right = run("--preset overload --mode patterns");
    let wrong = run("--preset overload --mode patterns --error-results off");
    let at_20 = |run: &Run| answers(run).into_iter().filter(|(t, _, _)| *t == 20).collect::<Vec<_>>();
    assert!(at_20(&right).iter().all(|(_, _, said)| said == "OVERLOADED"));
    assert_eq!(at_20(&right).len(), 152);
    assert!(at_20(&wrong).iter().all(|(_, _, said)| said == "-32603 OVERLOADED"));
    assert_eq!(at_20(&wrong).len(), 152);
    // As Tool Results the agent retries them after its backoff and every
    // intent gets its review; thrown, it reads a failed request and gives
    // up on the 152 intents at 40: 200 - 152 = 48 reviews.
    assert_eq!(right.reviews().len(), 200);
    assert_eq!(wrong.reviews().len(), 48);
    let c = check(&right, CheckName::BusinessErrorsAreResults);
    assert_eq!((c.holds, count(&c, Fig::AsJsonrpcErrors)), (Some(true), 0));
    let c = check(&wrong, CheckName::BusinessErrorsAreResults);
    assert_eq!((c.holds, count(&c, Fig::AsJsonrpcErrors), count(&c, Fig::AsToolResults)), (Some(false), 152, 0));
}

#[test]
fn invalid_argument_thrown_leaves_the_agent_nothing_to_fix() {
    // A 600-character reason: the strict schema refuses call 1 at 20 + 100
    // = 120. As a Tool Result the agent hears it at 140, drops the reason's
    // excess and calls again at once: call 2 reaches B at 160, is inserted
    // at 160 + 100 + 1 = 261 and RV-1 is created at 261 + 410 = 671.
    let right = run("--preset long-reason --mode patterns");
    assert_eq!(answers(&right), [(120, 1, "INVALID_ARGUMENT".into()), (672, 2, "SUCCEEDED R10086".into())]);
    assert_eq!(reviews_at(&right), [671]);
    // Thrown as a JSON-RPC error, the agent cannot tell "fix your
    // arguments" from a broken server: it gives up, and no review is made.
    let wrong = run("--preset long-reason --mode patterns --error-results off");
    assert_eq!(answers(&wrong), [(120, 1, "-32603 INVALID_ARGUMENT".into())]);
    assert!(wrong.reviews().is_empty());
    assert_eq!(check(&wrong, CheckName::BusinessErrorsAreResults).holds, Some(false));
    // The schema did its part either way.
    assert_eq!(check(&wrong, CheckName::OutsideSchemaRefused).holds, Some(true));
}

#[test]
fn the_end_user_comes_from_the_verified_token_not_the_arguments() {
    // u-1001's token asks for O20260728999 and names its owner, u-2002, as
    // user_id. Taken from the arguments, the subject owns the order: policy
    // allows it at 120, R10086 is inserted at 121 with requester u-2002,
    // and the create goes out at once: RV-1 at 121 + 410 = 531.
    let wrong = run("--preset user-in-arguments --mode patterns --subject-from-token off");
    let policy = wrong.records().iter().find_map(|r| match r.what {
        What::Policy { subject, claimed, .. } => Some((r.t.ms(), subject, claimed)),
        _ => None,
    });
    assert_eq!(policy, Some((120, OTHER_USER, true)));
    assert_eq!(wrong.rows()[0].requester, OTHER_USER);
    assert_eq!(reviews_at(&wrong), [531]);
    let c = check(&wrong, CheckName::ForgedNoDownstream);
    assert_eq!((c.holds, count(&c, Fig::Rows), count(&c, Fig::DownstreamCalls)), (Some(false), 1, 1));
    // From the token, with the strict schema (which declares no user_id):
    // INVALID_ARGUMENT at 120; the agent drops the user_id at 140 and call
    // 2, at B by 160, is refused FORBIDDEN at 260 (u-1001 does not own it).
    let right = run("--preset user-in-arguments --mode patterns");
    assert_eq!(answers(&right), [(120, 1, "INVALID_ARGUMENT".into()), (260, 2, "FORBIDDEN".into())]);
    let c = check(&right, CheckName::ForgedNoDownstream);
    assert_eq!((c.holds, count(&c, Fig::Rows), count(&c, Fig::DownstreamCalls)), (Some(true), 0, 0));
    // With a lax schema the user_id is ignored, and authorization refuses
    // the first call at 120.
    let lax = run("--preset user-in-arguments --mode patterns --strict-schema off");
    assert_eq!(answers(&lax), [(120, 1, "FORBIDDEN".into())]);
    assert_eq!(check(&lax, CheckName::ForgedNoDownstream).holds, Some(true));
    assert!(right.rows().is_empty() && lax.rows().is_empty());
}

#[test]
fn arguments_outside_the_schema_are_refused_and_write_nothing() {
    for preset in ["extra-argument", "long-reason"] {
        // Lax: call 1 reaches the handler: R10086 at 121, its create at
        // 121, RV-1 at 531.
        let wrong = run(&format!("--preset {preset} --mode patterns --strict-schema off"));
        let c = check(&wrong, CheckName::OutsideSchemaRefused);
        assert_eq!(c.holds, Some(false), "{preset}");
        assert_eq!(
            (count(&c, Fig::Rows), count(&c, Fig::Creates), count(&c, Fig::ReachedHandler)),
            (1, 1, 1),
            "{preset}"
        );
        assert_eq!(reviews_at(&wrong), [531]);
        // Strict: call 1 is refused at 120 and writes nothing; the agent's
        // own call without the offending argument makes the one review at
        // 671 (worked above).
        let right = run(&format!("--preset {preset} --mode patterns"));
        let c = check(&right, CheckName::OutsideSchemaRefused);
        assert_eq!(c.holds, Some(true), "{preset}");
        assert_eq!((count(&c, Fig::Refused), count(&c, Fig::Rows), count(&c, Fig::Creates)), (1, 0, 0), "{preset}");
        assert_eq!(reviews_at(&right), [671]);
    }
    // The naive server's schema is lax too: the call writes.
    assert_eq!(check(&run("--preset extra-argument --mode naive"), CheckName::OutsideSchemaRefused).holds, Some(false));
}

#[test]
fn the_callers_token_is_forwarded_only_without_the_servers_own_credential() {
    let credentials = |run: &Run| -> Vec<(u64, Credential)> {
        run.records()
            .iter()
            .filter_map(|r| match r.what {
                What::CreateSent { credential, .. } => Some((r.t.ms(), credential)),
                _ => None,
            })
            .collect()
    };
    // The incident with every pattern on: one create, replica A's at 121.
    let own = run("--preset incident --mode patterns");
    assert_eq!(credentials(&own), [(121, Credential::Service)]);
    assert_eq!(check(&own, CheckName::CallerTokenNotForwarded).holds, Some(true));
    let passed = run("--preset incident --mode patterns --own-credential off");
    assert_eq!(credentials(&passed), [(121, Credential::Caller)]);
    let c = check(&passed, CheckName::CallerTokenNotForwarded);
    assert_eq!((c.holds, count(&c, Fig::CallerTokens)), (Some(false), 1));
    // A switch of its own: the naive server with only its own credential
    // keeps the token at the door, authorization still off; its two creates
    // (121 and the retry's at 4001) carry the server's credential.
    let naive = run("--preset incident --mode naive --own-credential on");
    assert_eq!(credentials(&naive), [(121, Credential::Service), (4_001, Credential::Service)]);
    assert!(!naive.settings().switches.authorize);
}

#[test]
fn the_agents_retry_policy_decides_the_naive_incident_and_is_harmless_with_the_patterns() {
    let retries = |run: &Run| -> Vec<(u64, RetryChoice)> {
        run.records()
            .iter()
            .filter_map(|r| match r.what {
                What::ScriptedRetry { choice, .. } => Some((r.t.ms(), choice)),
                _ => None,
            })
            .collect()
    };
    // The naive incident: RV-1 at 531, its answer lost; the timeout at 2621
    // marks R10086 FAILED at 2622, and SUBMISSION_FAILED names R10086. At
    // once: the retry at 3880 reaches B at 3900, inserts R10087 at 4001
    // (no unique key) and RV-2 is created at 4411.
    let at_once = run("--preset incident --mode naive");
    assert_eq!(retries(&at_once), [(3_880, RetryChoice::Again)]);
    assert_eq!(reviews_at(&at_once), [531, 4_411]);
    // Only a tool that declares idempotentHint: the naive server's does not
    // (its request_key is not unique), so no call at 3880.
    let hint = run("--preset incident --mode naive --retry-policy idempotent-hint");
    assert_eq!(retries(&hint), [(3_880, RetryChoice::Withheld)]);
    assert_eq!(reviews_at(&hint), [531]);
    // Poll the review_id: get_risk_review_status(R10086) at 3880 reaches B
    // at 3900 and reads FAILED at 4001.
    let poll = run("--preset incident --mode naive --retry-policy on");
    assert_eq!(retries(&poll), [(3_880, RetryChoice::Poll(RowId(10086)))]);
    assert_eq!(answers(&poll)[1], (4_001, 2, "FAILED R10086".into()));
    assert_eq!(reviews_at(&poll), [531]);
    let holds = |run: &Run| check(run, CheckName::OneReviewPerBusinessKey).holds;
    assert_eq!([holds(&at_once), holds(&hint), holds(&poll)], [Some(false), Some(true), Some(true)]);
    // With every server pattern on, all three leave one review. The row is
    // UNKNOWN at 2622 and the agent polls at 3642 (call 2, to B). Called
    // again at 3880 (call 3, to A, 3900), the insert runs into the unique
    // request_key at 4001 and the read answers SUCCEEDED at 4002; polled,
    // the read at 4001 answers it.
    for (policy, answered) in [("off", 4_002), ("idempotent-hint", 4_002), ("on", 4_001)] {
        let r = run(&format!("--preset incident --mode patterns --retry-policy {policy}"));
        assert_eq!(reviews_at(&r), [531], "{policy}");
        assert_eq!(holds(&r), Some(true), "{policy}");
        assert_eq!(answers(&r)[2], (answered, 3, "SUCCEEDED R10086".into()), "{policy}");
    }
}

#[test]
fn with_every_pattern_on_the_new_presets_break_nothing() {
    for preset in ["user-in-arguments", "extra-argument", "long-reason"] {
        let r = run(&format!("--preset {preset} --mode patterns"));
        let failing: Vec<_> = r.checks().into_iter().filter(|c| c.holds == Some(false)).map(|c| c.name).collect();
        assert!(failing.is_empty(), "{preset}: {failing:?}");
    }
}

#[test]
fn explore_finds_each_input_that_breaks_its_design() {
    // One fault at most over the incident: 2 x (1 + 37) schedules.
    let explored = |flags: &str| {
        let e = explore(&settings(flags), 1, |_, _| true);
        assert_eq!(e.explored, 76);
        e.checks
            .iter()
            .filter(|b| b.broken > 0)
            .map(|b| (b.check, b.shortest.as_ref().map(|s| s.fault_texts()).unwrap_or_default()))
            .collect::<Vec<_>>()
    };
    assert_eq!(explored("--preset incident --mode patterns"), []);
    assert_eq!(
        explored("--preset incident --mode patterns --strict-schema off"),
        [(CheckName::OutsideSchemaRefused, vec!["extra-argument@1".to_owned()])]
    );
    assert_eq!(
        explored("--preset incident --mode patterns --subject-from-token off"),
        [(CheckName::ForgedNoDownstream, vec!["claimed-user@1".to_owned()])]
    );
}

#[test]
fn where_it_broke_names_each_protocol_harm() {
    use idempotency_lab::view::risk::broke::{break_words, broke};
    let headline = |flags: &str| {
        let r = run(flags);
        let b = broke(&r).unwrap_or_else(|| panic!("{flags}: nothing broke"));
        break_words(&r, &b, r.horizon()).remove(0)
    };
    // The burst's calls reach the replicas at 20 (10:31:08.140) in the order
    // they were made: A takes calls 1, 3, ..., 47 (8 slots, 16 queued), so
    // the first it refuses is call 49.
    assert_eq!(
        headline("--preset overload --mode patterns --error-results off"),
        "Replica A lane, at 10:31:08.140 (0.02 s): Replica A threw OVERLOADED at call 49 as a JSON-RPC error: the agent read a failed request, not \u{201c}retry later\u{201d}, and gave up on the intent."
    );
    // The insert at 121 (08.120 + 0.121 = 08.241) is the database's.
    assert_eq!(
        headline("--preset extra-argument --mode patterns --strict-schema off"),
        "Database lane, at 10:31:08.241 (0.121 s): Replica A inserted R10086 for a call carrying approved: true, an argument the schema does not have: the arguments reached the handler."
    );
    assert_eq!(
        headline("--preset long-reason --mode patterns --strict-schema off"),
        "Database lane, at 10:31:08.241 (0.121 s): Replica A inserted R10086 for a call whose reason is 600 characters, past the schema's 500: the arguments reached the handler."
    );
    assert_eq!(
        headline("--preset user-in-arguments --mode patterns --subject-from-token off"),
        "Replica A lane, at 10:31:08.241 (0.121 s): A forged call for O20260728999, naming its owner u-2002 as user_id in the arguments while its token is u-1001's, reached the Risk API."
    );
    assert_eq!(
        headline("--preset incident --mode patterns --own-credential off"),
        "Replica A lane, at 10:31:08.241 (0.121 s): Replica A forwarded the caller's token to the Risk API."
    );
}

#[test]
fn a_forged_call_refused_from_its_queue_never_reached_authorization() {
    // Regression: forged_no_downstream counted a forged call that deadline
    // propagation answered from its queue as not refused. Call 1 names
    // O20260728999 and arrives 2 s late, at 2020, to find replica A full;
    // its work needs 0.1 + 0.3 + 2.5 = 2.9 s of a deadline at 5.0 s, so
    // from 5001 - 2900 = 2101 its budget no longer covers it.
    let r = run("--preset overload --mode patterns --fault call-delayed@1,forged-order@1");
    assert!(answers(&r).contains(&(2_101, 1, "TEMPORARY_UNAVAILABLE".into())));
    assert_eq!(check(&r, CheckName::ForgedNoDownstream).holds, Some(true));
}
