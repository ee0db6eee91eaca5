//! "Open a trace": an OpenTelemetry trace file chosen or dropped on the
//! page is read in the browser (nothing leaves it) and shown above the
//! lab: its checks, where it broke, the lab's diagram with a lane per
//! service, the spans as text, and the rules, which can be changed. A file
//! that cannot be read gets a notice, and the lab on screen stays.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::sim::Millis;
use crate::sim::trace::checks::{checks, where_it_broke};
use crate::sim::trace::read::{Limits, MAX_BYTES, Reading};
use crate::sim::trace::rules::{RULES, Rules};
use crate::sim::trace::{Findings, read};
use crate::view::timeline::{Frame, Orientation};
use crate::view::traces;

use super::chrome::lane_titles;
use super::dom;
use super::notices::Notices;

/// A trace that was read, and the rules it is judged by.
#[derive(Clone)]
pub struct Opened {
    pub name: String,
    pub reading: Arc<Reading>,
}

/// The trace on the page, shared by the toolbar (which opens it) and the
/// panel (which shows it), through the lab's context.
#[derive(Clone, Copy)]
pub struct TraceDesk {
    pub opened: RwSignal<Option<Opened>>,
    pub rules: RwSignal<Rules>,
    pub sequence: RwSignal<bool>,
}

impl TraceDesk {
    /// A desk for the lab being mounted.
    pub fn provide() -> TraceDesk {
        let desk = TraceDesk {
            opened: RwSignal::new(None),
            rules: RwSignal::new(Rules::default()),
            sequence: RwSignal::new(dom::viewport_width() <= 600.0),
        };
        provide_context(desk);
        desk
    }

    pub fn current() -> Option<TraceDesk> {
        use_context::<TraceDesk>()
    }
}

/// Reads `file` as a trace; a refusal is a notice and changes nothing.
pub fn open(desk: TraceDesk, notices: Notices, file: web_sys::File) {
    let name = crate::sim::params::shorten(&file.name());
    if file.size() > MAX_BYTES as f64 {
        notices.notify(format!(
            "{name}: the file is {} bytes; allowed: a trace of at most {MAX_BYTES} bytes. The lab on screen stays.",
            file.size() as u64
        ));
        return;
    }
    leptos::task::spawn_local(async move {
        let Some(text) = JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string()) else {
            notices.notify(format!("{name}: the file could not be read as text. The lab on screen stays."));
            return;
        };
        match read(&text, Limits::default()) {
            Ok(reading) => desk.opened.set(Some(Opened { name, reading: Arc::new(reading) })),
            Err(e) => notices.notify(format!("{name}: {e}. The lab on screen stays.")),
        }
    });
}

/// The file input of the toolbar.
pub fn open_button(notices: Notices) -> impl IntoView {
    let on_file = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let (Some(desk), Some(file)) = (TraceDesk::current(), input.files().and_then(|f| f.get(0))) {
            open(desk, notices, file);
        }
        input.set_value("");
    };
    view! {
        <span class="file-button">
            <input type="file" id="trace-file" accept=".json,.jsonl,application/json" on:change=on_file/>
            <label for="trace-file">"Open a trace"</label>
        </span>
    }
}

/// Opens a file dropped anywhere on the lab as a trace.
pub fn on_drop(notices: Notices) -> impl Fn(web_sys::DragEvent) + Copy {
    move |ev: web_sys::DragEvent| {
        let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) else {
            return;
        };
        ev.prevent_default();
        if let Some(desk) = TraceDesk::current() {
            open(desk, notices, file);
        }
    }
}

/// Lets the page take a dropped file instead of the browser opening it.
pub fn on_drag_over(ev: web_sys::DragEvent) {
    ev.prevent_default();
}

/// The panel, while a trace is open.
#[component]
pub fn TracePanel() -> impl IntoView {
    let desk = TraceDesk::current();
    move || {
        let desk = desk?;
        let opened = desk.opened.get()?;
        Some(panel(desk, opened))
    }
}

