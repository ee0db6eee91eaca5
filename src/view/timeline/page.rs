//! The diagram as the page shows it, as markup: the same elements and
//! classes the live page's diagram has at a playhead (what is still to
//! come marked `future`, what can be chosen `clickable`), for a page
//! written before the app starts.

use std::fmt::Write;

use crate::sim::Millis;
use crate::view::num::d1;

use super::export::{column_title, escape};
use super::{Diagram, Orientation, Shape};

/// The width of the lane titles pinned beside a timeline.
pub const LANE_TITLES_W: f64 = 96.0;

impl Diagram {
    /// The diagram's `<svg>` with the playhead at `playhead`: its ids end
    /// in `suffix` and `title` is its accessible name.
    pub fn page_svg(&self, suffix: &str, title: &str, playhead: Millis) -> String {
        let (w, h) = (d1(self.width), d1(self.height));
        format!(
            "<svg class=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"diagram-title{suffix} diagram-desc{suffix}\">{}</svg>",
            self.page_svg_body(suffix, title, playhead)
        )
    }

    /// What [`Diagram::page_svg`] holds: the title and description, the
    /// arrowhead, the lanes, the items and the playhead. Each item that
    /// shows a moment carries it as `data-t` (model milliseconds), and one
    /// that shows a record its index as `data-record`, so a page can mark
    /// the future and answer clicks without an element of its own per item.
    pub fn page_svg_body(&self, suffix: &str, title: &str, playhead: Millis) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<title id=\"diagram-title{suffix}\">{}</title><desc id=\"diagram-desc{suffix}\">{}</desc>\
             <defs><marker id=\"arrowhead{suffix}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
             markerHeight=\"7\" orient=\"auto-start-reverse\"><path class=\"arrowhead\" d=\"M0 0L10 5L0 10z\"/>\
             </marker></defs>",
            escape(title),
            escape(&self.summary)
        );
        for (i, band) in self.lanes.iter().enumerate() {
            let (x, y, w, h) = self.band(band);
            let _ = write!(
                out,
                "<rect class=\"lane-band lane-{i}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                d1(x),
                d1(y),
                d1(w),
                d1(h)
            );
        }
        for item in &self.items {
            let future = if item.t > playhead { " future" } else { "" };
            let (clickable, record) = match item.record {
                Some(i) => (" clickable", format!(" data-record=\"{i}\"")),
                None => ("", String::new()),
            };
            let open = format!("class=\"{}{future}{clickable}\" data-t=\"{}\"{record}", item.class, item.t.ms());
            let _ = match (&item.shape, item.shape.path()) {
                (Shape::Text { x, y, text }, _) => {
                    write!(out, "<text {open} x=\"{}\" y=\"{}\">{}</text>", d1(*x), d1(*y), escape(text))
                }
                (shape, Some(d)) => {
                    let arrow = if shape.has_arrow() {
                        format!(" marker-end=\"url(#arrowhead{suffix})\"")
                    } else {
                        String::new()
                    };
                    write!(out, "<path {open} d=\"{d}\"{arrow}/>")
                }
                (_, None) => Ok(()),
            };
        }
        let (x1, y1, x2, y2) = self.playhead(playhead);
        let _ = write!(
            out,
            "<line class=\"playhead\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            d1(x1),
            d1(y1),
            d1(x2),
            d1(y2)
        );
        out
    }

    /// The lane titles pinned beside a timeline, or the column titles
    /// above a sequence diagram, drawn `scale` times as large.
    pub fn lane_titles_svg(&self, scale: f64) -> String {
        let mut out = String::new();
        match self.orientation {
            Orientation::Down => {
                let titles: String = self.lanes.iter().skip(1).map(column_title).collect();
                let h = super::sequence::HEADER_H;
                let _ = write!(
                    out,
                    "<svg class=\"column-titles\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" aria-hidden=\"true\">\
                     <rect class=\"column-titles-bg\" width=\"100%\" height=\"100%\"/>{titles}</svg>",
                    d1(self.width * scale),
                    d1(h * scale),
                    d1(self.width),
                    d1(h)
                );
            }
            Orientation::Across => {
                let _ = write!(
                    out,
                    "<svg class=\"lane-titles\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" aria-hidden=\"true\">",
                    d1(LANE_TITLES_W * scale),
                    d1(self.height * scale),
                    d1(LANE_TITLES_W),
                    d1(self.height)
                );
                for (i, band) in self.lanes.iter().enumerate() {
                    let _ = write!(
                        out,
                        "<rect class=\"lane-band lane-{i}\" x=\"0\" y=\"{}\" width=\"100%\" height=\"{}\"/>\
                         <text class=\"lane-title\" x=\"8\" y=\"{}\">{}</text>",
                        d1(band.top),
                        d1(band.height),
                        d1(band.top + 16.0),
                        escape(&band.title)
                    );
                }
                out.push_str("</svg>");
            }
        }
        out
    }
}
