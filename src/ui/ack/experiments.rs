//! Guided experiments: apply, predict, then see the answer explained with
//! the run's own figures.

use leptos::prelude::*;

use crate::view::ack::experiments::{EXPERIMENTS, verdict};

use super::super::element::Host;
use super::super::predict::Prediction;
use super::state::Ack;

/// Brings the experiment's card (at the top of the stage, above the
/// diagram it asks about) to the top of the window once it is rendered,
/// its heading focused: the question, and later the answer, are where the
/// reader is, on screen and for assistive technology.
fn focus_card(host: Host) {
    host.bring_into_view("experiment-title");
}

fn card(ack: Ack, host: Host, state: Prediction<usize>) -> impl IntoView {
    let Some(e) = EXPERIMENTS.get(state.which) else {
        return ().into_any();
    };
    match state.prediction {
        None => view! {
            <div class="experiment-card" role="group" aria-labelledby="experiment-title">
                <h3 id="experiment-title" tabindex="-1">{e.title}</h3>
                <p class="question" id="experiment-question">"Predict: "{e.question.text()}</p>
                <div class="choices" role="group" aria-labelledby="experiment-question">
                    {e
                        .question
                        .choices()
                        .iter()
                        .map(|choice| {
                            view! {
                                <button
                                    type="button"
                                    on:click=move |_| {
                                        ack.predict((*choice).to_owned());
                                        focus_card(host);
                                    }
                                >
                                    {*choice}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <button
                    type="button"
                    class="link"
                    on:click=move |_| {
                        ack.predict(String::new());
                        focus_card(host);
                    }
                >
                    "Just show me"
                </button>
            </div>
        }
        .into_any(),
        Some(prediction) => {
            let (answer, explanation) = ack.run.with(|run| (e.question.answer(run), e.explain(run)));
            let headline =
                if prediction.is_empty() { format!("Answer: {answer}.") } else { verdict(&prediction, &answer) };
            view! {
                <div class="experiment-card" role="group" aria-labelledby="experiment-title">
                    <h3 id="experiment-title" tabindex="-1">{e.title}</h3>
                    <p class="question">{e.question.text()}</p>
                    <p class="answer">
                        <strong>{headline}</strong>
                    </p>
                    <p class="explanation">{explanation}</p>
                    <button type="button" class="link" on:click=move |_| ack.experiment.set(None)>
                        "Close experiment"
                    </button>
                </div>
            }
            .into_any()
        }
    }
}

/// The experiment in progress, at the top of the stage: its question, then
/// its answer.
#[component]
pub fn ExperimentCard(ack: Ack) -> impl IntoView {
    let host = Host::current();
    move || {
        ack.experiment.get().map(|state| {
            view! {
                <section class="panel experiment" aria-label="Experiment">
                    {card(ack, host, state)}
                </section>
            }
        })
    }
}

#[component]
pub fn Experiments(ack: Ack) -> impl IntoView {
    let host = Host::current();
    let active = move || ack.experiment.with(|e| e.as_ref().map(|e| e.which));
    panel(view! {
            <ul class="experiment-list">
                <li>
                    <button
                        type="button"
                        aria-pressed=move || ack.three_ways.get().to_string()
                        on:click=move |_| {
                            ack.three_ways.set(true);
                            host.bring_into_view("three-ways-h");
                        }
                    >
                        "Break it three ways: where did idempotency break?"
                    </button>
                </li>
                {EXPERIMENTS
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        view! {
                            <li>
                                <button
                                    type="button"
                                    aria-pressed=move || if active() == Some(i) { "true" } else { "false" }
                                    on:click=move |_| {
                                        ack.start_experiment(i);
                                        focus_card(host);
                                    }
                                >
                                    {e.title}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
    })
}

/// The experiments' panel, its heading and what they do, around `body`
/// (the card and the list, or on the opening page the list alone).
pub fn panel(body: impl IntoView) -> impl IntoView {
    view! {
        <section class="panel experiments" aria-labelledby="experiments-h">
            <h2 id="experiments-h">"Experiments"</h2>
            <p class="hint">
                "Each sets up a run from the opening settings and asks for your prediction before revealing it."
            </p>
            {body}
        </section>
    }
}
