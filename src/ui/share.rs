//! Sharing and files, the same on every lab's page: copy a link to this
//! run and moment or an iframe snippet (shown for copying by hand as well),
//! export the run (JSON) and the diagram (SVG), import a settings file. A
//! lab plugs in through [`Share`]: its link, what it exports, and what an
//! imported file's settings do.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::sim::Schema;
use crate::sim::params_file::{Imported, MAX_FILE_BYTES, file_text, parse_import};
use crate::view::url::{LinkState, to_query};

use super::dom;
use super::notices::Notices;

/// The address of the page showing `state`.
pub fn share_url(state: &LinkState) -> String {
    share_url_at(&dom::location_base(), state)
}

/// The address of the page at `base` showing `state`.
pub fn share_url_at(base: &str, state: &LinkState) -> String {
    let query = to_query(state);
    if query.is_empty() { base.to_owned() } else { format!("{base}?{query}") }
}

/// An iframe showing `state` in its compact embed.
pub fn embed_snippet(state: &LinkState, title: &str, height: u32) -> String {
    let mut embedded = state.clone();
    embedded.page.embed = true;
    format!(
        "<iframe src=\"{}\" title=\"{title}\" width=\"100%\" height=\"{height}\" loading=\"lazy\"></iframe>",
        crate::view::timeline::escape(&share_url(&embedded))
    )
}

/// What a lab's page shares and exports, and what it imports.
pub trait Share: Copy + Send + Sync + 'static {
    /// The settings a file holds.
    type Settings: Schema;
    /// Exported files are called `{FILES}-run.json` and `{FILES}-timeline.svg`.
    const FILES: &'static str;
    /// The embed snippet's title and height (pixels).
    const EMBED: (&'static str, u32);

    fn notices(&self) -> Notices;
    /// The link to the run and moment on screen.
    fn link(&self) -> LinkState;
    /// The run as JSON.
    fn run_json(&self) -> String;
    /// The diagram as an SVG file, the playhead where it is.
    fn diagram_svg(&self) -> String;
    /// The run as an OpenTelemetry trace (OTLP/JSON).
    fn trace_otlp(&self) -> String;
    /// Shows imported settings (and run B beside them, from an exported
    /// comparison, where the lab compares); false if they could not be run
    /// (a notice says why).
    fn import(&self, file: Imported<Self::Settings>) -> bool;
}

/// Offers a file for download; a failure becomes a notice.
pub fn export(notices: Notices, name: &str, mime: &str, contents: &str) {
    if let Err(e) = dom::download(name, mime, contents) {
        notices.notify(format!("The export failed: {e}."));
    }
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

/// Reads a settings file and hands its settings to the lab, or a lesson
/// file and opens its first step; anything refused on the way (too large,
/// not text, neither settings nor a lesson) is a notice and changes
/// nothing.
fn import<L: Share>(lab: L, file: web_sys::File, host: super::element::Host) {
    let notices = lab.notices();
    let name = crate::sim::params::shorten(&file.name());
    if file.size() > MAX_FILE_BYTES as f64 {
        notices.notify(format!(
            "{name}: the file is {} bytes; allowed: a JSON settings file or a lesson of at most {MAX_FILE_BYTES} bytes. Nothing changed.",
            // Whole bytes: formatting a float would pull in the float printer.
            file.size() as u64
        ));
        return;
    }
    leptos::task::spawn_local(async move {
        // The bytes, read by the command line's rule for text (UTF-8, a
        // byte-order mark ignored), not the browser's own decoding.
        let Some(bytes) = JsFuture::from(file.array_buffer()).await.ok().map(|b| js_sys::Uint8Array::new(&b).to_vec())
        else {
            notices.notify(format!("{name}: the file could not be read. Nothing changed."));
            return;
        };
        let text = match file_text(&bytes) {
            Ok(text) => text,
            Err(e) => {
                notices.notify(format!("{name}: {e}. Nothing changed."));
                return;
            }
        };
        if crate::view::lesson::is_lesson_file(&name, text) {
            match crate::view::lesson::parse(text) {
                Ok(lesson) => {
                    let at = crate::view::lesson::LessonAt { lesson, step: 0 };
                    super::lesson::open_step(&at, &lab.link().page, host);
                }
                Err(e) => notices.notify(format!("{name}: {e}. Nothing changed.")),
            }
            return;
        }
        match parse_import::<L::Settings>(text) {
            Ok(file) => {
                if lab.import(file) {
                    notices.notify(format!("Imported settings from {name}."));
                }
            }
            Err(e) => notices.notify(format!("{name}: {e}. Nothing changed.")),
        }
    });
}

/// The toolbar: copy a link or the embed snippet, the lab's own buttons
/// (`extra`), export, import, and the shortcuts; below it, the share box
/// while something is offered for copying.
pub fn toolbar<L: Share>(lab: L, on_shortcuts: Callback<()>, extra: impl IntoView) -> impl IntoView {
    let shared = RwSignal::new(None::<Shared>);
    let host = super::element::Host::current();
    let export_json =
        move |_| export(lab.notices(), &format!("{}-run.json", L::FILES), "application/json", &lab.run_json());
    let export_svg =
        move |_| export(lab.notices(), &format!("{}-timeline.svg", L::FILES), "image/svg+xml", &lab.diagram_svg());
    let export_trace =
        move |_| export(lab.notices(), &format!("{}-trace.json", L::FILES), "application/json", &lab.trace_otlp());
    let on_file = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            import(lab, file, host);
        }
        // Choosing the same file again should import it again.
        input.set_value("");
    };
    let (title, height) = L::EMBED;
    // On a phone the buttons fold behind one that shows them (styles hide
    // it on wider screens, where they are always shown).
    let open = RwSignal::new(false);
    let toggle = NodeRef::<leptos::html::Button>::new();
    // Escape closes the menu and gives the focus back to its button; a
    // button chosen in it closes it too (its result shows below).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" && open.get_untracked() {
            open.set(false);
            if let Some(button) = toggle.get_untracked() {
                let _ = button.focus();
            }
        }
    };
    let on_chosen = move |ev: web_sys::MouseEvent| {
        let chosen = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlButtonElement>().ok()).is_some();
        if chosen {
            open.set(false);
        }
    };
    view! {
        <nav class="toolbar" aria-label="Share and files" on:keydown=on_key>
            <button
                type="button"
                class="toolbar-toggle"
                node_ref=toggle
                aria-expanded=move || if open.get() { "true" } else { "false" }
                aria-controls="toolbar-items"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                "Share and files"
            </button>
            <div class="toolbar-items" id="toolbar-items" class:open=open on:click=on_chosen>
            <button type="button" on:click=move |_| copy(shared, "Link to this run and moment", share_url(&lab.link()))>
                "Copy link"
            </button>
            <button type="button" on:click=move |_| copy(shared, "Embed snippet", embed_snippet(&lab.link(), title, height))>
                "Embed"
            </button>
            {extra}
            <button type="button" on:click=export_json>"Export run (JSON)"</button>
            <button type="button" on:click=export_svg>"Export diagram (SVG)"</button>
            <button type="button" on:click=export_trace>"Export trace (OTLP)"</button>
            <span class="file-button">
                <input
                    type="file"
                    id="import-file"
                    accept=".json,.lesson,.txt,application/json,text/plain"
                    on:change=on_file
                />
                <label for="import-file">"Import settings or a lesson"</label>
            </span>
            {super::trace::open_button(lab.notices())}
            <button type="button" aria-keyshortcuts="?" on:click=move |_| on_shortcuts.run(())>
                "Keyboard shortcuts"
            </button>
            </div>
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
