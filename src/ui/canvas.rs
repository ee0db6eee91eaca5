//! Drawing plotters charts on a canvas under a strict Content-Security-
//! Policy: text is measured with the canvas's own `measureText` (plotters'
//! browser font code would insert an inline-styled element), legends are
//! HTML, and colours are read from the page's stylesheet, so a host's custom
//! properties restyle the charts too. [`LineChartView`] shows any
//! [`LineChart`].

use leptos::prelude::*;
use plotters::prelude::{IntoDrawingArea, RGBColor};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;

use crate::view::linechart::{ChartColours, LineChart, Stroke, default_colours, draw_lines};
use crate::view::page::Theme;

use super::dom;

/// A canvas backend that measures text with the canvas itself.
pub struct MeasuredCanvas {
    pub inner: CanvasBackend,
    pub context: web_sys::CanvasRenderingContext2d,
}

type CanvasErr = <CanvasBackend as DrawingBackend>::ErrorType;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasErr;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_path(path, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasErr>> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasErr>> {
        let size = style.size();
        self.context.set_font(&format!("{size}px {}", style.family().as_str()));
        let width = self.context.measure_text(text).map_or(text.chars().count() as f64 * size * 0.6, |m| m.width());
        Ok((width.ceil() as u32, size.ceil() as u32))
    }
}

/// Parses a computed colour such as "rgb(34, 107, 66)" or "rgba(0, 0, 0, 0.5)".
/// A fully transparent colour (no stylesheet, or a host that unset it) is
/// no colour at all: the caller falls back to the built-in palette.
fn parse_rgb(css: &str) -> Option<RGBColor> {
    let inner = css.trim().strip_prefix("rgba(").or_else(|| css.trim().strip_prefix("rgb("))?.strip_suffix(')')?;
    let numbers: Vec<f64> = inner
        .split([',', ' ', '/'])
        .filter(|p| !p.is_empty())
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .ok()?;
    if numbers.len() < 3 || numbers.get(3).is_some_and(|&alpha| alpha == 0.0) {
        return None;
    }
    let channel = |v: f64| v.clamp(0.0, 255.0).round() as u8;
    Some(RGBColor(channel(numbers[0]), channel(numbers[1]), channel(numbers[2])))
}

pub fn computed(element: &web_sys::Element, property: &str) -> Option<RGBColor> {
    let style = dom::window()?.get_computed_style(element).ok()??;
    parse_rgb(&style.get_property_value(property).ok()?)
}

/// The canvas's 2D context, sized to its displayed width at the screen's
/// density and `height_css` pixels tall; with the scale used.
pub fn prepare(el: &web_sys::HtmlCanvasElement, height_css: f64) -> Option<(MeasuredCanvas, f64)> {
    let scale = dom::device_pixel_ratio();
    let width = (f64::from(el.client_width()).max(240.0) * scale).round() as u32;
    let height = (height_css * scale).round() as u32;
    if el.width() != width {
        el.set_width(width);
    }
    if el.height() != height {
        el.set_height(height);
    }
    let context =
        el.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())?;
    let inner = CanvasBackend::with_canvas_object(el.clone())?;
    Some((MeasuredCanvas { inner, context }, scale))
}

/// A line chart's colours as the stylesheet resolves them: the canvas's
/// own colours, and the legend's swatches `.swatch.c0`, `.swatch.c1`, ...
fn colours_from(canvas: &web_sys::Element, legend: &web_sys::Element) -> ChartColours {
    let fallback = default_colours();
    let lines = (0..fallback.lines.len())
        .map(|i| {
            legend
                .query_selector(&format!(".swatch.c{i}"))
                .ok()
                .flatten()
                .and_then(|e| computed(&e, "background-color"))
                .unwrap_or(fallback.lines[i])
        })
        .collect();
    ChartColours {
        background: computed(canvas, "background-color").unwrap_or(fallback.background),
        text: computed(canvas, "color").unwrap_or(fallback.text),
        grid: computed(canvas, "border-top-color").unwrap_or(fallback.grid),
        lines,
    }
}

const LINE_CHART_HEIGHT: f64 = 260.0;

/// A line chart with its HTML legend; its accessible name says in words
/// what it shows.
#[component]
pub fn LineChartView(
    /// The chart, or `None` while there is nothing to show.
    chart: Signal<Option<LineChart>>,
    /// The element id of the heading.
    id: &'static str,
    theme: RwSignal<Theme>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let legend = NodeRef::<leptos::html::Ul>::new();
    let resized = super::chrome::relayout();
    Effect::new(move |_| {
        resized.track();
        theme.track();
        chart.with(|chart| {
            let (Some(el), Some(legend), Some(chart)) = (canvas.get(), legend.get(), chart.as_ref()) else {
                return;
            };
            // On a projector (presenter mode) its text is twice as large,
            // as every text there is; in an embed's small frame it is lower.
            let within = |selector: &str| el.closest(selector).ok().flatten().is_some();
            // (The heights are the stylesheet's for the canvas there.)
            let (zoom, height): (f64, f64) = if within(".app.present") {
                (2.0, 320.0)
            } else if within(".app.embed") {
                (1.0, 140.0)
            } else {
                (1.0, LINE_CHART_HEIGHT)
            };
            let Some((backend, scale)) = prepare(&el, height) else {
                return;
            };
            let colours = colours_from(&el, &legend);
            // A failed draw leaves a blank chart; its description still holds.
            let _ = draw_lines(&backend.into_drawing_area(), chart, &colours, scale * zoom);
        });
    });
    let title = move || chart.with(|c| c.as_ref().map(|c| c.title.clone()).unwrap_or_default());
    let description = move || chart.with(|c| c.as_ref().map(|c| c.describe()).unwrap_or_default());
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
            <ul class="chart-legend" node_ref=legend>{items}</ul>
            <canvas node_ref=canvas class="chart-canvas" role="img" aria-label=description></canvas>
        </figure>
    }
}
