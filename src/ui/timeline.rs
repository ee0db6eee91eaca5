//! The timeline diagram: the geometry from `view::timeline`, rendered as
//! SVG, with the playhead and with past and future told apart.

use std::sync::Arc;

use leptos::prelude::*;

use crate::view::ack::diagram as draw_run;
use crate::view::timeline::{Diagram, Item, Shape};

use super::state::Lab;

fn num(v: f64) -> String {
    crate::view::num::d1(v).to_string()
}

fn item_view(lab: Lab, item: Item) -> AnyView {
    let t = item.t;
    let future = move || t > lab.playhead.get();
    let record = item.record;
    let clickable = record.is_some();
    let on_click = move |_| {
        if let Some(i) = record {
            let at = lab.run.with_untracked(|r| r.records().get(i).map(|r| r.t));
            if let Some(at) = at {
                lab.seek(at, true);
            }
        }
    };
    let class = item.class;
    match (item.shape.path(), item.shape) {
        (Some(d), shape) => view! {
            <path
                class=class
                class:future=future
                class:clickable=clickable
                d=d
                marker-end=shape.has_arrow().then_some("url(#arrowhead)")
                on:click=on_click
            />
        }
        .into_any(),
        (None, Shape::Text { x, y, text }) => view! {
            <text class=class class:future=future class:clickable=clickable x=num(x) y=num(y) on:click=on_click>
                {text}
            </text>
        }
        .into_any(),
        (None, _) => ().into_any(),
    }
}

/// The lane titles, pinned beside the scrolling diagram so they stay in
/// view however far it is scrolled.
fn lane_titles(d: &Diagram) -> impl IntoView + use<> {
    let titles = d
        .lanes
        .iter()
        .enumerate()
        .map(|(i, band)| {
            view! {
                <rect class=format!("lane-band lane-{i}") x="0" y=num(band.top) width="100%" height=num(band.height)/>
                <text class="lane-title" x="8" y=num(band.top + 16.0)>
                    {band.title.clone()}
                </text>
            }
        })
        .collect_view();
    view! {
        <svg class="lane-titles" width=num(LANE_TITLES_W) height=num(d.height) aria-hidden="true">
            {titles}
        </svg>
    }
}

const LANE_TITLES_W: f64 = 96.0;

fn diagram_view(lab: Lab, d: Arc<Diagram>) -> impl IntoView {
    let (w, h) = (d.width, d.height);
    let bands = d
        .lanes
        .iter()
        .enumerate()
        .map(|(i, band)| {
            view! { <rect class=format!("lane-band lane-{i}") x="0" y=num(band.top) width=num(w) height=num(band.height)/> }
        })
        .collect_view();
    let items = d.items.iter().cloned().map(|item| item_view(lab, item)).collect_view();
    let summary = d.summary.clone();
    let playhead_x = {
        let d = d.clone();
        move || num(d.x_at(lab.playhead.get()))
    };
    view! {
        <svg
            class="diagram"
            xmlns="http://www.w3.org/2000/svg"
            width=num(w)
            height=num(h)
            viewBox=format!("0 0 {} {}", num(w), num(h))
            role="img"
            aria-labelledby="diagram-title diagram-desc"
        >
            <title id="diagram-title">"Timeline of the run"</title>
            <desc id="diagram-desc">{summary}</desc>
            <defs>
                <marker
                    id="arrowhead"
                    viewBox="0 0 10 10"
                    refX="9"
                    refY="5"
                    markerWidth="7"
                    markerHeight="7"
                    orient="auto-start-reverse"
                >
                    <path class="arrowhead" d="M0 0L10 5L0 10z"/>
                </marker>
            </defs>
            {bands}
            {items}
            <line class="playhead" x1=playhead_x.clone() x2=playhead_x y1="0" y2=num(h)/>
        </svg>
    }
}

#[component]
pub fn Timeline(lab: Lab) -> impl IntoView {
    let diagram = Memo::new(move |_| Arc::new(lab.run.with(|run| draw_run(run))));
    let scroller = NodeRef::<leptos::html::Div>::new();
    // Keep the playhead in view as it moves, without fighting a reader who
    // scrolls while paused.
    Effect::new(move |_| {
        let x = diagram.with(|d| d.x_at(lab.playhead.get()));
        if let Some(el) = scroller.get() {
            let (left, width) = (f64::from(el.scroll_left()), f64::from(el.client_width()));
            if x < left + LANE_TITLES_W + 20.0 || x > left + width - 40.0 {
                el.set_scroll_left((x - width / 3.0).max(0.0) as i32);
            }
        }
    });
    view! {
        <section class="panel timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h">"Timeline"</h2>
            <p class="hint">
                "Time runs left to right; the pink line is the playhead. Click any mark to move the playhead to it."
            </p>
            <div class="timeline-frame">
                <div class="timeline-scroll" node_ref=scroller tabindex="0" role="group" aria-label="Timeline diagram, scrolls sideways">
                    {move || diagram_view(lab, diagram.get())}
                </div>
                {move || lane_titles(&diagram.get())}
            </div>
        </section>
    }
}
