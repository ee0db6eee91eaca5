//! The first lab's settings: its parameters in three groups, each with the
//! shared control (`form::FieldControl`), and the reset button.

use leptos::prelude::*;

use crate::sim::Schema;
use crate::sim::ack::Settings;
use crate::sim::ack::settings::PARAMS;
use crate::sim::params::Group;

use super::super::form::FieldControl;
use super::super::replayed::LabPage;
use super::state::Ack;

#[component]
pub fn Controls(ack: Ack) -> impl IntoView {
    let group = |group: Group| {
        PARAMS
            .iter()
            .copied()
            .filter(move |p| p.group == group)
            .map(|param| {
                let state = ack.form.field(param);
                let on_edit = Callback::new(move |text: String| ack.edit(param, text));
                view! { <FieldControl param state on_edit/> }
            })
            .collect_view()
    };
    // Open from the start when the run already uses a fault of v2.
    let opening = ack.settings();
    let faults_open = PARAMS.iter().any(|p| p.group == Group::Faults && opening.get(*p) != p.default);
    view! {
        <section class="panel controls" aria-labelledby="controls-h">
            <h2 id="controls-h">"Settings"</h2>
            <div class="fields">{group(Group::Basics)}</div>
            <details class="advanced">
                <summary>"Advanced"</summary>
                <div class="fields">{group(Group::Advanced)}</div>
            </details>
            <details class="advanced faults" open=faults_open>
                <summary>"Faults and storage"</summary>
                <div class="fields">{group(Group::Faults)}</div>
            </details>
            <button
                type="button"
                class="reset"
                on:click=move |_| {
                    ack.experiment.set(None);
                    ack.apply(Settings::default());
                }
            >
                "Reset to opening settings"
            </button>
        </section>
    }
}
