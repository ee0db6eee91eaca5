//! "Break it three ways": the seed's three changes (deduplication off,
//! retention zero, a new key per attempt), each run drawn at its end one
//! under the other on one clock, each asking where idempotency broke. The
//! place is marked once the reader has chosen a lane.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::Millis;
use crate::sim::ack::Run;
use crate::view::ack::broke::Place;
use crate::view::ack::diagram::{diagram_on, stop_times};
use crate::view::ack::experiments::{WHERE_QUESTION, three_ways, where_verdict};
use crate::view::timeline::Frame;

use super::super::chrome::lane_titles;
use super::state::Ack;
use super::timeline::{Named, diagram_view};

/// One of the three runs: its diagram and its question.
fn way(
    ack: Ack,
    i: usize,
    title: &'static str,
    run: Arc<Run>,
    axis: (Vec<Millis>, Millis),
    fit: RwSignal<Option<f64>>,
) -> impl IntoView {
    let chosen = RwSignal::new(None::<Place>);
    let (times, end) = axis;
    // The same fit as the lab's own diagram: the sequence layout where it
    // runs downward (on a phone), the timeline fitted to the width across.
    let down = ack.look.downward();
    let drawn = {
        let run = run.clone();
        Memo::new(move |_| {
            let frame = match (down.get(), fit.get()) {
                (true, width) => Frame::Down(width.unwrap_or(crate::view::ack::opening::Opening::NARROW_FIT)),
                (false, width) => Frame::Across(width),
            };
            Arc::new(diagram_on(&run, times.clone(), end, frame))
        })
    };
    let name = format!("way-{i}");
    let heading = format!("{name}-h");
    let verdict = {
        let run = run.clone();
        move || chosen.get().map(|c| view! { <p class="way-verdict" role="status">{where_verdict(&run, c)}</p> })
    };
    let choices = Place::ALL
        .into_iter()
        .map(|place| {
            let id = format!("{name}-{}", place.lane().replace(' ', "-").to_lowercase());
            view! {
                <span class="choice">
                    <input
                        type="radio"
                        id=id.clone()
                        name=name.clone()
                        prop:checked=move || chosen.get() == Some(place)
                        on:change=move |_| chosen.set(Some(place))
                    />
                    <label for=id>{place.lane()}</label>
                </span>
            }
        })
        .collect_view();
    let playhead = Signal::derive(move || end);
    let labelled_by = heading.clone();
    let suffix = format!("-{name}");
    view! {
        <section class="way" aria-labelledby=labelled_by>
            <h3 id=heading>{format!("{}. {title}", i + 1)}</h3>
            <div class="timeline-frame" class:sequence=down class:unanswered=move || chosen.get().is_none()>
                <div class="timeline-scroll" tabindex="0" role="group" aria-label=format!("Timeline: {title}")>
                    {move || down.get().then(|| lane_titles(&drawn.get(), 1.0))}
                    {move || {
                        let named = Named { suffix: suffix.clone(), title: format!("Timeline: {title}"), playhead };
                        diagram_view(ack, named, run.clone(), drawn.get(), 1.0, Signal::derive(|| None))
                    }}
                </div>
                {move || (!down.get()).then(|| lane_titles(&drawn.get(), 1.0))}
            </div>
            <fieldset class="way-question">
                <legend>{WHERE_QUESTION}</legend>
                {choices}
            </fieldset>
            {verdict}
        </section>
    }
}

/// The experiment's panel, while it is open.
#[component]
pub fn ThreeWays(ack: Ack) -> impl IntoView {
    let runs: Vec<(&'static str, Arc<Run>)> = three_ways().into_iter().map(|(t, r)| (t, Arc::new(r))).collect();
    let times: Vec<Millis> = runs.iter().flat_map(|(_, r)| stop_times(r)).collect();
    let end = runs.iter().map(|(_, r)| r.end()).max().unwrap_or(Millis::ZERO);
    let frame = NodeRef::<leptos::html::Section>::new();
    let fit = RwSignal::new(None::<f64>);
    let relaid = super::super::chrome::relayout();
    Effect::new(move |_| {
        relaid.track();
        request_animation_frame(move || {
            if let Some(el) = frame.try_get_untracked().flatten() {
                // The panel's width less its padding and the diagram's border.
                let w = f64::from(el.client_width()) - 32.0;
                if w > 0.0 && fit.try_get_untracked().flatten().is_none_or(|old| (old - w).abs() >= 1.0) {
                    fit.set(Some(w));
                }
            }
        });
    });
    let ways = runs
        .into_iter()
        .enumerate()
        .map(|(i, (title, run))| way(ack, i, title, run, (times.clone(), end), fit))
        .collect_view();
    view! {
        <section class="panel three-ways" aria-labelledby="three-ways-h" node_ref=frame>
            <h2 id="three-ways-h" tabindex="-1">"Break it three ways"</h2>
            <p class="hint">{crate::view::ack::broke::THREE_WAYS_HINT}</p>
            {ways}
            <button type="button" on:click=move |_| ack.three_ways.set(false)>
                "Close the experiment"
            </button>
        </section>
    }
}
