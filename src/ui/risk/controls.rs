//! The risk page's settings: the preset, the mode (all patterns on or all
//! off), one switch per pattern with what it buys, and the rest of the
//! parameters under "Advanced" and "Faults".

use leptos::prelude::*;

use crate::sim::ParamDef;
use crate::sim::params::Group;
use crate::sim::params::Schema;
use crate::sim::risk::settings::{MODE, PARAMS, PRESET};
use crate::sim::risk::{Mode, Pattern, Settings};
use crate::view::fields;
use crate::view::risk::patterns::{design_says, note};

use super::super::form::FieldControl;
use super::super::replayed::LabPage;
use super::state::Risk;

fn is_switch(param: &ParamDef) -> bool {
    Pattern::ALL.iter().any(|p| p.param().name == param.name)
}

fn field(risk: Risk, param: &'static ParamDef) -> impl IntoView {
    let state = risk.form.field(param);
    let on_edit = Callback::new(move |text: String| {
        risk.question.set(None);
        risk.edit(param, text);
    });
    view! { <FieldControl param state on_edit/> }
}

/// What the switch's line says: what the pattern buys and the check it
/// protects, or what the wrong design chosen on its select does.
fn about_text(risk: Risk, pattern: Pattern) -> String {
    let raw = risk.run.with(|r| r.settings().get(pattern.param()));
    design_says(pattern, raw).unwrap_or_else(|| note(pattern))
}

/// The control of a switch: a checkbox, or for a switch that also offers
/// the report's wrong designs, a select of them all.
fn switch_control(risk: Risk, pattern: Pattern, id: String, about: String) -> AnyView {
    let param = pattern.param();
    if pattern.has_designs() {
        return field(risk, param).into_any();
    }
    let on = move || risk.run.with(|r| r.settings().switches.get(pattern));
    view! {
        <input
            type="checkbox"
            id=id.clone()
            aria-describedby=about
            prop:checked=on
            on:change:target=move |ev| {
                risk.question.set(None);
                risk.set_switch(pattern, ev.target().checked());
            }
        />
        <label for=id>{param.label}</label>
    }
    .into_any()
}

/// One pattern's switch, named after it, with what it buys and the check it
/// protects.
fn switch(risk: Risk, pattern: Pattern) -> impl IntoView {
    let param = pattern.param();
    let id = fields::element_id(param);
    let about = format!("{id}-about");
    let class = if pattern.has_designs() { "field switch designs" } else { "field check switch" };
    view! {
        <div class=class>
            {switch_control(risk, pattern, id, about.clone())}
            <p class="switch-about" id=about>
                {move || about_text(risk, pattern)}
            </p>
            <button
                type="button"
                class="link show-me"
                aria-label=format!("Show me: {}", param.label)
                on:click=move |_| risk.show_me(pattern)
            >
                "Show me"
            </button>
            <button
                type="button"
                class="link turn-off"
                aria-label=format!("Turn it off: {}", param.label)
                on:click=move |_| risk.turn_off(pattern)
            >
                "Turn it off"
            </button>
            {move || {
                risk.shown_me
                    .get()
                    .filter(|(p, _)| *p == pattern)
                    .map(|(_, words)| view! { <p class="shown-me" role="status">{words}</p> })
            }}
        </div>
    }
}

#[component]
pub fn RiskControls(risk: Risk) -> impl IntoView {
    let group = move |group: Group| {
        PARAMS
            .iter()
            .copied()
            .filter(move |p| p.group == group && p.name != PRESET.name && p.name != MODE.name && !is_switch(p))
            .map(move |p| field(risk, p))
            .collect_view()
    };
    let mode = move || risk.run.with(|r| r.settings().mode);
    let opening = risk.settings().mode;
    let mixed = move || {
        risk.run.with(|r| {
            let s = r.settings();
            let all = Pattern::ALL.iter().filter(|p| s.switches.get(**p)).count();
            match (s.mode, all) {
                (Mode::Patterns, n) if n == Pattern::ALL.len() => String::new(),
                (Mode::Naive, 0) => String::new(),
                _ => format!("{all} of {} patterns on: some switches differ from the mode.", Pattern::ALL.len()),
            }
        })
    };
    view! {
        <section class="panel controls" aria-labelledby="risk-controls-h">
            <h2 id="risk-controls-h">"Settings"</h2>
            <div class="fields">
                {field(risk, &PRESET)}
                <div class="field">
                    <label for="risk-mode">"Mode"</label>
                    <select
                        id="risk-mode"
                        aria-describedby="risk-mode-hint"
                        prop:value=move || mode().value()
                        on:change:target=move |ev| {
                            risk.question.set(None);
                            risk.set_mode(if ev.target().value() == "naive" { Mode::Naive } else { Mode::Patterns });
                        }
                    >
                        // `prop:value` is set before the options exist, so the first
                        // choice is also marked in the markup.
                        <option value="patterns" selected=opening == Mode::Patterns>
                            "Patterns"
                        </option>
                        <option value="naive" selected=opening == Mode::Naive>
                            "Naive"
                        </option>
                    </select>
                    <span class="hint" id="risk-mode-hint">
                        {crate::view::risk::patterns::MODE_HINT}
                    </span>
                </div>
            </div>
            <fieldset class="patterns">
                <legend>"Patterns"</legend>
                <div class="all-buttons">
                    <button type="button" on:click=move |_| risk.set_mode(Mode::Patterns)>
                        "All on"
                    </button>
                    <button type="button" on:click=move |_| risk.set_mode(Mode::Naive)>
                        "All off"
                    </button>
                </div>
                <p class="hint">{mixed}</p>
                <div class="fields">
                    {Pattern::ALL.into_iter().map(|p| switch(risk, p)).collect_view()}
                    {group(Group::Basics)}
                </div>
            </fieldset>
            <details class="advanced faults">
                <summary>"Faults and the burst"</summary>
                <div class="fields">{group(Group::Faults)}</div>
            </details>
            <details class="advanced">
                <summary>"Advanced: timings and sizes"</summary>
                <div class="fields">{group(Group::Advanced)}</div>
            </details>
            <button
                type="button"
                class="reset"
                on:click=move |_| {
                    risk.question.set(None);
                    risk.apply(Settings::default());
                }
            >
                "Reset to the opening settings"
            </button>
        </section>
    }
}
