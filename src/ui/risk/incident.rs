//! "What happened": the incident report's six log lines, each lit up as
//! the playhead passes the run's matching event, with the run's own clock
//! and words beside the report's.

use leptos::prelude::*;

use crate::sim::risk::Preset;
use crate::sim::risk::settings::PRESET;
use crate::view::risk::html::incident_items;
use crate::view::risk::incident::incident_lines;

use super::super::markup::chosen_moment;
use super::super::playback::Replay;
use super::state::Risk;

#[component]
pub fn Incident(risk: Risk) -> impl IntoView {
    let lines = Memo::new(move |_| risk.run.with(|r| incident_lines(r)));
    let is_incident = move || risk.run.with(|r| r.settings().preset == Preset::Incident);
    let items = move || {
        let t = risk.player.playhead.get();
        lines.with(|l| incident_items(l, t))
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(t) = chosen_moment(&ev) {
            risk.seek(t, true);
        }
    };
    view! {
        <section class="panel incident" aria-labelledby="incident-h">
            <h2 id="incident-h">"What happened"</h2>
            <div hidden=move || !is_incident()>
                <p class="hint">
                    "The incident report's log beside this run's events. A line lights up when the playhead reaches it; choose one to move the playhead there."
                </p>
                <ol class="incident-log" on:click=on_click inner_html=items></ol>
            </div>
            <div hidden=is_incident>
                <p class="hint">"The report's log belongs to the incident preset."</p>
                <button
                    type="button"
                    on:click=move |_| {
                        risk.question.set(None);
                        risk.edit(&PRESET, Preset::Incident.value().to_owned());
                    }
                >
                    "Open the incident"
                </button>
            </div>
        </section>
    }
}
