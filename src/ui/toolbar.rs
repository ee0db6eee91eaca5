//! Sharing and files: copy a link to this moment, an iframe snippet, export
//! the run (JSON) and the diagram (SVG), import a settings file.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::sim::ack::Settings;
use crate::sim::params_file::{MAX_FILE_BYTES, parse_settings_json};
use crate::view::ack::report::compare_to_json;
use crate::view::ack::{diagram, run_to_json};
use crate::view::url::{LinkState, to_query};

use super::dom;
use super::state::Lab;

/// The address of the app showing `state`.
pub fn share_url(state: &LinkState) -> String {
    share_url_at(&dom::location_base(), state)
}

/// The address of the app at `base` showing `state`.
pub fn share_url_at(base: &str, state: &LinkState) -> String {
    let query = to_query(state);
    if query.is_empty() { base.to_owned() } else { format!("{base}?{query}") }
}

pub fn embed_snippet(state: &LinkState) -> String {
    let mut embedded = state.clone();
    embedded.embed = true;
    format!(
        "<iframe src=\"{}\" title=\"Idempotency Lab: retries and lost acknowledgements\" width=\"100%\" height=\"720\" loading=\"lazy\"></iframe>",
        crate::view::timeline::escape(&share_url(&embedded))
    )
}

/// What the share box shows: a title and text to copy.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shared {
    title: &'static str,
    text: String,
    status: String,
}

/// Shows `text` for copying by hand and tries the clipboard, reporting
/// whether the browser allowed it (a refusal is an answer, not an error).
fn copy(shared: RwSignal<Option<Shared>>, title: &'static str, text: String) {
    shared.set(Some(Shared { title, text: text.clone(), status: "Copying…".to_owned() }));
    let Some(promise) = dom::window().map(|w| w.navigator().clipboard().write_text(&text)) else {
        return;
    };
    leptos::task::spawn_local(async move {
        let status = match JsFuture::from(promise).await {
            Ok(_) => "Copied to the clipboard.",
            Err(_) => "The browser did not allow copying; select the text above and copy it.",
        };
        shared.update(|s| {
            if let Some(s) = s.as_mut().filter(|s| s.text == text) {
                s.status = status.to_owned();
            }
        });
    });
}

fn import(lab: Lab, file: web_sys::File) {
    let name = crate::sim::params::shorten(&file.name());
    if file.size() > MAX_FILE_BYTES as f64 {
        lab.notices.notify(format!("{name}: the file is {} bytes; allowed: a JSON settings file of at most {MAX_FILE_BYTES} bytes. Nothing changed.", file.size()));
        return;
    }
    leptos::task::spawn_local(async move {
        let text = match JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string()) {
            Some(text) => text,
            None => {
                lab.notices.notify(format!("{name}: the file could not be read as text. Nothing changed."));
                return;
            }
        };
        match parse_settings_json::<Settings>(&text) {
            Ok(settings) => {
                lab.experiment.set(None);
                if lab.apply(settings) {
                    lab.notices.notify(format!("Imported settings from {name}."));
                }
            }
            Err(e) => lab.notices.notify(format!("{name}: {e}. Nothing changed.")),
        }
    });
}

#[component]
pub fn Toolbar(lab: Lab, on_shortcuts: Callback<()>) -> impl IntoView {
    let shared = RwSignal::new(None::<Shared>);
    let export_json = move |_| {
        // A comparison exports both runs and their differences.
        let c = lab.compare;
        let json = match (c.b_untracked(), c.diff.get_untracked()) {
            (Some(b), Some(diff)) => lab.run.with_untracked(|a| compare_to_json(a, &b, &diff, c.fork.get_untracked())),
            _ => lab.run.with_untracked(|r| run_to_json(r)),
        };
        if let Err(e) = dom::download("idempotency-lab-run.json", "application/json", &json) {
            lab.notices.notify(format!("The export failed: {e}."));
        }
    };
    let export_svg = move |_| {
        let svg = lab.run.with_untracked(|r| diagram(r).to_svg(Some(lab.playhead.get_untracked())));
        if let Err(e) = dom::download("idempotency-lab-timeline.svg", "image/svg+xml", &svg) {
            lab.notices.notify(format!("The export failed: {e}."));
        }
    };
    let on_file = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            import(lab, file);
        }
        // Choosing the same file again should import it again.
        input.set_value("");
    };
    view! {
        <nav class="toolbar" aria-label="Share and files">
            <button type="button" on:click=move |_| copy(shared, "Link to this run and moment", share_url(&lab.link_state()))>
                "Copy link"
            </button>
            <button type="button" on:click=move |_| copy(shared, "Embed snippet", embed_snippet(&lab.link_state()))>
                "Embed"
            </button>
            <button
                type="button"
                aria-controls=move || lab.compare.open.get().then_some("compare-panel")
                aria-expanded=move || if lab.compare.open.get() { "true" } else { "false" }
                on:click=move |_| lab.toggle_compare()
            >
                "Compare with…"
            </button>
            <button type="button" on:click=move |_| lab.present.set(true)>
                "Present"
            </button>
            <button type="button" on:click=export_json>"Export run (JSON)"</button>
            <button type="button" on:click=export_svg>"Export diagram (SVG)"</button>
            <span class="file-button">
                <input type="file" id="import-file" accept=".json,application/json" on:change=on_file/>
                <label for="import-file">"Import settings"</label>
            </span>
            <button type="button" aria-keyshortcuts="?" on:click=move |_| on_shortcuts.run(())>
                "Keyboard shortcuts"
            </button>
        </nav>
        {move || {
            shared
                .get()
                .map(|s| {
                    view! {
                        <div class="share-box" role="group" aria-labelledby="share-title">
                            <label id="share-title" for="share-text">{s.title}</label>
                            <textarea id="share-text" readonly rows="2" prop:value=s.text.clone()></textarea>
                            <p class="share-status" role="status">{s.status.clone()}</p>
                            <button type="button" class="link" on:click=move |_| shared.set(None)>"Close"</button>
                        </div>
                    }
                })
        }}
    }
}
