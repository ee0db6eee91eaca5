//! The risk run's timeline: the markup from `view::risk::html`, drawn once
//! per run, with the playhead and a veil over the future moved as the
//! playhead moves, and a click on any mark moving the playhead to its
//! event.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::view::risk::diagram::{TIMELINE_HINTS, diagram_on, end_of, shared_axis, stop_times};
use crate::view::risk::html::{LANE_TITLES_W, PLAYHEAD_ID, VEIL_ID, diagram_svg, lane_titles};
use crate::view::timeline::{Diagram, Frame, Orientation};

use super::super::chrome::{box_height, box_width, fit_scale, room_below, scroll_cue};
use super::super::compare::Side;
use super::super::markup::chosen_moment;
use super::super::playback::Replay;
use super::super::playback::follow;
use super::super::present::{PRESENT_SCALE, timeline_intro};
use super::state::{Risk, changed};

/// A run's drawing: its geometry (for the playhead) and its markup, and
/// the scale it is shown at to fit an embed's room (1 elsewhere).
struct Drawing {
    diagram: Diagram,
    axis: String,
    svg: String,
    titles: String,
    shrink: f64,
}

fn num(v: f64) -> String {
    crate::view::num::d1(v).to_string()
}

/// The frame a timeline is drawn in: the timeline at its natural width,
/// and scrolling; the sequence diagram for its box. A presenter's timeline
/// and an embed's fit their box, so the whole run is on screen at once,
/// its lanes as low as their contents allow.
fn frame_of(risk: Risk, downward: bool, fit: Option<f64>) -> Frame {
    if downward {
        Frame::Down(fit.unwrap_or(344.0))
    } else if risk.presenter.present.get() || risk.embed {
        Frame::Tight(fit.unwrap_or(700.0))
    } else {
        Frame::Across(None)
    }
}

/// The room, in the drawing's units, that the timeline must fit whole:
/// an embed's frame (drawn smaller where it is taller, see the first
/// lab's), and presenting, the screen below its top (where the drawing is
/// shown PRESENT_SCALE times larger); elsewhere none.
fn room_of(risk: Risk, scroller: NodeRef<leptos::html::Div>) -> impl Fn() -> Option<f64> + Copy + Send + Sync {
    let frame = risk.embed.then(|| box_height(scroller));
    let below = room_below(scroller, 3.0);
    move || match frame {
        Some(room) => room.get(),
        None if risk.presenter.present.get() => below.get().map(|h| h / PRESENT_SCALE),
        None => None,
    }
}

