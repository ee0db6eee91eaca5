//! The settings form. Each control shows the user's own text; a refused
//! value gets a message beside it and the last valid run stays on screen.

use leptos::prelude::*;

use crate::sim::ack::Settings;
use crate::sim::ack::settings::PARAMS;
use crate::sim::params::Group;
use crate::sim::{ParamDef, Schema};
use crate::view::fields::{self, Control};

use super::state::{FieldState, Lab};

#[component]
pub fn Controls(lab: Lab) -> impl IntoView {
    let group = |group: Group| {
        PARAMS
            .iter()
            .copied()
            .filter(move |p| p.group == group)
            .map(|param| {
                let state = lab.field_state(param);
                let on_edit = Callback::new(move |text: String| lab.edit(param, text));
                view! { <FieldControl param state on_edit/> }
            })
            .collect_view()
    };
    // Open from the start when the run already uses a fault of v2.
    let opening = lab.settings();
    let faults_open = PARAMS.iter().any(|p| p.group == Group::Faults && opening.get(p) != p.default);
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
                    lab.experiment.set(None);
                    lab.apply(Settings::default());
                }
            >
                "Reset to opening settings"
            </button>
        </section>
    }
}

/// One parameter's control with its label, hint and message, for any lab:
/// `on_edit` hears every change as the control's text. `prefix` keeps the
/// ids of a second form for the same parameters (run B's) apart.
#[component]
pub fn FieldControl(
    param: &'static ParamDef,
    state: FieldState,
    on_edit: Callback<String>,
    #[prop(optional)] prefix: &'static str,
) -> impl IntoView {
    let id = format!("{prefix}{}", fields::element_id(param));
    let error_id = format!("{id}-error");
    let hint_id = format!("{id}-hint");
    let error = {
        let error_id = error_id.clone();
        move || {
            state.error.get().map(|message| {
                view! {
                    <p class="field-error" id=error_id.clone()>
                        {message}
                    </p>
                }
            })
        }
    };
    let invalid = move || state.error.with(|e| e.is_some()).then_some("true");
    // Point at the message only while there is one.
    let describe_error = {
        let error_id = error_id.clone();
        move || state.error.with(|e| e.is_some()).then(|| error_id.clone())
    };
    match fields::control(param) {
        Control::Select(options) => view! {
            <div class="field">
                <label for=id.clone()>{param.label}</label>
                <select
                    id=id
                    aria-invalid=invalid
                    aria-describedby=describe_error
                    on:change:target=move |ev| on_edit.run(ev.target().value())
                >
                    {options
                        .iter()
                        .map(|o| {
                            let value = o.value;
                            view! {
                                <option value=value prop:selected=move || state.text.with(|t| t == value)>
                                    {o.label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                {error}
            </div>
        }
        .into_any(),
        Control::Checkbox { on, off } => view! {
            <div class="field check">
                <input
                    type="checkbox"
                    id=id.clone()
                    aria-describedby=describe_error
                    prop:checked=move || state.text.with(|t| t == on)
                    on:change:target=move |ev| {
                        let value = if ev.target().checked() { on } else { off };
                        on_edit.run(value.to_owned())
                    }
                />
                <label for=id>{param.label}</label>
                {error}
            </div>
        }
        .into_any(),
        Control::Seconds | Control::Count => {
            let hint = fields::hint(param);
            let described = {
                let hint_id = hint_id.clone();
                move || match describe_error() {
                    Some(error_id) => format!("{hint_id} {error_id}"),
                    None => hint_id.clone(),
                }
            };
            view! {
                <div class="field">
                    <label for=id.clone()>{param.label}</label>
                    <input
                        type="text"
                        id=id
                        inputmode="decimal"
                        autocomplete="off"
                        spellcheck="false"
                        aria-invalid=invalid
                        aria-describedby=described
                        prop:value=move || state.text.get()
                        on:input:target=move |ev| on_edit.run(ev.target().value())
                    />
                    <span class="hint" id=hint_id>{hint}</span>
                    {error}
                </div>
            }
            .into_any()
        }
    }
}
