//! The risk page's database table, state machine and checks panel,
//! mounted in headless Chromium and read through their DOM.

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::risk::settings::{MODE, PRESET, RETRY_POLICY};
use idempotency_lab::sim::risk::{Mode, Preset, Run, Settings};
use idempotency_lab::ui::Replay;
use idempotency_lab::ui::risk::{ChecksPanel, DatabaseTable, Risk, StateMachine};
use idempotency_lab::view::page::Page;
use idempotency_lab::view::url::LabLink;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

/// A page state for a preset in a mode, with the playhead at `at`.
fn risk(preset: Preset, mode: Mode, at: Millis) -> Risk {
    risk_at(Settings::preset(preset, mode), at)
}

/// A page state for `settings`, with the playhead at `at`.
fn risk_at(settings: Settings, at: Millis) -> Risk {
    Risk::new(
        LabLink { settings, b: None, notices: Vec::new(), is_link: true },
        &Page { at: Some(at), ..Page::default() },
    )
}

fn container() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length()).filter_map(|i| nodes.item(i)).map(|n| n.text_content().unwrap_or_default()).collect()
}

fn end_of(preset: Preset, mode: Mode) -> Millis {
    Run::simulate(&Settings::preset(preset, mode)).unwrap().summary().end
}

#[wasm_bindgen_test]
async fn the_table_shows_the_rows_their_statuses_and_the_row_that_changed() {
    let root = container();
    // The naive incident, just after the timeout's update marked R10086.
    let risk = risk(Preset::Incident, Mode::Naive, Millis(2_622));
    let _mounted = mount_to(root.clone(), move || view! { <DatabaseTable risk/> });
    tick().await;
    assert_eq!(texts(&root, "tbody tr th"), ["R10086"]);
    let failed = root.query_selector("tbody tr.status-failed").unwrap().expect("R10086 is FAILED");
    assert!(failed.class_list().contains("changed"), "the row that just changed is highlighted");
    assert_eq!(failed.get_attribute("aria-current").as_deref(), Some("true"));
    assert_eq!(texts(&root, "tbody tr .status-chip"), ["FAILED"]);
    let headers = texts(&root, "thead th");
    assert_eq!(&headers[..3], ["id", "request_key", "business_key"]);
    assert_eq!(headers[9], "version");

    // At the end the retry's row is there too, and it changed last.
    risk.seek(end_of(Preset::Incident, Mode::Naive), false);
    tick().await;
    assert_eq!(texts(&root, "tbody tr th"), ["R10086", "R10087"]);
    assert_eq!(texts(&root, "tbody tr .status-chip"), ["FAILED", "SUCCEEDED"]);
    assert_eq!(texts(&root, "tbody tr.changed th"), ["R10087"]);
    assert!(root.query_selector(".conflict").unwrap().is_none(), "no unique key, no conflict");
}

#[wasm_bindgen_test]
async fn a_unique_conflict_shows_on_the_row_it_ran_into() {
    let root = container();
    // Every server pattern on, and the agent retrying at once as in the
    // incident (polling the review would carry no request_key).
    let s = Settings::from_pairs(&[(&PRESET, "incident"), (&MODE, "patterns"), (&RETRY_POLICY, "off")]).unwrap();
    let end = Run::simulate(&s).unwrap().summary().end;
    let risk = risk_at(s, end);
    let _mounted = mount_to(root.clone(), move || view! { <DatabaseTable risk/> });
    tick().await;
    assert_eq!(texts(&root, "tbody tr th"), ["R10086"], "the retry inserts no second row");
    let conflicts = texts(&root, "tbody tr .conflict");
    assert_eq!(conflicts.len(), 1);
    assert!(conflicts[0].contains("ran into the unique request_key rk-0001"), "{conflicts:?}");
    // Before the retry there is no conflict yet.
    risk.seek(Millis(3_000), false);
    tick().await;
    assert!(texts(&root, "tbody tr .conflict").is_empty());
}

