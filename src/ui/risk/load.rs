//! Load on the replicas at the playhead: calls in flight and queued
//! against each replica's gates, and, for the burst, Little's law over the
//! run.

use leptos::prelude::*;

use crate::sim::risk::Preset;
use crate::view::risk::html::{gates_html, little_html};
use crate::view::risk::load::littles_law;

use super::state::Risk;

#[component]
pub fn Load(risk: Risk) -> impl IntoView {
    let law = move || {
        risk.run
            .with(|r| {
                (r.settings().preset == Preset::Overload).then(|| littles_law(r)).flatten().map(|l| little_html(&l))
            })
            .unwrap_or_default()
    };
    let gates = move || risk.snapshot.with(|s| gates_html(s));
    view! {
        <section class="panel load" aria-labelledby="load-h">
            <h2 id="load-h">"Gates and queues"</h2>
            <div class="gates" inner_html=gates></div>
            <div inner_html=law></div>
        </section>
    }
}
