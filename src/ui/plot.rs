//! Every chart on the page: a `view::plot::Plot` drawn as an `<svg>` whose
//! colours are the stylesheet's classes (so themes and a host's custom
//! properties restyle it without code), laid out again when the room it is
//! drawn in changes. [`LineChartView`] shows any [`LineChart`] with its
//! HTML legend.

use leptos::prelude::*;

use crate::view::linechart::{LineChart, Stroke};
use crate::view::num::d1;
use crate::view::plot::Plot;

fn num(v: f64) -> String {
    d1(v).to_string()
}

/// A plot as SVG, named for assistive technology by `label`; `playhead`,
/// path data that moves on its own, is drawn over it.
#[component]
pub fn PlotSvg(
    plot: Signal<Plot>,
    label: Signal<String>,
    class: &'static str,
    #[prop(optional)] playhead: Option<Signal<String>>,
) -> impl IntoView {
    move || {
        let p = plot.get();
        view! {
            <svg
                class=class
                width=num(p.width)
                height=num(p.height)
                viewBox=format!("0 0 {} {}", num(p.width), num(p.height))
                role="img"
                aria-label=label
            >
                <g inner_html=p.markup()></g>
                {playhead.map(|d| view! { <path class="chart-playhead" d=d/> })}
            </svg>
        }
    }
}

/// The size (width, height) in CSS pixels of the element `frame` holds,
/// measured again when the window is resized and whenever `also` changes
/// (a chart appearing, presenter mode), a frame later, once the page has
/// been laid out. Until it is measured, and while it is hidden, `initial`.
pub fn measured(
    frame: NodeRef<leptos::html::Div>,
    initial: (f64, f64),
    also: impl Fn() + 'static,
) -> RwSignal<(f64, f64)> {
    let size = RwSignal::new(initial);
    // (A frame may come after the lab was unmounted: then nothing is there.)
    let measure = move || {
        if let Some(el) = frame.try_get_untracked().flatten() {
            let (w, h) = (f64::from(el.client_width()), f64::from(el.client_height()));
            let moved = |old: (f64, f64)| (w - old.0).abs() >= 1.0 || (h - old.1).abs() >= 1.0;
            if w > 0.0 && size.try_get_untracked().is_some_and(moved) {
                size.set((w, h));
            }
        }
    };
    let relaid = super::chrome::relayout();
    Effect::new(move |_| {
        relaid.track();
        also();
        measure();
        request_animation_frame(measure);
    });
    request_animation_frame(measure);
    size
}

/// A line chart with its HTML legend; its accessible name says in words
/// what it shows. In presenter mode everything in it is twice as large.
#[component]
pub fn LineChartView(
    /// The chart, or `None` while there is nothing to show.
    chart: Signal<Option<LineChart>>,
    /// The element id of the heading.
    id: &'static str,
    #[prop(into)] present: Signal<bool>,
) -> impl IntoView {
    let frame = NodeRef::<leptos::html::Div>::new();
    // The frame's height is the stylesheet's (lower in an embed, higher
    // when presenting).
    let size = measured(frame, (640.0, 240.0), move || {
        chart.with(|c| c.is_some());
        present.track();
    });
    let plot = Signal::derive(move || {
        let zoom = if present.get() { 2.0 } else { 1.0 };
        let (w, h) = size.get();
        chart.with(|c| c.as_ref().map(|c| c.plot(w / zoom, h / zoom)).unwrap_or_default())
    });
    let title = move || chart.with(|c| c.as_ref().map(|c| c.title.clone()).unwrap_or_default());
    let description = Signal::derive(move || chart.with(|c| c.as_ref().map(|c| c.describe()).unwrap_or_default()));
    let items = move || {
        chart.with(|c| {
            c.as_ref().map(|c| {
                c.lines
                    .iter()
                    .map(|line| {
                        let class = format!(
                            "swatch c{}{}",
                            line.colour,
                            if line.stroke == Stroke::Dots { " dots" } else { "" }
                        );
                        view! {
                            <li>
                                <span class=class></span>
                                {line.name.clone()}
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <figure class="line-chart" aria-labelledby=id hidden=move || chart.with(|c| c.is_none())>
            <figcaption id=id>{title}</figcaption>
            <ul class="chart-legend">{items}</ul>
            <div class="chart-plot" node_ref=frame>
                <PlotSvg plot label=description class="chart-svg"/>
            </div>
        </figure>
    }
}
