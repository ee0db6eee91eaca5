//! The risk page's text regions: the figures at the playhead, recent
//! events and the state as text. Each is the core's own words.

use leptos::prelude::*;

use crate::view::risk::html::{Figures, event_items, figures_html};
use crate::view::risk::text_mirror;

use super::super::markup::chosen_moment;
use super::super::playback::Replay;
use super::state::Risk;

/// Recent events list at most this many, newest first: a burst has
/// thousands, and a long list helps nobody.
const RECENT: usize = 120;

#[component]
pub fn RiskEvents(risk: Risk) -> impl IntoView {
    let visible = Memo::new(move |_| {
        let t = risk.playhead.get();
        risk.run.with(|r| r.records_until(t).len())
    });
    let items = move || {
        let count = visible.get();
        risk.run.with(|r| event_items(r.records(), count, RECENT))
    };
    let more = move || {
        let count = visible.get();
        (count > RECENT).then(|| format!("The newest {RECENT} of {count} events so far."))
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(t) = chosen_moment(&ev) {
            risk.seek(t, true);
        }
    };
    view! {
        <section class="panel events" aria-labelledby="events-h">
            <h2 id="events-h">"Recent events"</h2>
            <p class="hint">"Newest first, up to the playhead. Choose one to move the playhead there. "{more}</p>
            <ol class="event-list" on:click=on_click inner_html=items></ol>
        </section>
    }
}

#[component]
pub fn RiskMirror(risk: Risk) -> impl IntoView {
    let text = Memo::new(move |_| {
        let t = risk.playhead.get();
        risk.run.with(|r| text_mirror(r, t))
    });
    view! {
        <section class="panel mirror" aria-labelledby="mirror-h">
            <h2 id="mirror-h">"State as text"</h2>
            <pre class="mirror-text">{text}</pre>
        </section>
    }
}

/// The figures a reader looks at first, at the playhead.
#[component]
pub fn RiskFigures(risk: Risk) -> impl IntoView {
    let markup = move || {
        let t = risk.playhead.get();
        let hidden = risk.answer_hidden();
        let figures = risk.run.with(|r| risk.snapshot.with(|s| Figures::at(s, r.records_until(t))));
        figures_html(&figures, hidden)
    };
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">"At the playhead"</h2>
            <div inner_html=markup></div>
        </section>
    }
}
