//! Components mounted in headless Chromium, checked through the DOM they
//! produce: what a person would see after each interaction.
#![cfg(target_arch = "wasm32")]

mod fourth_lab;
mod risk;

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::ack::Settings;
use idempotency_lab::sim::ack::settings::DEDUP;
use idempotency_lab::ui::ack::{Ack, Chart, Controls, Mirror, RecentEvents, ResultsStrip, Timeline};
use idempotency_lab::ui::notices::Notices;
use idempotency_lab::ui::replayed::LabPage;
use idempotency_lab::ui::{NoticeList, Playback, Replay};
use idempotency_lab::view::page::Page;
use idempotency_lab::view::url::LabLink;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A state for `settings`, not reading anything the page remembered.
fn lab_with(settings: Settings) -> Ack {
    Ack::new(LabLink { settings, b: None, notices: Vec::new(), is_link: true }, Page::default())
}

fn container() -> HtmlElement {
    let document = document();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

fn text(root: &HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

fn button(root: &HtmlElement, label: &str) -> HtmlElement {
    let buttons = root.query_selector_all("button").unwrap();
    (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .map(|b| b.unchecked_into::<HtmlElement>())
        .find(|b| b.text_content().unwrap_or_default().trim() == label)
        .unwrap_or_else(|| panic!("no button {label}"))
}

fn dispatch(element: &web_sys::Element, event: &str) {
    let event = web_sys::Event::new_with_event_init_dict(event, &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    element.dispatch_event(&event).unwrap();
}

#[wasm_bindgen_test]
async fn results_strip_and_mirror_show_the_opening_run() {
    let root = container();
    let lab = lab_with(Settings::default());
    let _mounted = mount_to(root.clone(), move || view! { <ResultsStrip ack=lab/> <Mirror ack=lab/> });
    tick().await;
    // At 0 s attempt 1 is on its way and nothing is counted: the strip
    // reads at the playhead, like the mirror.
    assert_eq!(text(&root, ".figure .counter"), "0");
    assert_eq!(text(&root, ".figure .outcome"), "not yet: waiting for attempt 1");
    assert_eq!(text(&root, ".figure .attempts"), "1 of 3");
    assert_eq!(
        text(&root, ".end-line"),
        "At the end of the run (4.05 s): 1 increment; the client succeeded at 4.05 s."
    );
    let mirror = text(&root, ".mirror-text");
    assert!(mirror.starts_with("Model time: 0.00 s (the run ends at 4.05 s)"), "{mirror}");
    lab.seek(Millis(4050), false);
    tick().await;
    assert_eq!(text(&root, ".figure .counter"), "1");
    assert_eq!(text(&root, ".figure .outcome"), "succeeded at 4.05 s");
    assert_eq!(text(&root, ".figure .hits"), "1");
    assert_eq!(text(&root, ".figure .attempts"), "2 of 3");
    assert!(root.query_selector(".verdict.disagree").unwrap().is_none());
    assert!(text(&root, ".mirror-text").contains("Client outcome: succeeded at 4.05 s"));
}

#[wasm_bindgen_test]
async fn clearing_deduplication_doubles_the_counter_and_says_so() {
    let root = container();
    let lab = lab_with(Settings::default());
    let _mounted = mount_to(root.clone(), move || view! { <Controls ack=lab/> <ResultsStrip ack=lab/> });
    tick().await;
    let checkbox: HtmlInputElement = root.query_selector("#f-dedup").unwrap().unwrap().unchecked_into();
    assert!(checkbox.checked());
    checkbox.set_checked(false);
    dispatch(&checkbox, "change");
    tick().await;
    // The second increment commits at 6.00 s.
    lab.seek(Millis(6_050), false);
    tick().await;
    assert_eq!(text(&root, ".figure .counter"), "2");
    let verdict = text(&root, ".verdict.disagree");
    assert!(verdict.contains("disagree") && verdict.contains("2 increments"), "{verdict}");
}

#[wasm_bindgen_test]
async fn an_invalid_field_shows_its_message_and_keeps_the_last_run() {
    let root = container();
    let lab = lab_with(Settings::default());
    let _mounted = mount_to(root.clone(), move || view! { <Controls ack=lab/> <ResultsStrip ack=lab/> });
    lab.seek(Millis(4_050), false);
    tick().await;
    let timeout: HtmlInputElement = root.query_selector("#f-timeout").unwrap().unwrap().unchecked_into();
    timeout.set_value("soon");
    dispatch(&timeout, "input");
    tick().await;
    let message = text(&root, "#f-timeout-error");
    assert_eq!(
        message,
        "Timeout per attempt: \"soon\" is not a number of seconds with at most three decimals; allowed: 0.001 to 600 seconds"
    );
    assert_eq!(timeout.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(text(&root, ".figure .outcome"), "succeeded at 4.05 s", "the last valid run stays");
    assert_eq!(timeout.value(), "soon", "what the user typed stays in the field");

    // A valid value clears the message and recomputes at once.
    timeout.set_value("1");
    dispatch(&timeout, "input");
    tick().await;
    assert!(root.query_selector("#f-timeout-error").unwrap().is_none());
    assert_eq!(lab.settings().timeout(), Millis(1000));
    assert_eq!(text(&root, ".figure .outcome"), "succeeded at 2.05 s");
}

#[wasm_bindgen_test]
async fn the_timeline_draws_the_lost_acknowledgement_and_moves_the_playhead_on_click() {
    let root = container();
    let lab = lab_with(Settings::default());
    let _mounted = mount_to(root.clone(), move || view! { <Timeline ack=lab/> <Mirror ack=lab/> });
    tick().await;
    assert!(root.query_selector("svg.diagram path.response.lost").unwrap().is_some());
    let labels = root.query_selector("svg.diagram").unwrap().unwrap().text_content().unwrap();
    for expected in ["success for attempt 1 lost", "replayed to attempt 2 (counter 1)", "+1 → counter 1 (attempt 1)"]
    {
        assert!(labels.contains(expected), "missing {expected}");
    }
    // Everything after the playhead (at 0) is faded.
    let lost_mark = root.query_selector("svg.diagram path.mark.lost").unwrap().unwrap();
    assert!(lost_mark.class_list().contains("future"));
    dispatch(&lost_mark, "click");
    tick().await;
    assert_eq!(lab.player.playhead.get_untracked(), Millis(2050));
    assert!(!lost_mark.class_list().contains("future"));
    assert!(text(&root, ".mirror-text").starts_with("Model time: 2.05 s"));
}

#[wasm_bindgen_test]
async fn playback_buttons_step_between_events() {
    let root = container();
    let lab = lab_with(Settings::default());
    let _mounted = mount_to(root.clone(), move || view! { <Playback lab/> <Mirror ack=lab/> <RecentEvents ack=lab/> });
    tick().await;
    let next = button(&root, "Next event");
    next.click();
    tick().await;
    assert!(text(&root, ".mirror-text").starts_with("Model time: 2.00 s"));
    // 60 000 × 2 000 / 4 050 = 29 629.6 inspection ms.
    assert_eq!(text(&root, "output"), "Model 2.00 s of 4.05 s · replay 29.6 s of 60.0 s");
    next.click();
    tick().await;
    assert!(text(&root, ".mirror-text").starts_with("Model time: 2.05 s"));
    assert_eq!(root.query_selector_all(".event-list li").unwrap().length(), 4);
    assert!(text(&root, ".event-list li").contains("is lost in the network"), "newest first");
    button(&root, "Previous event").click();
    tick().await;
    assert!(text(&root, ".mirror-text").starts_with("Model time: 2.00 s"));
    button(&root, "Restart").click();
    tick().await;
    assert!(text(&root, ".mirror-text").starts_with("Model time: 0.00 s"));
    let slider: HtmlInputElement = root.query_selector("#time").unwrap().unwrap().unchecked_into();
    assert_eq!(slider.max(), "4050");
    slider.set_value("3000");
    dispatch(&slider, "input");
    tick().await;
    assert!(text(&root, ".mirror-text").starts_with("Model time: 3.00 s"));
    assert_eq!(button(&root, "Play").text_content().unwrap(), "Play");
}

#[wasm_bindgen_test]
async fn the_chart_describes_and_draws_the_counter() {
    let root = container();
    let settings = Settings::from_pairs(&[(&DEDUP, "off")]).unwrap();
    let lab = lab_with(settings);
    let _mounted = mount_to(root.clone(), move || view! { <Chart ack=lab/> });
    tick().await;
    let svg = root.query_selector("svg.chart-svg").unwrap().unwrap();
    let label = svg.get_attribute("aria-label").unwrap();
    assert!(label.contains("rises to 1 at 2.00 s, 2 at 6.00 s"), "{label}");
    // The counter's line steps up twice; the playhead is drawn.
    let counter = root.query_selector("path.chart-line.counter").unwrap().unwrap().get_attribute("d").unwrap();
    assert_eq!(counter.matches('V').count(), 2, "{counter}");
    assert!(root.query_selector("path.chart-playhead").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn a_notice_keeps_its_place_while_others_come_and_go() {
    let root = container();
    let notices = Notices::new();
    let _mounted = mount_to(root.clone(), move || view! { <NoticeList notices/> });
    notices.notify("first <b>".to_owned());
    notices.notify("second".to_owned());
    tick().await;
    let texts = || -> Vec<String> {
        let list = root.query_selector_all(".notice-text").unwrap();
        (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap()).collect()
    };
    assert_eq!(texts(), ["first <b>", "second"]);
    let second = root.query_selector_all(".notice").unwrap().item(1).unwrap();
    button(&root, "Dismiss").click();
    notices.notify("third".to_owned());
    tick().await;
    assert_eq!(texts(), ["second", "third"]);
    let still = root.query_selector(".notice").unwrap().unwrap();
    assert!(second.is_same_node(Some(&still)), "the second notice is the same element, not drawn again");
}