/// The timeline of run A (the run on screen) or, while comparing, of run
/// B. While comparing, both are drawn on the stops of both runs, so they
/// line up on model time, and each marks the event where it first parts
/// from the other.
#[component]
pub fn RiskTimeline(risk: Risk, #[prop(optional)] side: Option<Side>) -> impl IntoView {
    let side = side.unwrap_or(Side::A);
    let c = risk.compare;
    let prefix = if side == Side::B { "b-" } else { "" };
    let scroller = NodeRef::<leptos::html::Div>::new();
    let scale = Signal::derive(move || if risk.presenter.present.get() { PRESENT_SCALE } else { 1.0 });
    let fit = box_width(scroller, scale);
    let downward = risk.look.downward();
    let room = room_of(risk, scroller);
    let drawing = Memo::new_with_compare(
        move |_| {
            let frame = frame_of(risk, downward.get(), fit.get());
            let a = risk.run.get();
            let b = c.run_b();
            let run = match (side, &b) {
                (Side::B, Some(b)) => b.clone(),
                _ => a.clone(),
            };
            let draw = |frame| match &b {
                Some(b) => {
                    let (times, end) = shared_axis(&a, b);
                    diagram_on(&run, times, end, frame)
                }
                None => diagram_on(&run, stop_times(&run), end_of(&run), frame),
            };
            let mut d = draw(frame);
            let shrink = fit_scale(d.height, room());
            if let (true, Frame::Tight(width)) = (shrink < 1.0, frame) {
                d = draw(Frame::Tight(width / shrink));
            }
            let diverge = c.diff().and_then(|diff| diff.divergence).and_then(|d| match side {
                Side::A => d.a.map(|_| d.index),
                Side::B => d.b.map(|_| d.index),
            });
            let (axis, svg) = diagram_svg(&d, run.records(), prefix, diverge);
            let titles = lane_titles(&d);
            Arc::new(Drawing { diagram: d, axis, svg, titles, shrink })
        },
        changed,
    );
    follow_playhead(risk, prefix, drawing, scroller);
    shrink_to_fit(drawing, scroller, scale);
    if side == Side::A {
        mark_broke(risk, drawing, scroller);
    }
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(t) = chosen_moment(&ev) {
            risk.seek(t, true);
        }
    };
    // The lanes and the instants rarely change between runs, and markup
    // equal to what an element holds is not set again: a pattern switch
    // often re-parses the diagram's body alone.
    let heading_id = side.id("timeline-h");
    let labelled_by = heading_id.clone();
    let heading = move || side.heading(c.showing());
    let label = side.label();
    view! {
        <section
            class="panel timeline"
            class:timeline-b=side == Side::B
            class:hide-future=move || risk.future_hidden()
            aria-labelledby=labelled_by
        >
            <h2 id=heading_id>{heading}</h2>
            {(side == Side::A)
                .then(|| {
                    timeline_intro(
                        TIMELINE_HINTS,
                        downward,
                        risk.presenter,
                        "risk-hide-future".to_owned(),
                        risk.look.layout,
                        "risk-layout",
                    )
                })}
            {scroll_cue(fit, move || Some(drawing.with(|d| d.diagram.width * d.shrink)))}
            <div class="timeline-frame" class:sequence=downward>
                <div
                    class="timeline-scroll"
                    node_ref=scroller
                    tabindex="0"
                    role="group"
                    aria-label=label
                    on:click=on_click
                >
                    <div
                        class="column-titles-frame"
                        hidden=move || !downward.get()
                        inner_html=move || drawing.with(|d| if d.down() { d.titles.clone() } else { String::new() })
                    ></div>
                    <div class="axis-layer diagram" inner_html=move || drawing.with(|d| d.axis.clone())></div>
                    <div class="diagram-layer" inner_html=move || drawing.with(|d| d.svg.clone())></div>
                </div>
                <div
                    class="lane-titles-frame"
                    hidden=move || downward.get()
                    inner_html=move || drawing.with(|d| if d.down() { String::new() } else { d.titles.clone() })
                ></div>
            </div>
        </section>
    }
}

/// Rings the second review's mark and the marks from which the checks it
/// fails have failed, once the playhead has reached the second review (and
/// not while a prediction is still to be made): `view::risk::broke`
/// decides which.
fn mark_broke(risk: Risk, drawing: Memo<Arc<Drawing>>, scroller: NodeRef<leptos::html::Div>) {
    Effect::new(move |_| {
        drawing.track();
        let t = risk.player.playhead.get();
        let hidden = risk.answer_hidden();
        let Some(el) = scroller.get() else { return };
        each_match(&el, ".broke", |e| {
            let _ = e.class_list().remove_1("broke");
        });
        let due: Vec<usize> = risk.broke.with(|b| {
            let Some(b) = b.as_ref().filter(|_| !hidden) else { return Vec::new() };
            risk.run.with(|r| crate::view::risk::broke::marked_at(r, b, t))
        });
        for i in due {
            each_match(&el, &format!("[data-record=\"{i}\"]"), |e| {
                let _ = e.class_list().add_1("broke");
            });
        }
    });
}

