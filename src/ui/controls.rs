//! The settings form. Each control shows the user's own text; a refused
//! value gets a message beside it and the last valid run stays on screen.

use leptos::prelude::*;

use crate::sim::Settings;
use crate::view::fields::{Control, FIELDS, Field};

use super::state::Lab;

#[component]
pub fn Controls(lab: Lab) -> impl IntoView {
    let basic = FIELDS.iter().filter(|f| !f.advanced).map(|field| view! { <FieldControl lab field/> }).collect_view();
    let advanced = FIELDS.iter().filter(|f| f.advanced).map(|field| view! { <FieldControl lab field/> }).collect_view();
    view! {
        <section class="panel controls" aria-labelledby="controls-h">
            <h2 id="controls-h">"Settings"</h2>
            <div class="fields">{basic}</div>
            <details class="advanced">
                <summary>"Advanced"</summary>
                <div class="fields">{advanced}</div>
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

#[component]
fn FieldControl(lab: Lab, field: &'static Field) -> impl IntoView {
    let state = lab.field_state(field);
    let id = field.id;
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
    match field.control {
        Control::Select(options) => view! {
            <div class="field">
                <label for=id>{field.label}</label>
                <select
                    id=id
                    aria-invalid=invalid
                    aria-describedby=describe_error
                    on:change:target=move |ev| lab.edit(field, ev.target().value())
                >
                    {options
                        .iter()
                        .map(|(value, label)| {
                            view! {
                                <option value=*value prop:selected=move || state.text.with(|t| t == value)>
                                    {*label}
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
                    id=id
                    aria-describedby=describe_error
                    prop:checked=move || state.text.with(|t| t == on)
                    on:change:target=move |ev| {
                        let value = if ev.target().checked() { on } else { off };
                        lab.edit(field, value.to_owned())
                    }
                />
                <label for=id>{field.label}</label>
                {error}
            </div>
        }
        .into_any(),
        Control::Seconds | Control::Count => {
            let unit = if field.control == Control::Seconds { "seconds" } else { "attempts" };
            let hint = format!("{unit}; {}", field.allowed());
            let described = {
                let hint_id = hint_id.clone();
                move || match describe_error() {
                    Some(error_id) => format!("{hint_id} {error_id}"),
                    None => hint_id.clone(),
                }
            };
            view! {
                <div class="field">
                    <label for=id>{field.label}</label>
                    <input
                        type="text"
                        id=id
                        inputmode="decimal"
                        autocomplete="off"
                        spellcheck="false"
                        aria-invalid=invalid
                        aria-describedby=described
                        prop:value=move || state.text.get()
                        on:input:target=move |ev| lab.edit(field, ev.target().value())
                    />
                    <span class="hint" id=hint_id>{hint}</span>
                    {error}
                </div>
            }
            .into_any()
        }
    }
}
