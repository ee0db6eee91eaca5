//! Playback: Play/Pause, stepping between events, Restart, speed, the Time
//! slider and the two-clock readout. The frame loop is the one place that
//! reads the wall clock.

use leptos::prelude::*;

use crate::sim::Millis;
use crate::view::playback::{INSPECTION_MS, Speed, advance, model_at, readout};

use super::dom;
use super::present::pin_between;
use super::state::Lab;

/// Starts a frame loop for the current playback; an older loop notices the
/// new generation and stops.
pub fn start_loop(lab: Lab) {
    let generation = lab.loop_generation.get_value().wrapping_add(1);
    lab.loop_generation.set_value(generation);
    let now = dom::now_ms();
    request_animation_frame(move || frame(lab, generation, now));
}

fn frame(lab: Lab, generation: u32, last: f64) {
    if generation != lab.loop_generation.get_value() || !lab.playing.get_untracked() {
        return;
    }
    let now = dom::now_ms();
    let end = lab.end();
    let inspection = advance(lab.inspection.get_value(), now - last, lab.speed.get_untracked());
    lab.inspection.set_value(inspection);
    let t = model_at(inspection, end);
    let from = lab.playhead.get_untracked();
    // A checkpoint on the way stops playback exactly at it.
    if let Some(i) = lab.pins.with_untracked(|p| pin_between(p, from, t)) {
        lab.playing.set(false);
        let at = lab.pins.with_untracked(|p| p[i].at);
        lab.seek(at, false);
        lab.show_checkpoint(i, true);
        return;
    }
    if t != from {
        lab.playhead.set(t);
    }
    if inspection >= INSPECTION_MS {
        lab.playing.set(false);
        return;
    }
    request_animation_frame(move || frame(lab, generation, now));
}

#[component]
pub fn Playback(lab: Lab) -> impl IntoView {
    let end = move || lab.end_tracked();
    view! {
        <section class="panel playback" aria-labelledby="playback-h">
            <h2 id="playback-h" class="visually-hidden">"Playback"</h2>
            <div class="playback-buttons">
                <button type="button" class="primary play" aria-keyshortcuts="Space" on:click=move |_| lab.toggle_play()>
                    {move || if lab.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" aria-keyshortcuts="ArrowLeft" on:click=move |_| lab.previous_event()>
                    "Previous event"
                </button>
                <button type="button" aria-keyshortcuts="ArrowRight" on:click=move |_| lab.next_event()>
                    "Next event"
                </button>
                <button type="button" aria-keyshortcuts="Home" on:click=move |_| lab.restart()>
                    "Restart"
                </button>
                {(!lab.embed)
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                title="Compare with a run B that changes one setting, checked from the playhead back"
                                on:click=move |_| lab.fork_here()
                            >
                                "Fork here"
                            </button>
                        }
                    })}
                <span class="speed">
                    <label for="speed">"Speed"</label>
                    <select
                        id="speed"
                        on:change:target=move |ev| {
                            if let Some(speed) = Speed::from_label(&ev.target().value()) {
                                lab.speed.set(speed);
                            }
                        }
                    >
                        {Speed::ALL
                            .into_iter()
                            .map(|s| {
                                view! {
                                    <option value=s.label() prop:selected=move || lab.speed.get() == s>
                                        {s.label()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </span>
            </div>
            <div class="scrub">
                <label for="time">"Time"</label>
                <input
                    id="time"
                    type="range"
                    min="0"
                    step="1"
                    max=move || end().ms().to_string()
                    prop:value=move || lab.playhead.get().ms().to_string()
                    aria-valuetext=move || format!("Model {} of {}", lab.playhead.get(), end())
                    on:input:target=move |ev| {
                        if let Ok(ms) = ev.target().value().parse::<u64>() {
                            lab.seek(Millis(ms), false);
                        }
                    }
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        // The slider's step is one millisecond, so that it can
                        // land on any event; arrow keys move a hundredth of the
                        // run instead, which is what a person scrubbing wants.
                        let sign: i64 = match ev.key().as_str() {
                            "ArrowRight" | "ArrowUp" => 1,
                            "ArrowLeft" | "ArrowDown" => -1,
                            _ => return,
                        };
                        ev.prevent_default();
                        let end = end().ms();
                        let step = (end / 100).max(1) as i64;
                        let t = (lab.playhead.get_untracked().ms() as i64 + sign * step).clamp(0, end as i64);
                        lab.seek(Millis(t as u64), false);
                    }
                />
            </div>
            <p class="readout">
                <output for="time">{move || readout(lab.playhead.get(), end())}</output>
            </p>
        </section>
    }
}
