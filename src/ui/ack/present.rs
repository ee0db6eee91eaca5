//! Presenting in a lecture: the current event as a large caption, and
//! prediction checkpoints pinned to events, where playback stops and the
//! question stays on screen until the presenter continues.

use leptos::prelude::*;

use crate::sim::Millis;
use crate::view::ack::sentence;
use crate::view::page::{MAX_PINS, Pin, clean_question};

use super::super::playback::Replay;
use super::state::Ack;

/// How much larger the diagram is drawn when presenting: its 12 px labels
/// become 24 px.
pub const PRESENT_SCALE: f64 = 2.0;

/// The latest event at or before the playhead, in words, with its time.
pub fn caption_text(ack: &Ack) -> String {
    let t = ack.player.playhead.get();
    ack.run.with(|run| {
        let past = run.records_until(t);
        match past.last() {
            None => format!("{t}: the run has not started; attempt 1 is about to be sent."),
            Some(last) => {
                let here: Vec<String> = past.iter().rev().take_while(|r| r.t == last.t).map(sentence).collect();
                let here: Vec<String> = here.into_iter().rev().collect();
                format!("{}: {}", last.t, here.join(" "))
            }
        }
    })
}

#[component]
pub fn Caption(ack: Ack) -> impl IntoView {
    view! { <p class="caption">{move || caption_text(&ack)}</p> }
}

/// Where a pin stops playback moving from `from` to `to`: the earliest pin
/// after `from` and at or before `to`.
pub fn pin_between(pins: &[Pin], from: Millis, to: Millis) -> Option<usize> {
    pins.iter().enumerate().filter(|(_, p)| from < p.at && p.at <= to).min_by_key(|(_, p)| p.at).map(|(i, _)| i)
}

/// The checkpoint playback stopped at: its question, and Continue.
#[component]
pub fn CheckpointPrompt(ack: Ack) -> impl IntoView {
    let current = move || {
        let i = ack.checkpoint.get()?;
        ack.pins.with(|p| p.get(i).cloned())
    };
    let button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if ack.checkpoint.get().is_some()
            && let Some(b) = button.get()
        {
            let _ = b.focus();
        }
    });
    view! {
        {move || {
            current()
                .map(|pin| {
                    view! {
                        <section class="checkpoint-prompt" aria-labelledby="checkpoint-h">
                            <h2 id="checkpoint-h">{format!("Checkpoint at {}", pin.at)}</h2>
                            <p class="checkpoint-question">{pin.question}</p>
                            <button type="button" class="primary" node_ref=button on:click=move |_| ack.continue_from_checkpoint()>
                                "Continue"
                            </button>
                        </section>
                    }
                })
        }}
    }
}

/// Pinning checkpoints at the playhead, and the list of them.
#[component]
pub fn Checkpoints(ack: Ack) -> impl IntoView {
    let question = RwSignal::new(String::new());
    let pin = move |_| {
        let at = ack.player.playhead.get_untracked();
        let text = clean_question(&question.get_untracked());
        ack.pin(Pin { at, question: text });
        question.set(String::new());
    };
    let placeholder = move || ack.suggested_question();
    let full = move || ack.pins.with(|p| p.len() >= MAX_PINS);
    checkpoints_panel(view! {
            <div class="field">
                <label for="pin-question">{move || format!("Question at {}", ack.player.playhead.get())}</label>
                <input
                    id="pin-question"
                    type="text"
                    autocomplete="off"
                    maxlength="200"
                    placeholder=placeholder
                    prop:value=move || question.get()
                    on:input:target=move |ev| question.set(ev.target().value())
                />
            </div>
            <button type="button" on:click=pin disabled=full>
                "Pin a checkpoint"
            </button>
            <ul class="pin-list">
                {move || {
                    ack.pins
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, p)| {
                            let at = p.at;
                            view! {
                                <li>
                                    <button type="button" class="link" on:click=move |_| ack.seek(at, true)>
                                        {format!("{}: {}", p.at, p.question)}
                                    </button>
                                    " "
                                    <button
                                        type="button"
                                        class="link"
                                        aria-label=format!("Remove the checkpoint at {}", p.at)
                                        on:click=move |_| ack.unpin(i)
                                    >
                                        "Remove"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
    })
}

/// The checkpoints' panel, its heading and what checkpoints do, around
/// `body` (the question field and the list).
fn checkpoints_panel(body: impl IntoView) -> impl IntoView {
    view! {
        <section class="panel checkpoints" aria-labelledby="checkpoints-h">
            <h2 id="checkpoints-h">"Checkpoints"</h2>
            <p class="hint">
                "Pin a question to the moment at the playhead: playing stops there and shows it until you continue. Checkpoints are kept in the link."
            </p>
            {body}
        </section>
    }
}
