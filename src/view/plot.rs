//! Every chart's drawing: series over an x axis as SVG geometry in CSS
//! pixels (grid lines and tick labels, the axes' words, shaded bands, and
//! the series as step paths, polylines or dots), coloured only by CSS
//! classes, so the page's theme and a host's custom properties restyle it.
//! A lab lays its data out into a [`Plot`]; the page draws [`Plot::markup`]
//! inside an `<svg>` (no charting library, so it is small and can be
//! written into a page before any code runs), and [`Plot::document`] is
//! the same drawing as a file.

use crate::view::num::d1;
use crate::view::timeline::export::escape;

/// A chart laid out for an SVG of `width` × `height` user units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plot {
    pub width: f64,
    pub height: f64,
    /// The plot area: left, top, right, bottom.
    pub area: (f64, f64, f64, f64),
    /// (x, label) of each tick along the x axis.
    pub x_ticks: Vec<(f64, String)>,
    /// (y, label) of each tick up the y axis.
    pub y_ticks: Vec<(f64, String)>,
    /// What the x axis measures, written under it.
    pub x_desc: String,
    /// What the y axis measures, written above it ("" for none).
    pub y_desc: String,
    /// Whether the left and bottom edges are drawn as axes.
    pub axes: bool,
    pub bands: Vec<Band>,
    /// Drawn in order: the last on top.
    pub series: Vec<Drawn>,
}

/// A shaded rectangle with its words, right-aligned inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub text: String,
}

/// One series as drawn, with the CSS class that colours it.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    pub class: String,
    pub mark: Mark,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// Path data (a step function, say).
    Path(String),
    /// A line through these points.
    Line(Vec<(f64, f64)>),
    /// A dot at each point: a reference to compare against.
    Dots(Vec<(f64, f64)>),
}

/// A linear map from data values to pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// The data value at `from.0` and at `from.1`.
    pub domain: (f64, f64),
    pub from: (f64, f64),
}

impl Scale {
    pub fn at(&self, v: f64) -> f64 {
        let (d0, d1) = self.domain;
        let span = if d1 == d0 { 1.0 } else { d1 - d0 };
        self.from.0 + (self.from.1 - self.from.0) * ((v - d0) / span)
    }
}

/// A tick step (1, 2 or 5 times a power of ten, and at least `smallest`)
/// giving at most `max_ticks` intervals over `span`.
pub fn tick_step(span: f64, max_ticks: u64, smallest: f64) -> f64 {
    let max_ticks = max_ticks.max(1);
    if !(span.is_finite() && span > 0.0) {
        return if smallest > 0.0 { smallest } else { 1.0 };
    }
    // Any step below span / max_ticks gives too many intervals: start at
    // the power of ten just under it (found by multiplying, so the bundle
    // needs no logarithms).
    let least = span / max_ticks as f64;
    let mut unit = 1.0;
    while unit > least {
        unit /= 10.0;
    }
    while unit * 10.0 <= least {
        unit *= 10.0;
    }
    let mut unit = smallest.max(unit);
    loop {
        for m in [1.0, 2.0, 5.0] {
            let step = unit * m;
            if (span / step).ceil() <= max_ticks as f64 {
                return step;
            }
        }
        unit *= 10.0;
    }
}

/// The multiples of `step` from 0 to `end` (within a rounding error).
pub fn ticks(end: f64, step: f64) -> impl Iterator<Item = f64> {
    let n = if step > 0.0 { (end / step + 1e-9).floor().max(0.0) as u64 } else { 0 };
    (0..=n).map(move |i| i as f64 * step)
}

/// A tick's label: as many decimals as its step needs (none for whole
/// steps, up to 3).
pub fn tick_label(v: f64, step: f64) -> String {
    let decimals = [1.0, 0.1, 0.01].iter().position(|&at| step >= at * (1.0 - 1e-9)).unwrap_or(3);
    crate::view::num::Fixed(v, decimals as u8).to_string()
}

fn points_attr(points: &[(f64, f64)]) -> String {
    points.iter().map(|&(x, y)| format!("{},{}", d1(x), d1(y))).collect::<Vec<_>>().join(" ")
}

