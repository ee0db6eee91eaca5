//! The timeline diagram: the geometry from `view::timeline`, rendered as
//! SVG, with the playhead and with past and future told apart.

use std::cell::OnceCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::Millis;
use crate::sim::ack::Run;
use crate::view::ack::diagram::{diagram_on, stop_times};
use crate::view::ack::opening::Opening;
use crate::view::timeline::page::LANE_TITLES_W;
use crate::view::timeline::{Diagram, Frame, Orientation};

use wasm_bindgen::JsCast;

use super::super::chrome::{box_height, box_width, fit_scale, lane_titles, scroll_cue};
use super::super::compare::Side;
use super::super::markup::chosen;
use super::super::playback::Replay;
use super::super::playback::follow;
use super::super::present::{PRESENT_SCALE, timeline_intro};
use super::state::Ack;

fn num(v: f64) -> String {
    crate::view::num::d1(v).to_string()
}

/// How a drawn diagram is named: its ids end in `suffix` (so that several
/// on one page stay apart), and `title` is its accessible name.
pub struct Named {
    pub suffix: String,
    pub title: String,
    /// Where its playhead is: the lab's, or a moment of its own.
    pub playhead: Signal<Millis>,
}

impl Named {
    fn id(&self, name: &str) -> String {
        format!("{name}{}", self.suffix)
    }

    /// Run A's or run B's diagram.
    fn of(ack: Ack, side: Side) -> Named {
        let title = match side {
            Side::A if ack.compare.open.get_untracked() => "Timeline of run A",
            Side::A => "Timeline of the run",
            Side::B => "Timeline of run B",
        };
        Named { suffix: side.id(""), title: title.to_owned(), playhead: ack.player.playhead.into() }
    }
}

