//! A fourth lab written only in a test (tests/shared/coin.rs), with a page
//! of a few lines, is mounted the way the page that hosts every lab mounts
//! a bundle's lab: it takes its title, says when it is ready, and leaves
//! nothing behind when it is unmounted.

#[path = "../shared/coin.rs"]
mod coin;

use coin::{CoinLab, CoinSettings};
use idempotency_lab::sim::params::Schema;
use idempotency_lab::ui::mount::{Boot, mount, ready, unmount};
use idempotency_lab::view::lab::LabModel;
use idempotency_lab::view::url::{parse_query, read_lab};
use leptos::prelude::*;
use wasm_bindgen_test::*;

/// The coin lab's page: its run at the end, as the command line's text.
#[component]
fn CoinApp() -> impl IntoView {
    let link = parse_query(&Boot::current().query, CoinLab::LAB);
    let settings = read_lab::<CoinSettings>(&link).settings;
    let text = CoinLab::simulate(&settings).map(|run| CoinLab::text_mirror(&run, CoinLab::last_moment(&run)));
    ready();
    view! { <pre class="coin">{text.unwrap_or_default()}</pre> }
}

/// Waits for the browser's next frame.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window().unwrap().request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
async fn a_fourth_lab_mounts_says_when_it_is_ready_and_unmounts() {
    let root: web_sys::HtmlElement = super::container();
    mount(CoinLab::LAB, root.clone(), "?flips=5&first=tails".to_owned(), "coin/".to_owned(), CoinApp);
    assert_eq!(document().title(), "Idempotency Lab: coin flips");
    // Five flips from tails: heads at 2 s and 4 s.
    assert_eq!(super::text(&root, ".coin"), "Model time: 5.00 s\nHeads so far: 2\n");
    assert!(!root.has_attribute("data-ready"), "ready from the next frame on");
    next_frame().await;
    next_frame().await;
    assert!(root.has_attribute("data-ready"));
    unmount();
    assert_eq!(root.inner_html(), "", "nothing of the lab is left");
    assert_eq!(CoinSettings::opening().values(), [3, 0]);
}
