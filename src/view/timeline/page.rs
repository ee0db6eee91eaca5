//! The diagram as the page shows it, as markup: the same elements and
//! classes the live page's diagram has at a playhead (what is still to
//! come marked `future`, what can be chosen `clickable`), for a page
//! written before the app starts.

use std::fmt::Write;

use crate::sim::Millis;
use crate::view::num::{d0, d1};

use super::export::{column_title, escape};
use super::sequence::HEADER_H;
use super::{Diagram, Item, Orientation, Shape};

/// The width of the lane titles pinned beside the first lab's timeline,
/// and how far each title is from their left.
pub const LANE_TITLES_W: f64 = 96.0;
pub const LANE_TITLE_INSET: f64 = 8.0;

// The pieces every drawing of a diagram is made of (the page's, the risk
// page's and the exported file's).

/// The arrowhead every message ends in, as `id`.
pub fn arrowhead_defs(out: &mut String, id: &str) {
    let _ = write!(
        out,
        "<defs><marker id=\"{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path class=\"arrowhead\" d=\"M0 0L10 5L0 10z\"/>\
         </marker></defs>"
    );
}

/// Lane `i`'s band.
pub fn band(out: &mut String, d: &Diagram, i: usize) {
    let (x, y, w, h) = d.band(&d.lanes[i]);
    let _ = write!(
        out,
        "<rect class=\"lane-band lane-{i}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        d1(x),
        d1(y),
        d1(w),
        d1(h)
    );
}

/// One item: its class followed by `classes`, then `data` (attributes,
/// each after a space), its arrow ending in the marker `arrow`.
pub fn item(out: &mut String, item: &Item, classes: &str, data: &str, arrow: &str) {
    let _ = match (&item.shape, item.shape.path()) {
        (Shape::Text { x, y, text }, _) => write!(
            out,
            "<text class=\"{}{classes}\"{data} x=\"{}\" y=\"{}\">{}</text>",
            item.class,
            d1(*x),
            d1(*y),
            escape(text)
        ),
        (shape, Some(d)) => {
            let arrow = if shape.has_arrow() { format!(" marker-end=\"url(#{arrow})\"") } else { String::new() };
            write!(out, "<path class=\"{}{classes}\"{data} d=\"{d}\"{arrow}/>", item.class)
        }
        (_, None) => Ok(()),
    };
}

/// The playhead at `t`, with `attributes` (each after a space) before its
/// ends.
pub fn playhead(out: &mut String, d: &Diagram, t: Millis, attributes: &str) {
    let (x1, y1, x2, y2) = d.playhead(t);
    let _ = write!(
        out,
        "<line{attributes} class=\"playhead\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        d1(x1),
        d1(y1),
        d1(x2),
        d1(y2)
    );
}

impl Diagram {
    /// The diagram's `<svg>` with the playhead at `playhead`: its ids end
    /// in `suffix` and `title` is its accessible name.
    pub fn page_svg(&self, suffix: &str, title: &str, playhead: Millis) -> String {
        self.page_svg_scaled(suffix, title, playhead, 1.0)
    }

    /// [`Diagram::page_svg`] shown `scale` times its size (a drawing fitted
    /// to a box lower than it is tall).
    pub fn page_svg_scaled(&self, suffix: &str, title: &str, playhead: Millis, scale: f64) -> String {
        let (w, h) = (d1(self.width), d1(self.height));
        let (sw, sh) = (d1(self.width * scale), d1(self.height * scale));
        format!(
            "<svg class=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{sw}\" height=\"{sh}\" \
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
            "<title id=\"diagram-title{suffix}\">{}</title><desc id=\"diagram-desc{suffix}\">{}</desc>",
            escape(title),
            escape(&self.summary)
        );
        arrowhead_defs(&mut out, &format!("arrowhead{suffix}"));
        for i in 0..self.lanes.len() {
            band(&mut out, self, i);
        }
        let arrow = format!("arrowhead{suffix}");
        // The shapes, the playhead, then the labels (which come last), so
        // neither a line nor the playhead is ever painted over a label.
        let labels = self.items.partition_point(|it| !matches!(it.shape, Shape::Text { .. }));
        for (i, it) in self.items.iter().enumerate() {
            if i == labels {
                self::playhead(&mut out, self, playhead, "");
            }
            let future = if it.t > playhead { " future" } else { "" };
            let (clickable, record) = match it.record {
                Some(i) => (" clickable", format!(" data-record=\"{i}\"")),
                None => ("", String::new()),
            };
            item(&mut out, it, &format!("{future}{clickable}"), &format!(" data-t=\"{}\"{record}", it.t.ms()), &arrow);
        }
        if labels == self.items.len() {
            self::playhead(&mut out, self, playhead, "");
        }
        out
    }

    /// The lane titles pinned beside a timeline (`width` wide, each title
    /// `inset` from its left), or the column titles above a sequence
    /// diagram, drawn `scale` times as large.
    pub fn lane_titles_svg(&self, width: f64, inset: f64, scale: f64) -> String {
        let mut out = String::new();
        let (w, h) = match self.orientation {
            Orientation::Down => (self.width, HEADER_H),
            Orientation::Across => (width, self.height),
        };
        let class = if self.orientation == Orientation::Down { "column-titles" } else { "lane-titles" };
        let _ = write!(
            out,
            "<svg class=\"{class}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" aria-hidden=\"true\">",
            d1(w * scale),
            d1(h * scale),
            d1(w),
            d1(h)
        );
        match self.orientation {
            Orientation::Down => {
                out.push_str("<rect class=\"column-titles-bg\" width=\"100%\" height=\"100%\"/>");
                for band in self.lanes.iter().skip(1) {
                    out.push_str(&column_title(band));
                }
            }
            Orientation::Across => {
                for (i, band) in self.lanes.iter().enumerate() {
                    let _ = write!(
                        out,
                        "<rect class=\"lane-band lane-{i}\" x=\"0\" y=\"{}\" width=\"100%\" height=\"{}\"/>\
                         <text class=\"lane-title\" x=\"{}\" y=\"{}\">{}</text>",
                        d1(band.top),
                        d1(band.height),
                        d0(inset),
                        d1(band.top + 16.0),
                        escape(&band.title)
                    );
                }
            }
        }
        out.push_str("</svg>");
        out
    }
}
