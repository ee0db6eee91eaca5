//! Presets with a question each: choose one, predict, then see the run's
//! answer explained with its own figures. The panel's markup comes from
//! `view::risk::html`; one listener reads which button was chosen.

use leptos::prelude::*;

use crate::sim::risk::Preset;
use crate::view::risk::html::{preset_buttons, question_card};
use crate::view::risk::questions::{answer, explain, question, verdict};

use super::super::dom;
use super::super::markup::chosen;
use super::state::Risk;

/// The preset's title, as the Preset select words it.
fn title(preset: Preset) -> &'static str {
    preset.label()
}

/// Moves focus to the question's heading once it is drawn, so the question
/// (and later the answer) is where the reader is.
fn focus_card() {
    request_animation_frame(|| dom::focus_by_id("question-title"));
}

/// The presets' list, with the one whose question is in progress marked.
fn list(active: Option<usize>) -> String {
    let titles: Vec<&str> = Preset::ALL.iter().map(|p| title(*p)).collect();
    preset_buttons(&titles, active)
}

/// The preset a click on the list chose.
fn chosen_preset(ev: &leptos::ev::MouseEvent) -> Option<Preset> {
    chosen(ev, "data-preset").and_then(|i| i.parse::<usize>().ok()).and_then(|i| Preset::ALL.get(i).copied())
}

/// The panel around the presets' list: `card` is the question in
/// progress, if any, and `on_click` reads the panel's buttons.
fn panel(
    card: impl IntoView + 'static,
    list: impl Fn() -> String + Send + Sync + 'static,
    on_click: impl FnMut(leptos::ev::MouseEvent) + 'static,
) -> impl IntoView {
    view! {
        <section class="panel experiments" aria-labelledby="questions-h" on:click=on_click>
            <h2 id="questions-h">"Presets: predict, then see"</h2>
            <p class="hint">
                "Each opens its preset in the current mode and asks for your prediction before revealing the run. Try each one in both modes."
            </p>
            {card}
            <ul class="experiment-list" inner_html=list></ul>
        </section>
    }
}

/// The questions' panel: the presets, and the question in progress with
/// its answer once the reader has predicted.
pub fn questions(risk: Risk) -> impl IntoView {
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
    let active = move || list(risk.question.with(|q| q.as_ref().map(|q| q.which as usize)));
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(preset) = chosen_preset(&ev) {
            risk.start_question(preset);
            focus_card();
        } else if let Some(choice) = chosen(&ev, "data-choice") {
            risk.predict(choice);
            focus_card();
        } else if chosen(&ev, "data-close").is_some() {
            risk.question.set(None);
        }
    };
    panel(view! { <div inner_html=card></div> }, active, on_click)
}
