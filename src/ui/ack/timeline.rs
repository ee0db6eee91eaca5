//! The timeline diagram: the geometry from `view::timeline`, rendered as
//! SVG, with the playhead and with past and future told apart.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::Millis;
use crate::sim::ack::Run;
use crate::view::ack::diagram::{diagram_on, stop_times};
use crate::view::timeline::export::column_title;
use crate::view::timeline::{Diagram, Frame, Item, Orientation, Shape};

use super::super::chrome::box_width;
use super::super::compare::Side;
use super::super::playback::Replay;
use super::super::playback::follow;
use super::super::present::{PRESENT_SCALE, timeline_intro};
use super::state::Ack;

fn num(v: f64) -> String {
    crate::view::num::d1(v).to_string()
}

fn item_view(
    ack: Ack,
    playhead: Signal<Millis>,
    run: Arc<Run>,
    item: Item,
    arrow: &str,
    diverge: Signal<Option<usize>>,
) -> AnyView {
    let t = item.t;
    let future = move || t > playhead.get();
    let record = item.record;
    let clickable = record.is_some();
    let diverges = move || record.is_some() && diverge.get() == record;
    let on_click = move |_| {
        if let Some(at) = record.and_then(|i| run.records().get(i)).map(|r| r.t) {
            ack.seek(at, true);
        }
    };
    let class = item.class;
    match (item.shape.path(), item.shape) {
        (Some(d), shape) => view! {
            <path
                class=class
                class:future=future
                class:clickable=clickable
                class:diverge=diverges
                d=d
                marker-end=shape.has_arrow().then(|| format!("url(#{arrow})"))
                on:click=on_click
            />
        }
        .into_any(),
        (None, Shape::Text { x, y, text }) => view! {
            <text
                class=class
                class:future=future
                class:clickable=clickable
                class:diverge=diverges
                x=num(x)
                y=num(y)
                on:click=on_click
            >
                {text}
            </text>
        }
        .into_any(),
        (None, _) => ().into_any(),
    }
}

/// The lane titles, pinned beside the scrolling timeline (or above the
/// scrolling sequence diagram) so they stay in view however far it is
/// scrolled.
pub fn lane_titles(d: &Diagram, scale: f64) -> AnyView {
    if d.orientation == Orientation::Down {
        let titles: String = d.lanes.iter().skip(1).map(column_title).collect();
        return view! {
            <svg
                class="column-titles"
                width=num(d.width * scale)
                height=num(HEADER_H * scale)
                viewBox=format!("0 0 {} {}", num(d.width), num(HEADER_H))
                aria-hidden="true"
                inner_html=format!("<rect class=\"column-titles-bg\" width=\"100%\" height=\"100%\"/>{titles}")
            ></svg>
        }
        .into_any();
    }
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
        <svg
            class="lane-titles"
            width=num(LANE_TITLES_W * scale)
            height=num(d.height * scale)
            viewBox=format!("0 0 {} {}", num(LANE_TITLES_W), num(d.height))
            aria-hidden="true"
        >
            {titles}
        </svg>
    }
    .into_any()
}

const LANE_TITLES_W: f64 = 96.0;
use crate::view::timeline::sequence::HEADER_H;

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
    let arrow = named.id("arrowhead");
    let bands = d
        .lanes
        .iter()
        .enumerate()
        .map(|(i, band)| {
            let (x, y, bw, bh) = d.band(band);
            view! {
                <rect class=format!("lane-band lane-{i}") x=num(x) y=num(y) width=num(bw) height=num(bh)/>
            }
        })
        .collect_view();
    let playhead = named.playhead;
    let items =
        d.items.iter().cloned().map(|item| item_view(ack, playhead, run.clone(), item, &arrow, diverge)).collect_view();
    let (title_id, desc_id) = (named.id("diagram-title"), named.id("diagram-desc"));
    let labelled_by = format!("{title_id} {desc_id}");
    let title = named.title.clone();
    let summary = d.summary.clone();
    let line = {
        let d = d.clone();
        move || d.playhead(playhead.get())
    };
    let (l1, l2, l3, l4) = (line.clone(), line.clone(), line.clone(), line);
    view! {
        <svg
            class="diagram"
            class:hide-future=move || ack.future_hidden()
            xmlns="http://www.w3.org/2000/svg"
            width=num(w * scale)
            height=num(h * scale)
            viewBox=format!("0 0 {} {}", num(w), num(h))
            role="img"
            aria-labelledby=labelled_by
        >
            <title id=title_id>{title}</title>
            <desc id=desc_id>{summary}</desc>
            <defs>
                <marker
                    id=arrow.clone()
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
            <line
                class="playhead"
                x1=move || num(l1().0)
                y1=move || num(l2().1)
                x2=move || num(l3().2)
                y2=move || num(l4().3)
            />
        </svg>
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
    let drawn = Memo::new(move |_| {
        let frame = if downward.get() {
            Frame::Down(fit.get().unwrap_or(SEQUENCE_FALLBACK_W))
        } else {
            Frame::Across(fit.get())
        };
        drawn(ack, side, frame)
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
        let Some((p, down)) =
            drawn.with(|d| d.as_ref().map(|(_, d)| (d.along(t) * scale.get(), d.orientation == Orientation::Down)))
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
            {move || {
                let wider = drawn.with(|d| d.as_ref().is_some_and(|(_, d)| fit.get().is_some_and(|w| d.width > w + 1.0)));
                wider
                    .then(|| {
                        view! {
                            <p class="scroll-cue">
                                "This run is wider than the box: scroll it sideways, or play or step, and it follows the playhead."
                            </p>
                        }
                    })
            }}
            <div class="timeline-frame" class:sequence=downward>
                <div class="timeline-scroll" node_ref=scroller tabindex="0" role="group" aria-label=label>
                    {move || {
                        drawn
                            .get()
                            .filter(|(_, d)| d.orientation == Orientation::Down)
                            .map(|(_, d)| view! { <div class="column-titles-frame">{lane_titles(&d, scale.get())}</div> })
                    }}
                    {move || {
                        drawn
                            .get()
                            .map(|(run, d)| diagram_view(ack, Named::of(ack, side), run, d, scale.get(), diverge))
                    }}
                </div>
                {move || {
                    drawn
                        .get()
                        .filter(|(_, d)| d.orientation == Orientation::Across)
                        .map(|(_, d)| lane_titles(&d, scale.get()))
                }}
            </div>
        </section>
    }
}

/// The width a sequence diagram is drawn for before its box is measured.
const SEQUENCE_FALLBACK_W: f64 = 344.0;
