//! The chart: `view::chart`'s geometry drawn as SVG at the width of its
//! panel, with the playhead. Its colours are the stylesheet's (classes and
//! custom properties), so themes and hosts restyle it without any code.

use leptos::prelude::*;

use crate::view::chart::ChartData;
use crate::view::num::d1;

use super::super::playback::Replay;
use super::state::Ack;

fn num(v: f64) -> String {
    d1(v).to_string()
}

#[component]
pub fn Chart(ack: Ack) -> impl IntoView {
    let data = Memo::new(move |_| ack.run.with(|run| ChartData::of(run)));
    let frame = NodeRef::<leptos::html::Div>::new();
    // The chart is laid out for the width its panel has; a new width (a
    // resized window, a rotated phone, the lab shown again after the window
    // changed) lays it out again.
    let width = RwSignal::new(640.0);
    // (A frame may come after the lab was unmounted: then nothing is there.)
    let measure = move || {
        if let Some(el) = frame.try_get_untracked().flatten() {
            let w = f64::from(el.client_width());
            if w > 0.0 && width.try_get_untracked().is_some_and(|old| (w - old).abs() >= 1.0) {
                width.set(w);
            }
        }
    };
    let relaid = super::super::chrome::relayout();
    Effect::new(move |_| {
        relaid.track();
        measure();
    });
    request_animation_frame(measure);
    // With the future hidden, the chart is what has happened so far, drawn
    // up to the playhead.
    let shown =
        Memo::new(
            move |_| {
                if ack.future_hidden() { data.with(|d| d.so_far(ack.player.playhead.get())) } else { data.get() }
            },
        );
    let geometry = Memo::new(move |_| shown.with(|d| d.geometry(width.get())));
    let description = move || {
        if ack.answer_hidden() {
            "Chart hidden until you make your prediction.".to_owned()
        } else {
            shown.with(|d| d.describe())
        }
    };
    let drawing = move || {
        let g = geometry.get();
        let playhead = {
            let g = g.clone();
            move || g.playhead(ack.player.playhead.get())
        };
        view! {
            <svg
                class="chart-svg"
                width=num(g.width)
                height=num(g.height)
                viewBox=format!("0 0 {} {}", num(g.width), num(g.height))
                role="img"
                aria-label=description
            >
                <g inner_html=g.markup()></g>
                <path class="chart-playhead" d=playhead/>
            </svg>
        }
    };
    view! {
        <section class="panel chart" aria-labelledby="chart-h">
            <h2 id="chart-h">"Counter and client successes over time"</h2>
            <ul class="chart-legend">
                <li>
                    <span class="swatch counter"></span>
                    "Committed counter"
                </li>
                <li>
                    <span class="swatch received"></span>
                    "Successes the client received"
                </li>
                <li>
                    <span class="swatch playhead"></span>
                    "Playhead"
                </li>
                {move || {
                    geometry.with(|g| g.gap.is_some())
                        .then(|| {
                            view! {
                                <li>
                                    <span class="swatch gap"></span>
                                    "Increments beyond the one intent"
                                </li>
                            }
                        })
                }}
            </ul>
            <div class="chart-frame" node_ref=frame>
                {drawing}
            </div>
        </section>
    }
}
