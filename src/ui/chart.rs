//! The chart, drawn by `view::chart` onto a canvas at the screen's pixel
//! density, redrawn when the run, the playhead or the theme changes.
//!
//! Two things keep it working under a strict Content-Security-Policy:
//! text is measured with the canvas's own `measureText` (plotters' browser
//! font code would insert an inline-styled element), and the legend is HTML.
//! Colours are read from the page's stylesheet, so a host's custom
//! properties restyle the chart too.

use leptos::prelude::*;
use plotters::prelude::{IntoDrawingArea, RGBColor};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;

use super::canvas::{MeasuredCanvas, computed};

use crate::view::chart::{ChartData, LIGHT, Palette, draw};
use crate::view::url::Theme;

use super::dom;
use super::state::Lab;

const HEIGHT_CSS_PX: f64 = 240.0;

/// The chart's colours as the stylesheet currently resolves them.
fn palette_from(canvas: &web_sys::Element, legend: &web_sys::Element) -> Palette {
    let swatch = |class: &str| legend.query_selector(&format!(".swatch.{class}")).ok().flatten();
    let from = |el: Option<web_sys::Element>, fallback: RGBColor| {
        el.and_then(|e| computed(&e, "background-color")).unwrap_or(fallback)
    };
    Palette {
        background: computed(canvas, "background-color").unwrap_or(LIGHT.background),
        text: computed(canvas, "color").unwrap_or(LIGHT.text),
        grid: computed(canvas, "border-top-color").unwrap_or(LIGHT.grid),
        counter: from(swatch("counter"), LIGHT.counter),
        received: from(swatch("received"), LIGHT.received),
        playhead: from(swatch("playhead"), LIGHT.playhead),
    }
}

#[component]
pub fn Chart(lab: Lab) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let legend = NodeRef::<leptos::html::Ul>::new();
    let data = Memo::new(move |_| lab.run.with(|run| ChartData::of(run)));
    // Reading computed styles forces the browser to recompute styles, so the
    // palette is read once per theme rather than on every frame.
    let palette_cache = StoredValue::new(None::<((Theme, bool), Palette)>);
    // The canvas is drawn at its displayed size, so a new size means a redraw.
    let resized = RwSignal::new(0u32);
    let listener = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    Effect::new(move |_| {
        resized.track();
        let t = lab.playhead.get();
        let theme = (lab.theme.get(), dom::prefers_dark());
        let hidden = lab.answer_hidden();
        let (Some(el), Some(legend)) = (canvas.get(), legend.get()) else {
            return;
        };
        let scale = dom::device_pixel_ratio();
        let width = (f64::from(el.client_width()).max(240.0) * scale).round() as u32;
        let height = (HEIGHT_CSS_PX * scale).round() as u32;
        if el.width() != width {
            el.set_width(width);
        }
        if el.height() != height {
            el.set_height(height);
        }
        let Some(context) =
            el.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let palette = match palette_cache.get_value() {
            Some((key, palette)) if key == theme => palette,
            _ => {
                let palette = palette_from(&el, &legend);
                palette_cache.set_value(Some((theme, palette)));
                palette
            }
        };
        let Some(inner) = CanvasBackend::with_canvas_object(el.clone()) else {
            return;
        };
        let area = MeasuredCanvas { inner, context }.into_drawing_area();
        if hidden {
            // An experiment is waiting for a prediction: show nothing yet.
            let _ = area.fill(&palette.background);
            return;
        }
        data.with(|d| {
            // A failed draw leaves a blank chart; the text description still holds.
            let _ = draw(&area, d, t, &palette, scale, false);
        });
    });
    let description = move || {
        if lab.answer_hidden() {
            "Chart hidden until you make your prediction.".to_owned()
        } else {
            data.with(|d| d.describe())
        }
    };
    view! {
        <section class="panel chart" aria-labelledby="chart-h">
            <h2 id="chart-h">"Counter and client successes over time"</h2>
            <ul class="chart-legend" node_ref=legend>
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
            </ul>
            <canvas node_ref=canvas class="chart-canvas" role="img" aria-label=description></canvas>
        </section>
    }
}