/// Shows the drawing at the scale it was drawn for, `scale` times that
/// presenting (its layers and its lane titles zoomed, through the CSSOM,
/// which the page's Content-Security-Policy allows where it refuses a
/// style attribute).
fn shrink_to_fit(drawing: Memo<Arc<Drawing>>, scroller: NodeRef<leptos::html::Div>, scale: Signal<f64>) {
    Effect::new(move |_| {
        let zoom = crate::view::num::d1(drawing.with(|d| d.shrink) * scale.get() * 100.0).to_string() + "%";
        let Some(el) = scroller.get() else { return };
        let frame = el.parent_element();
        let layers = ".timeline-scroll > div, .lane-titles-frame";
        let Some(frame) = frame else { return };
        each_match(&frame, layers, |e| {
            if let Ok(e) = e.dyn_into::<web_sys::HtmlElement>() {
                let _ = e.style().set_property("zoom", &zoom);
            }
        });
    });
}

/// Calls `f` on every element under `root` that `selector` matches.
fn each_match(root: &web_sys::Element, selector: &str, f: impl Fn(web_sys::Element)) {
    let Ok(found) = root.query_selector_all(selector) else { return };
    for i in 0..found.length() {
        if let Some(e) = found.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            f(e);
        }
    }
}

/// Moves the playhead and the veil over the future as the playhead moves
/// (two attributes, so a frame of playback redraws nothing else), and keeps
/// the playhead in view.
fn follow_playhead(
    risk: Risk,
    prefix: &'static str,
    drawing: Memo<Arc<Drawing>>,
    scroller: NodeRef<leptos::html::Div>,
) {
    let relaid = super::super::chrome::relayout();
    // A future hidden rather than faded: every item after the playhead is
    // marked `future` (and hidden whole, not cut at the playhead as the
    // veil would cut a label that starts before it).
    let marked = StoredValue::new(false);
    Effect::new(move |_| {
        drawing.track();
        let t = risk.player.playhead.get();
        let hidden = risk.future_hidden();
        let Some(el) = scroller.get() else { return };
        if !hidden && !marked.get_value() {
            return;
        }
        marked.set_value(hidden);
        each_match(&el, "[data-t]", |e| {
            let at = e.get_attribute("data-t").and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            let _ = e.class_list().toggle_with_force("future", hidden && at > t.ms());
        });
    });
    Effect::new(move |_| {
        relaid.track();
        let t = risk.player.playhead.get();
        let (line, veil, p, down) =
            drawing.with(|d| (d.diagram.playhead(t), d.diagram.after(t), d.diagram.along(t), d.down()));
        let Some(el) = scroller.get() else { return };
        if let Ok(Some(playhead)) = el.query_selector(&format!("#{prefix}{PLAYHEAD_ID}")) {
            for (name, v) in [("x1", line.0), ("y1", line.1), ("x2", line.2), ("y2", line.3)] {
                let _ = playhead.set_attribute(name, &num(v));
            }
        }
        if let Ok(Some(rect)) = el.query_selector(&format!("#{prefix}{VEIL_ID}")) {
            for (name, v) in [("x", veil.0), ("y", veil.1), ("width", veil.2), ("height", veil.3)] {
                let _ = rect.set_attribute(name, &num(v));
            }
        }
        // Keep the playhead in view without fighting a reader who scrolls
        // while paused. Reading the scroll position needs the layout, so it
        // waits for the next frame, when the browser lays out anyway.
        // (Presenter mode draws the diagram twice as large.)
        let scale = if risk.presenter.present.get_untracked() { PRESENT_SCALE } else { 1.0 };
        let scale = scale * drawing.with_untracked(|d| d.shrink);
        request_animation_frame(move || {
            if let Some(el) = scroller.try_get_untracked().flatten() {
                follow(&el, p * scale, down, LANE_TITLES_W * scale);
            }
        });
    });
}

impl Drawing {
    fn down(&self) -> bool {
        self.diagram.orientation == Orientation::Down
    }
}