#[wasm_bindgen_test]
async fn the_state_machine_draws_the_naive_timeout_in_red_only_once_it_happens() {
    let root = container();
    let risk = risk(Preset::Incident, Mode::Naive, Millis(2_000));
    let _mounted = mount_to(root.clone(), move || view! { <StateMachine risk/> });
    tick().await;
    assert!(root.query_selector("path.edge.illegal").unwrap().is_none(), "nothing illegal before the timeout");
    assert_eq!(texts(&root, ".state.occupied .state-name"), ["PENDING"]);
    // Eight legal edges, one of them already taken by the insert.
    assert_eq!(root.query_selector_all("path.edge:not(.illegal)").unwrap().length(), 8);
    assert_eq!(root.query_selector_all("path.edge.taken").unwrap().length(), 1);

    risk.seek(Millis(2_622), false);
    tick().await;
    assert_eq!(root.query_selector_all("path.edge.illegal").unwrap().length(), 1);
    assert_eq!(texts(&root, "text.edge-label.illegal"), ["timeout", "illegal ×1"]);
    assert_eq!(texts(&root, ".state.occupied .state-name"), ["FAILED"]);
    let illegal = texts(&root, ".taken-list li.illegal");
    assert_eq!(illegal, ["PENDING → FAILED (timeout) ×1: illegal"]);
    let desc = texts(&root, "desc");
    assert!(desc[0].contains("FAILED: R10086"), "{desc:?}");
}

#[wasm_bindgen_test]
async fn the_checks_panel_reads_each_verdict_with_its_figures() {
    let root = container();
    let end = end_of(Preset::Incident, Mode::Naive);
    let risk = risk(Preset::Incident, Mode::Naive, end);
    let _mounted = mount_to(root.clone(), move || view! { <ChecksPanel risk/> });
    tick().await;
    // The naive incident, worked from RISK-MODEL.md: the agent's retry
    // reuses the request_key, and with no unique constraint it inserts a
    // second row (same_request_key_one_row fails); the lost create's row
    // ends FAILED and the retry sends a second create for its key
    // (lost_response_converges fails); two reviews for one order
    // (one_review_per_business_key fails); PENDING -> FAILED on a timeout
    // is illegal (legal_transitions fails). No row was ever UNKNOWN or
    // RETRYABLE (a naive timeout is FAILED at once), no second request_key
    // for the order, no claim, no forged call and no overload: those five
    // have nothing to judge. The Risk API worked on one create at a time,
    // within its 32. No call was given up (call 1 heard SUBMISSION_FAILED
    // at 2.622 s, within its 5 s), so no_effect_after_deadline has nothing
    // to judge; the replicas passed the agent's token on
    // with each create (caller_token_not_forwarded fails); the one
    // business error, SUBMISSION_FAILED, was a Tool Result (holds); no
    // argument broke the schema.
    let expected = [
        "fails",
        "not applicable",
        "fails",
        "not applicable",
        "not applicable",
        "not applicable",
        "fails",
        "fails",
        "not applicable",
        "holds",
        "not applicable",
        "fails",
        "holds",
        "not applicable",
    ];
    assert_eq!(texts(&root, "li .verdict-word"), expected);
    assert_eq!(texts(&root, "li .check-name").len(), 14);
    let items = texts(&root, "li");
    let review = items.iter().find(|t| t.contains("one_review_per_business_key")).unwrap();
    assert!(review.starts_with("fails") && review.contains("reviews for O20260728001: 2"), "{review}");

    // A preset's question hides the verdicts until the reader predicts.
    risk.start_question(Preset::Incident);
    tick().await;
    assert!(texts(&root, "li .verdict-word").iter().all(|w| w == "?"));
    risk.predict("2".to_owned());
    tick().await;
    assert_eq!(texts(&root, "li .verdict-word"), expected, "the answer is at the end of the run");
}

#[wasm_bindgen_test]
async fn switching_the_mode_and_a_pattern_reruns_the_checks() {
    let root = container();
    let s = Settings::from_pairs(&[(&PRESET, "not-found-resend"), (&MODE, "patterns")]).unwrap();
    let end = Run::simulate(&s).unwrap().summary().end;
    let risk = risk_at(s, end);
    let _mounted = mount_to(root.clone(), move || view! { <ChecksPanel risk/> });
    tick().await;
    let claim = || texts(&root, "li").into_iter().find(|t| t.contains("single_claim_winner")).unwrap();
    assert!(claim().starts_with("holds"), "{}", claim());
    risk.set_switch(idempotency_lab::sim::risk::Pattern::Cas, false);
    risk.seek(risk.end(), false);
    tick().await;
    assert!(claim().starts_with("fails"), "{}", claim());
    risk.set_mode(Mode::Patterns);
    risk.seek(risk.end(), false);
    tick().await;
    assert!(claim().starts_with("holds"), "{}", claim());
}