impl Plot {
    /// The grid, the labels, the bands and the series as SVG elements,
    /// coloured by the stylesheet's classes (`chart-grid`, `chart-label`,
    /// `chart-axis`, `chart-gap`, `chart-line`, `chart-dots` and each
    /// series' own).
    pub fn markup(&self) -> String {
        let (left, top, right, bottom) = self.area;
        let mut out = String::new();
        for (y, label) in &self.y_ticks {
            out.push_str(&format!(
                "<path class=\"chart-grid\" d=\"M{l} {y}H{r}\"/>\
                 <text class=\"chart-label\" x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n",
                l = d1(left),
                r = d1(right),
                y = d1(*y),
                tx = d1(left - 6.0),
                ty = d1(y + 4.0)
            ));
        }
        for (x, label) in &self.x_ticks {
            out.push_str(&format!(
                "<path class=\"chart-grid\" d=\"M{x} {t}V{b}\"/>\
                 <text class=\"chart-label\" x=\"{x}\" y=\"{ly}\" text-anchor=\"middle\">{label}</text>\n",
                x = d1(*x),
                t = d1(top),
                b = d1(bottom),
                ly = d1(bottom + 16.0)
            ));
        }
        if self.axes {
            out.push_str(&format!(
                "<path class=\"chart-axis\" d=\"M{} {}V{}H{}\"/>\n",
                d1(left),
                d1(top),
                d1(bottom),
                d1(right)
            ));
        }
        for Band { x, y, w, h, text } in &self.bands {
            out.push_str(&format!(
                "<rect class=\"chart-gap\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\
                 <text class=\"chart-gap-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                d1(*x),
                d1(*y),
                d1(*w),
                d1(*h),
                d1(x + w - 6.0),
                d1(y + h / 2.0 + 4.0),
                escape(text)
            ));
        }
        out.push_str(&format!(
            "<text class=\"chart-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            d1((left + right) / 2.0),
            d1(self.height - 6.0),
            escape(&self.x_desc)
        ));
        if !self.y_desc.is_empty() {
            // Level, above the y axis' labels: it reads without turning the
            // head and fits however low the chart is.
            out.push_str(&format!(
                "<text class=\"chart-label\" x=\"8.0\" y=\"{}\">{}</text>\n",
                d1(top - 8.0),
                escape(&self.y_desc)
            ));
        }
        for Drawn { class, mark } in &self.series {
            match mark {
                Mark::Path(d) => out.push_str(&format!("<path class=\"chart-line {class}\" d=\"{d}\"/>\n")),
                Mark::Line(points) => {
                    out.push_str(&format!(
                        "<polyline class=\"chart-line {class}\" points=\"{}\"/>\n",
                        points_attr(points)
                    ));
                }
                Mark::Dots(points) => {
                    out.push_str(&format!("<g class=\"chart-dots {class}\">"));
                    for &(x, y) in points {
                        out.push_str(&format!("<circle cx=\"{}\" cy=\"{}\" r=\"3\"/>", d1(x), d1(y)));
                    }
                    out.push_str("</g>\n");
                }
            }
        }
        out
    }

    /// Path data of a vertical line across the plot area at `x` (a
    /// playhead, a marker).
    pub fn vline(&self, x: f64) -> String {
        let (_, top, _, bottom) = self.area;
        format!("M{} {}V{}", d1(x), d1(top), d1(bottom))
    }

    /// The chart as a standalone SVG document (for tests and files): the
    /// markup the page draws, the colours `style` gives its classes, and
    /// `overlay` (more elements) on top.
    pub fn document(&self, style: &str, overlay: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             font-family=\"sans-serif\" font-size=\"12\">\n<style>{style}</style>\n\
             <rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n{}{overlay}</svg>\n",
            self.markup(),
            w = d1(self.width),
            h = d1(self.height)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(tick_step(6050.0, 6, 1.0), 2000.0);
        assert_eq!(tick_step(6050.0, 7, 1.0), 1000.0);
        assert_eq!(tick_step(50.0, 10, 1.0), 5.0);
        assert_eq!(tick_step(1.0, 3, 1.0), 1.0);
        assert_eq!(tick_step(120_000.0, 2, 1.0), 100_000.0);
        assert_eq!(tick_step(1.0, 3, 0.0), 0.5, "below one without a smallest step");
        assert_eq!(tick_step(0.0, 3, 0.0), 1.0, "nothing to divide");
        assert_eq!(
            [(10.0, 5.0), (2.5, 0.5), (0.25, 0.05), (0.125, 0.005)].map(|(v, step)| tick_label(v, step)),
            ["10", "2.5", "0.25", "0.125"]
        );
        assert_eq!(ticks(6.05, 2.0).collect::<Vec<_>>(), [0.0, 2.0, 4.0, 6.0]);
        assert_eq!(ticks(0.6, 0.2).count(), 4, "0.6 / 0.2 is a hair under 3 in floats");
    }

    #[test]
    fn draws_each_kind_of_series_with_its_class() {
        let plot = Plot {
            width: 200.0,
            height: 100.0,
            area: (40.0, 10.0, 190.0, 60.0),
            x_ticks: vec![(40.0, "0".to_owned())],
            y_ticks: vec![(60.0, "0".to_owned())],
            x_desc: "clients".to_owned(),
            y_desc: "calls & <more>".to_owned(),
            axes: true,
            bands: vec![],
            series: vec![
                Drawn { class: "a".to_owned(), mark: Mark::Path("M40 60H190".to_owned()) },
                Drawn { class: "b".to_owned(), mark: Mark::Line(vec![(40.0, 60.0), (190.0, 10.0)]) },
                Drawn { class: "c".to_owned(), mark: Mark::Dots(vec![(50.0, 20.0)]) },
            ],
        };
        let m = plot.markup();
        assert!(m.contains("<path class=\"chart-line a\" d=\"M40 60H190\"/>"), "{m}");
        assert!(m.contains("<polyline class=\"chart-line b\" points=\"40.0,60.0 190.0,10.0\"/>"), "{m}");
        assert!(m.contains("<g class=\"chart-dots c\"><circle cx=\"50.0\" cy=\"20.0\" r=\"3\"/></g>"), "{m}");
        assert!(m.contains("<text class=\"chart-label\" x=\"8.0\" y=\"2.0\">calls &amp; &lt;more&gt;</text>"), "{m}");
        assert!(m.contains("<path class=\"chart-axis\" d=\"M40.0 10.0V60.0H190.0\"/>"), "{m}");
        assert_eq!(plot.vline(100.0), "M100.0 10.0V60.0");
        assert!(plot.document("", "").ends_with("</g>\n</svg>\n"));
        assert_eq!(Scale { domain: (0.0, 10.0), from: (40.0, 190.0) }.at(5.0), 115.0);
    }
}