fn panel(desk: TraceDesk, opened: Opened) -> impl IntoView {
    let reading = opened.reading.clone();
    let findings = Memo::new(move |_| Arc::new(Findings::of((*reading).clone(), &desk.rules.get())));
    let verdicts = move || {
        findings.with(|f| {
            checks(f)
                .into_iter()
                .map(|v| {
                    let figures: Vec<String> = v.figures.iter().map(|(k, n)| format!("{k} {n}")).collect();
                    let class = match v.holds {
                        Some(true) => "check holds",
                        Some(false) => "check fails",
                        None => "check na",
                    };
                    view! {
                        <li class=class>
                            <strong>{traces::title(v.name)}</strong>
                            ": "
                            {traces::verdict_word(v.holds)}
                            " ("
                            {figures.join(", ")}
                            ")"
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let broke = move || {
        findings.with(|f| match where_it_broke(f) {
            Some(b) => traces::break_words(f, &b),
            None => traces::nothing_broke(f),
        })
    };
    let drawn = Memo::new(move |_| {
        let frame = if desk.sequence.get() {
            Frame::Down(dom::viewport_width().min(720.0) - 40.0)
        } else {
            Frame::Across(None)
        };
        findings.with(|f| Arc::new(traces::diagram(f, frame)))
    });
    let svg = move || drawn.with(|d| d.page_svg("-trace", "The trace, a lane per service", Millis(u64::MAX / 2)));
    // Each lane's service named as in the labs' own diagrams: beside the
    // timeline, or above the sequence diagram's columns.
    let titles = move |orientation: Orientation| {
        move || drawn.with(|d| (d.orientation == orientation).then(|| lane_titles(d, 1.0)))
    };
    let summary = move || {
        findings.with(|f| {
            format!(
                "{} spans from {} services; {} intents, {} attempts, {} effects.{}",
                f.trace.spans.len(),
                f.trace.services.len(),
                f.intents.len(),
                f.attempts.len(),
                f.effects.len(),
                f.warnings.iter().map(|w| format!(" Warning: {w}.")).collect::<String>()
            )
        })
    };
    let mirror = move || findings.with(|f| traces::mirror(f));
    view! {
        <section class="panel trace-panel" aria-labelledby="trace-title">
            <h2 id="trace-title">"Trace: " {opened.name.clone()}</h2>
            <p>{summary}</p>
            <button type="button" on:click=move |_| desk.opened.set(None)>"Close the trace"</button>
            <h3>"Checks"</h3>
            <ul class="trace-checks" aria-label="Checks of the trace">{verdicts}</ul>
            <h3>"Where it broke"</h3>
            <p class="trace-broke" role="region" aria-label="Where the trace broke">{broke}</p>
            <label class="trace-layout">
                <input type="checkbox" prop:checked=move || desk.sequence.get() on:change=move |_| desk.sequence.update(|s| *s = !*s)/>
                " Sequence diagram"
            </label>
            <div class="timeline-frame trace-diagram" class:sequence=move || desk.sequence.get()>
                <div class="timeline-scroll" tabindex="0" role="group" aria-label="The trace's diagram">
                    {titles(Orientation::Down)}
                    <div inner_html=svg></div>
                </div>
                {titles(Orientation::Across)}
            </div>
            <details>
                <summary>"Spans as text"</summary>
                <pre class="trace-mirror">{mirror}</pre>
            </details>
            {rules_form(desk)}
        </section>
    }
}

/// The rules, each a field: a change judges the trace again.
fn rules_form(desk: TraceDesk) -> impl IntoView {
    let fields = RULES
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let id = format!("trace-rule-{i}");
            let value = move || (rule.get)(&desk.rules.get()).to_owned();
            let on_change = move |ev: web_sys::Event| {
                let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
                    return;
                };
                let mut rules = desk.rules.get_untracked();
                if rule.apply(&mut rules, &input.value()).is_ok() {
                    desk.rules.set(rules);
                } else {
                    input.set_value((rule.get)(&desk.rules.get_untracked()));
                }
            };
            view! {
                <label for=id.clone()>{rule.label}</label>
                <input type="text" id=id prop:value=value on:change=on_change/>
            }
        })
        .collect_view();
    view! {
        <details class="trace-rules">
            <summary>"Rules that map spans to intents and effects"</summary>
            <div class="fields">{fields}</div>
        </details>
    }
}
