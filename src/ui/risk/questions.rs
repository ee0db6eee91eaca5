//! Presets with a question each: choose one, predict, then see the run's
//! answer explained with its own figures. The panel's markup comes from
//! `view::risk::html`; one listener reads which button was chosen.

use leptos::prelude::*;

use crate::sim::params::Kind;
use crate::sim::risk::Preset;
use crate::sim::risk::settings::PRESET;
use crate::view::risk::html::{preset_buttons, question_card};
use crate::view::risk::questions::{answer, explain, question, verdict};

use super::super::dom;
use super::super::markup::chosen;
use super::state::Risk;

/// The preset's title, as the Preset select words it.
fn title(preset: Preset) -> &'static str {
    match PRESET.kind {
        Kind::Choice(options) => options[preset as usize].label,
        _ => preset.value(),
    }
}

/// Moves focus to the question's heading once it is drawn, so the question
/// (and later the answer) is where the reader is.
fn focus_card() {
    request_animation_frame(|| dom::focus_by_id("question-title"));
}

#[component]
pub fn Questions(risk: Risk) -> impl IntoView {
    let card = move || {
        risk.question.get().map_or_else(String::new, |state| {
            let q = question(state.which);
            match state.prediction {
                None => question_card(title(state.which), &q, None),
                Some(prediction) => {
                    let (right, why) = risk.run.with(|run| (answer(run), explain(run)));
                    question_card(title(state.which), &q, Some((&verdict(&prediction, &right), &why)))
                }
            }
        })
    };
    let list = move || {
        let active = risk.question.with(|q| q.as_ref().map(|q| q.which as usize));
        let titles: Vec<&str> = Preset::ALL.iter().map(|p| title(*p)).collect();
        preset_buttons(&titles, active)
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(i) = chosen(&ev, "data-preset").and_then(|i| i.parse::<usize>().ok()) {
            if let Some(preset) = Preset::ALL.get(i) {
                risk.start_question(*preset);
                focus_card();
            }
        } else if let Some(choice) = chosen(&ev, "data-choice") {
            risk.predict(choice);
            focus_card();
        } else if chosen(&ev, "data-close").is_some() {
            risk.question.set(None);
        }
    };
    view! {
        <section class="panel experiments" aria-labelledby="questions-h" on:click=on_click>
            <h2 id="questions-h">"Presets: predict, then see"</h2>
            <p class="hint">
                "Each opens its preset in the current mode and asks for your prediction before revealing the run. Try each one in both modes."
            </p>
            <div inner_html=card></div>
            <ul class="experiment-list" inner_html=list></ul>
        </section>
    }
}