pub fn diagram_view(
    ack: Ack,
    named: Named,
    run: Arc<Run>,
    d: Arc<Diagram>,
    scale: f64,
    diverge: Signal<Option<usize>>,
) -> impl IntoView {
    let (w, h) = (d.width, d.height);
    let playhead = named.playhead;
    // One markup string (`view`'s, as the page is written with before the
    // app starts); the future, the first divergence and the playhead are
    // then attributes of what it drew.
    let body = d.page_svg_body(&named.suffix, &named.title, playhead.get_untracked());
    let labelled_by = format!("{} {}", named.id("diagram-title"), named.id("diagram-desc"));
    let svg = NodeRef::<leptos::svg::Svg>::new();
    // What it drew, found once it is in the document.
    let drawn = Rc::new(OnceCell::<Drawn>::new());
    let found = {
        let drawn = drawn.clone();
        move || svg.get_untracked().map(|svg| drawn.get_or_init(|| Drawn::found(&svg)).clone())
    };
    let at_playhead = found.clone();
    Effect::new(move |_| {
        let t = playhead.get();
        let Some(drawn) = at_playhead() else { return };
        for m in drawn.marks.iter() {
            let _ = m.element.class_list().toggle_with_force("future", m.t > t);
        }
        if let Some(line) = &drawn.playhead {
            let (x1, y1, x2, y2) = d.playhead(t);
            for (name, v) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] {
                let _ = line.set_attribute(name, &num(v));
            }
        }
    });
    Effect::new(move |_| {
        let diverge = diverge.get();
        let Some(drawn) = found() else { return };
        for m in drawn.marks.iter().filter(|m| m.record.is_some()) {
            let _ = m.element.class_list().toggle_with_force("diverge", m.record == diverge);
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let record = chosen(&ev, "data-record").and_then(|i| i.parse::<usize>().ok());
        if let Some(at) = record.and_then(|i| run.records().get(i)).map(|r| r.t) {
            ack.seek(at, true);
        }
    };
    view! {
        <svg
            node_ref=svg
            class="diagram"
            class:hide-future=move || ack.future_hidden()
            xmlns="http://www.w3.org/2000/svg"
            width=num(w * scale)
            height=num(h * scale)
            viewBox=format!("0 0 {} {}", num(w), num(h))
            role="img"
            aria-labelledby=labelled_by
            inner_html=body
            on:click=on_click
        ></svg>
    }
}

/// A drawn item that shows a moment: its element, its moment and the
/// record it shows, if any.
struct Mark {
    element: web_sys::Element,
    t: Millis,
    record: Option<usize>,
}

/// What a diagram's markup drew that follows the playhead: its marks and
/// the playhead's line.
#[derive(Clone)]
struct Drawn {
    marks: Rc<[Mark]>,
    playhead: Option<web_sys::Element>,
}

impl Drawn {
    fn found(svg: &web_sys::Element) -> Drawn {
        let marks = match svg.query_selector_all("[data-t]") {
            Ok(list) => (0..list.length())
                .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
                .filter_map(|element| {
                    let t = Millis(element.get_attribute("data-t")?.parse().ok()?);
                    let record = element.get_attribute("data-record").and_then(|r| r.parse().ok());
                    Some(Mark { element, t, record })
                })
                .collect(),
            Err(_) => Rc::from([]),
        };
        Drawn { marks, playhead: svg.query_selector("line.playhead").ok().flatten() }
    }
}

/// The diagram of `side`'s run, drawn for `frame` (the timeline fitted to
/// a width, in the diagram's units, where it can be); when comparing, both runs are drawn on one clock (the
/// union of their stops, to the later end).
fn drawn(ack: Ack, side: Side, frame: Frame) -> Option<(Arc<Run>, Arc<Diagram>)> {
    let a = ack.run.get();
    let b = ack.compare.run_b();
    let run = match side {
        Side::A => a.clone(),
        Side::B => b.clone()?,
    };
    let mut times = stop_times(&a);
    let mut end = a.end();
    if let Some(b) = &b {
        times.extend(stop_times(b));
        end = end.max(b.end());
    }
    let diagram = Arc::new(diagram_on(&run, times, end, frame));
    Some((run, diagram))
}

#[component]
pub fn Timeline(ack: Ack, #[prop(optional)] side: Option<Side>) -> impl IntoView {
    let side = side.unwrap_or(Side::A);
    let scale = Memo::new(move |_| if ack.presenter.present.get() { PRESENT_SCALE } else { 1.0 });
    let scroller = NodeRef::<leptos::html::Div>::new();
    // The diagram is drawn for the width of its box.
    let fit = box_width(scroller, scale.into());
    let relaid = super::super::chrome::relayout();
    let downward = ack.look.downward();
    // Before its box is measured (in the frame it is mounted, before that
    // frame is painted) the diagram is drawn for the width the page was
    // written for (view::ack::opening): in the window it was written for,
    // the lab's layout is the written page's from the start.
    let written = if ack.embed { Opening::Embed } else { Opening::Page };
    // An embed's diagram fits its frame's room whole: drawn smaller where
    // it is taller than the room, and then for a wider box, so it keeps the
    // frame's width.
    let room = ack.embed.then(|| box_height(scroller));
    // Where the whole run must fit (a projector's screen, an embed's
    // frame), its lanes are as low as their contents allow.
    let tight = move |width: f64| {
        if ack.embed || ack.presenter.present.get() { Frame::Tight(width) } else { Frame::Across(Some(width)) }
    };
    let drawn = Memo::new(move |_| {
        let width = fit.get().unwrap_or(written.wide_fit());
        let frame = if downward.get() { Frame::Down(fit.get().unwrap_or(written.narrow_fit())) } else { tight(width) };
        let (run, d) = drawn(ack, side, frame)?;
        let shrink = fit_scale(d.height, room.and_then(|r| r.get()));
        if shrink < 1.0 && !downward.get() {
            let (run, d) = drawn(ack, side, tight(width / shrink))?;
            return Some((run, d, shrink));
        }
        Some((run, d, 1.0))
    });
    // The first divergence of a comparison, marked in both diagrams.
    let diverge = Signal::derive(move || {
        let diff = ack.compare.diff()?;
        let d = diff.divergence?;
        match side {
            Side::A => d.a.map(|_| d.index),
            Side::B => d.b.map(|_| d.index),
        }
    });
    // Keep the playhead in view as it moves (playing or stepping), without
    // fighting a reader who scrolls while paused.
    Effect::new(move |_| {
        relaid.track();
        let t = ack.player.playhead.get();
        let Some((p, down)) = drawn
            .with(|d| d.as_ref().map(|(_, d, s)| (d.along(t) * scale.get() * s, d.orientation == Orientation::Down)))
        else {
            return;
        };
        if let Some(el) = scroller.get() {
            follow(&el, p, down, LANE_TITLES_W * scale.get());
        }
    });
    let hide_id = side.id("hide-future");
    let layout_id = if side == Side::A { "layout" } else { "layout-b" };
    let heading_id = side.id("timeline-h");
    let labelled_by = heading_id.clone();
    let heading = move || side.heading(ack.compare.showing());
    let label = side.label();
    view! {
        <section class="panel timeline" class:timeline-b=side == Side::B aria-labelledby=labelled_by>
            <h2 id=heading_id>{heading}</h2>
            {(side == Side::A)
                .then(|| {
                    timeline_intro(
                        crate::view::ack::opening::TIMELINE_HINTS,
                        downward,
                        ack.presenter,
                        hide_id.clone(),
                        ack.look.layout,
                        layout_id,
                    )
                })}
            {scroll_cue(fit, move || drawn.with(|d| d.as_ref().map(|(_, d, s)| d.width * s)))}
            <div class="timeline-frame" class:sequence=downward>
                <div class="timeline-scroll" node_ref=scroller tabindex="0" role="group" aria-label=label>
                    {move || {
                        drawn
                            .get()
                            .filter(|(_, d, _)| d.orientation == Orientation::Down)
                            .map(|(_, d, s)| lane_titles(&d, scale.get() * s))
                    }}
                    {move || {
                        drawn
                            .get()
                            .map(|(run, d, s)| diagram_view(ack, Named::of(ack, side), run, d, scale.get() * s, diverge))
                    }}
                </div>
                {move || {
                    drawn
                        .get()
                        .filter(|(_, d, _)| d.orientation == Orientation::Across)
                        .map(|(_, d, s)| lane_titles(&d, scale.get() * s))
                }}
            </div>
        </section>
    }
}
