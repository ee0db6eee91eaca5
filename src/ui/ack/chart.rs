//! The chart: `view::chart`'s geometry drawn as SVG at the width of its
//! panel, with the playhead. Its colours are the stylesheet's (classes and
//! custom properties), so themes and hosts restyle it without any code.

use leptos::prelude::*;

use crate::view::chart::ChartData;

use super::super::playback::Replay;
use super::super::plot::{PlotSvg, measured};
use super::state::Ack;

#[component]
pub fn Chart(ack: Ack) -> impl IntoView {
    let data = Memo::new(move |_| ack.run.with(|run| ChartData::of(run)));
    let frame = NodeRef::<leptos::html::Div>::new();
    // The chart is laid out for the width its panel has; a new width (a
    // resized window, a rotated phone, the lab shown again after the window
    // changed) lays it out again.
    let size = measured(frame, (640.0, 0.0), || ());
    let width = Memo::new(move |_| size.get().0);
    // With the future hidden, the chart is what has happened so far, drawn
    // up to the playhead.
    let shown =
        Memo::new(
            move |_| {
                if ack.future_hidden() { data.with(|d| d.so_far(ack.player.playhead.get())) } else { data.get() }
            },
        );
    let geometry = Memo::new(move |_| shown.with(|d| d.geometry(width.get())));
    let description = Signal::derive(move || {
        if ack.answer_hidden() {
            "Chart hidden until you make your prediction.".to_owned()
        } else {
            shown.with(|d| d.describe())
        }
    });
    let plot = Signal::derive(move || geometry.with(|g| g.plot.clone()));
    let playhead = Signal::derive(move || geometry.with(|g| g.playhead(ack.player.playhead.get())));
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
                    geometry.with(|g| g.gap().is_some())
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
                <PlotSvg plot label=description class="chart-svg" playhead/>
            </div>
        </section>
    }
}
