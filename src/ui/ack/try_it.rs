//! "Try it": the few settings the reader is asked about, beside the
//! diagram (on a phone, right under it), so a change and what it does are
//! on one screen. During an experiment or a lesson's step, the settings it
//! names, each with its control; otherwise the seed's experiment: the
//! opening run and its three one-setting changes (deduplication off,
//! retention zero, a new key per attempt), one choice each.

use leptos::prelude::*;

use crate::sim::ack::Settings;
use crate::sim::{ParamDef, Schema};
use crate::view::ack::experiments::{EXPERIMENTS, THREE_WAYS, TRY_LEGEND, TRY_OPENING};

use super::super::form::FieldControl;
use super::state::Ack;

/// The settings the strip shows controls for: the experiment's, or the
/// lesson step's; none for the seed's experiment.
fn named(ack: Ack) -> Vec<&'static ParamDef> {
    let experiment = ack.experiment.with(|e| e.as_ref().and_then(|e| EXPERIMENTS.get(e.which)).copied());
    if let Some(e) = experiment {
        return e.setup.iter().map(|(param, _)| *param).collect();
    }
    ack.presenter.lesson.with_value(|lesson| {
        let Some(at) = lesson else { return Vec::new() };
        let mut params: Vec<&'static ParamDef> =
            at.current().settings.iter().filter_map(|(name, _)| Settings::by_link(name)).collect();
        params.dedup_by_key(|p| p.name);
        params
    })
}

/// The seed's experiment: which of its runs is on screen (0 the opening
/// run, 1 to 3 its changes), if any.
fn seed_choice(settings: &Settings) -> Option<usize> {
    let opening = Settings::default();
    if *settings == opening {
        return Some(0);
    }
    THREE_WAYS.iter().position(|(_, setup)| Settings::from_pairs(setup).is_ok_and(|s| s == *settings)).map(|i| i + 1)
}

/// One choice of the seed's experiment: the opening settings with `setup`.
fn seed_option(
    ack: Ack,
    i: usize,
    title: &'static str,
    setup: &'static [(&'static ParamDef, &'static str)],
) -> impl IntoView {
    let id = format!("try-{i}");
    let chosen = Memo::new(move |_| ack.run.with(|r| seed_choice(r.settings())) == Some(i));
    view! {
        <span class="choice">
            <input
                type="radio"
                id=id.clone()
                name="try-seed"
                prop:checked=move || chosen.get()
                on:change=move |_| {
                    if let Ok(settings) = Settings::from_pairs(setup) {
                        ack.experiment.set(None);
                        ack.apply(settings);
                    }
                }
            />
            <label for=id>{title}</label>
        </span>
    }
}

#[component]
pub fn TryIt(ack: Ack) -> impl IntoView {
    let params = Memo::new(move |_| named(ack));
    let controls = move || {
        params
            .get()
            .into_iter()
            .map(|param| {
                let state = ack.form.field(param);
                let on_edit = Callback::new(move |text: String| ack.edit(param, text));
                view! { <FieldControl param state on_edit prefix="try-"/> }
            })
            .collect_view()
    };
    let seed = move || {
        params.with(Vec::is_empty).then(|| {
            let changes =
                THREE_WAYS.iter().enumerate().map(|(i, (title, setup))| seed_option(ack, i + 1, title, setup));
            view! {
                <fieldset class="try-seed">
                    <legend>{TRY_LEGEND}</legend>
                    {seed_option(ack, 0, TRY_OPENING, &[])}
                    {changes.collect_view()}
                </fieldset>
            }
        })
    };
    view! {
        <section class="panel try-it" aria-labelledby="try-it-h">
            <h2 id="try-it-h">"Try it"</h2>
            {seed}
            <div class="fields">{controls}</div>
        </section>
    }
}
