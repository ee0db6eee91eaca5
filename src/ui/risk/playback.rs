//! Playback for the risk page: Play/Pause, stepping between events,
//! Restart, speed, the Time slider and the readout with both clocks (the
//! incident's wall clock and model time). The frame loop is the one place
//! that reads the wall clock.

use leptos::prelude::*;

use crate::sim::Millis;
use crate::view::playback::{INSPECTION_MS, Speed, advance, model_at, readout};
use crate::view::risk::names;

use super::super::dom;
use super::state::Risk;

/// Starts a frame loop for the current playback; an older loop notices the
/// new generation and stops.
pub fn start_loop(risk: Risk) {
    let generation = risk.loop_generation.get_value().wrapping_add(1);
    risk.loop_generation.set_value(generation);
    let now = dom::now_ms();
    request_animation_frame(move || frame(risk, generation, now));
}

fn frame(risk: Risk, generation: u32, last: f64) {
    if generation != risk.loop_generation.get_value() || !risk.playing.get_untracked() {
        return;
    }
    let now = dom::now_ms();
    let end = risk.end();
    let inspection = advance(risk.inspection.get_value(), now - last, risk.speed.get_untracked());
    risk.inspection.set_value(inspection);
    let t = model_at(inspection, end);
    if t != risk.playhead.get_untracked() {
        risk.playhead.set(t);
    }
    if inspection >= INSPECTION_MS {
        risk.playing.set(false);
        return;
    }
    request_animation_frame(move || frame(risk, generation, now));
}

#[component]
pub fn RiskPlayback(risk: Risk) -> impl IntoView {
    let end = move || {
        risk.run.track();
        risk.end()
    };
    view! {
        <section class="panel playback" aria-labelledby="playback-h">
            <h2 id="playback-h" class="visually-hidden">"Playback"</h2>
            <div class="playback-buttons">
                <button type="button" class="primary play" aria-keyshortcuts="Space" on:click=move |_| risk.toggle_play()>
                    {move || if risk.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" aria-keyshortcuts="ArrowLeft" on:click=move |_| risk.previous_event()>
                    "Previous event"
                </button>
                <button type="button" aria-keyshortcuts="ArrowRight" on:click=move |_| risk.next_event()>
                    "Next event"
                </button>
                <button type="button" aria-keyshortcuts="Home" on:click=move |_| risk.restart()>
                    "Restart"
                </button>
                <span class="speed">
                    <label for="speed">"Speed"</label>
                    <select
                        id="speed"
                        prop:value=move || risk.speed.get().label()
                        on:change:target=move |ev| {
                            if let Some(speed) = Speed::from_label(&ev.target().value()) {
                                risk.speed.set(speed);
                            }
                        }
                    >
                        // `prop:value` is set before the options exist, so the first
                        // choice is also marked in the markup.
                        {Speed::ALL
                            .into_iter()
                            .map(|s| view! { <option value=s.label() selected=s == Speed::One>{s.label()}</option> })
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
                    prop:value=move || risk.playhead.get().ms().to_string()
                    aria-valuetext=move || {
                        let t = risk.playhead.get();
                        format!("{} on the wall clock, model {} of {}", names::clock(t), t, end())
                    }
                    on:input:target=move |ev| {
                        if let Ok(ms) = ev.target().value().parse::<u64>() {
                            risk.seek(Millis(ms), false);
                        }
                    }
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        // The slider's step is one millisecond, so that it can
                        // land on any event; arrow keys move a hundredth of the
                        // run instead.
                        let sign: i64 = match ev.key().as_str() {
                            "ArrowRight" | "ArrowUp" => 1,
                            "ArrowLeft" | "ArrowDown" => -1,
                            _ => return,
                        };
                        ev.prevent_default();
                        let end = end().ms();
                        let step = (end / 100).max(1) as i64;
                        let t = (risk.playhead.get_untracked().ms() as i64 + sign * step).clamp(0, end as i64);
                        risk.seek(Millis(t as u64), false);
                    }
                />
            </div>
            <p class="readout">
                <output for="time">
                    {move || {
                        let t = risk.playhead.get();
                        format!("Wall clock {} · {}", names::clock(t), readout(t, end()))
                    }}
                </output>
            </p>
        </section>
    }
}
