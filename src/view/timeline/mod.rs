//! The run's diagram as geometry: lanes (given by each lab from its
//! actors) and labels that never overlap, in one of two layouts: the
//! timeline (time running left to right, a lane per row) or the sequence
//! (time running downward, a lane per column, for narrow screens).
//!
//! - [`axis`]: the piecewise time axis (every event time gets a stop).
//! - [`packing`]: rows for labels and for bars that overlap in time.
//! - [`layout`]: the builder a lab draws with, and the timeline's layout.
//! - [`sequence`]: the sequence layout of the same drawing.
//! - [`export`]: the same items as a standalone SVG file.
//!
//! The browser renders the items as SVG elements; [`export`] renders the
//! same items as a file, so both always agree.

pub mod axis;
pub mod export;
pub mod layout;
pub mod packing;
pub mod page;
pub mod sequence;

use crate::sim::Millis;
use crate::view::num::d1;

pub use export::escape;
pub use layout::{Builder, Frame, LaneStyle, Y};

/// The scale a diagram `height` units high is drawn at to fit `room`
/// pixels (never larger, and never below half: a smaller drawing could not
/// be read), or 1 where there is no room to fit.
pub fn fit_scale(height: f64, room: Option<f64>) -> f64 {
    match room {
        Some(room) if height > room && height > 0.0 => (room / height).clamp(0.5, 1.0),
        _ => 1.0,
    }
}

/// Width of one character of the diagram's 12 px monospace font, rounded up.
pub const CHAR_W: f64 = 7.4;

/// Under a diagram wider than its box.
pub const SCROLL_CUE: &str =
    "This run is wider than the box: scroll it sideways, or play or step, and it follows the playhead.";
/// Height of one row of labels.
pub const LABEL_H: f64 = 16.0;
/// Left edge of the drawing, right of the lane titles.
pub const LEFT: f64 = 104.0;
/// How far past the end a continuing bar (a stored result, a deadline) is drawn.
pub const OVERFLOW: f64 = 56.0;

/// One lane of the diagram, from one of the model's actors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneSpec {
    pub title: String,
    /// At most three characters, for a narrow column (the full title is in
    /// the diagram's description).
    pub short: String,
    pub style: LaneStyle,
}

/// Which way time runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orientation {
    /// Left to right, a lane per row: the timeline.
    #[default]
    Across,
    /// Downward, a lane per column: the sequence diagram.
    Down,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Dot,
    Cross,
    Tick,
    Diamond,
    Bar,
    /// A short rule across a column (the sequence layout's `Bar`).
    Rule,
    /// A ring around a mark: where something went wrong.
    Ring,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Line { x1: f64, y1: f64, x2: f64, y2: f64, arrow: bool },
    Rect { x: f64, y: f64, w: f64, h: f64 },
    Text { x: f64, y: f64, text: String },
    Mark { x: f64, y: f64, glyph: Glyph },
}

impl Shape {
    /// SVG path data for everything but text: lines, bars and marks are all
    /// drawn as paths, so a renderer needs only two kinds of element.
    pub fn path(&self) -> Option<String> {
        match self {
            Shape::Line { x1, y1, x2, y2, .. } => Some(format!("M{} {}L{} {}", d1(*x1), d1(*y1), d1(*x2), d1(*y2))),
            Shape::Rect { x, y, w, h } => Some(format!("M{} {}h{}v{}h{}z", d1(*x), d1(*y), d1(*w), d1(*h), d1(-w))),
            Shape::Mark { x, y, glyph } => Some(glyph_path(*glyph, *x, *y)),
            Shape::Text { .. } => None,
        }
    }

    pub fn has_arrow(&self) -> bool {
        matches!(self, Shape::Line { arrow: true, .. })
    }
}

/// One drawn thing. `t` is when it happens (the browser fades what lies
/// after the playhead); `record` is the event it shows, if any (clicking it
/// moves the playhead there).
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub shape: Shape,
    pub class: &'static str,
    pub t: Millis,
    pub record: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LaneBand {
    pub title: String,
    /// What a sequence diagram's column header shows: the title, or its
    /// short form where the column is too narrow.
    pub short: String,
    /// Across: the lane's top and height; down: its column's left and width.
    pub top: f64,
    pub height: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub width: f64,
    pub height: f64,
    pub lanes: Vec<LaneBand>,
    pub items: Vec<Item>,
    /// (model time, x) for every stop of the axis.
    pub stops: Vec<(Millis, f64)>,
    pub end: Millis,
    /// A one-sentence summary for the diagram's accessible description.
    pub summary: String,
    pub orientation: Orientation,
}

impl Diagram {
    /// Where model time `t` is along the time axis (clamped to the drawn
    /// range): an x across, a y down.
    pub fn along(&self, t: Millis) -> f64 {
        axis::x_at(&self.stops, t.min(self.end))
    }

    /// The playhead at `t`: a line across the lanes, (x1, y1, x2, y2).
    pub fn playhead(&self, t: Millis) -> (f64, f64, f64, f64) {
        let p = self.along(t);
        match self.orientation {
            Orientation::Across => (p, 0.0, p, self.height),
            Orientation::Down => (0.0, p, self.width, p),
        }
    }

    /// The rectangle of the run after `t`, (x, y, w, h): what a veil over
    /// the future covers.
    pub fn after(&self, t: Millis) -> (f64, f64, f64, f64) {
        let p = self.along(t);
        match self.orientation {
            Orientation::Across => (p, 0.0, (self.width - p).max(0.0), self.height),
            Orientation::Down => (0.0, p, self.width, (self.height - p).max(0.0)),
        }
    }

    /// A lane's band as a rectangle, (x, y, w, h).
    pub fn band(&self, band: &LaneBand) -> (f64, f64, f64, f64) {
        match self.orientation {
            Orientation::Across => (0.0, band.top, self.width, band.height),
            Orientation::Down => (band.top, 0.0, band.height, self.height),
        }
    }

    /// Every label with its position, for tests and checks.
    pub fn texts(&self) -> Vec<(&str, f64, f64)> {
        self.items
            .iter()
            .filter_map(|i| match &i.shape {
                Shape::Text { x, y, text } => Some((text.as_str(), *x, *y)),
                _ => None,
            })
            .collect()
    }

    /// Labels that overlap another in the same row or leave the picture;
    /// empty for every diagram the builder makes.
    pub fn label_collisions(&self) -> Vec<String> {
        let labels = self.texts();
        let mut found = Vec::new();
        for (a, (ta, xa, ya)) in labels.iter().enumerate() {
            let wa = ta.chars().count() as f64 * CHAR_W;
            if xa + wa > self.width {
                found.push(format!("{ta:?} runs off the right edge"));
            }
            if *ya > self.height || *xa < 0.0 {
                found.push(format!("{ta:?} lies outside the picture"));
            }
            for (tb, xb, yb) in labels.iter().skip(a + 1) {
                let wb = tb.chars().count() as f64 * CHAR_W;
                let same_row = (ya - yb).abs() < LABEL_H - 0.5;
                if same_row && *xa < xb + wb && *xb < xa + wa {
                    found.push(format!("{ta:?} at ({xa},{ya}) overlaps {tb:?} at ({xb},{yb})"));
                }
            }
        }
        found
    }
}

/// The path of a small glyph centred on (x, y).
fn glyph_path(glyph: Glyph, x: f64, y: f64) -> String {
    match glyph {
        Glyph::Dot => format!("M{} {}a5 5 0 1 0 10 0a5 5 0 1 0 -10 0z", d1(x - 5.0), d1(y)),
        Glyph::Cross => format!(
            "M{} {}L{} {}M{} {}L{} {}",
            d1(x - 6.0),
            d1(y - 6.0),
            d1(x + 6.0),
            d1(y + 6.0),
            d1(x - 6.0),
            d1(y + 6.0),
            d1(x + 6.0),
            d1(y - 6.0)
        ),
        Glyph::Tick => {
            format!("M{} {}L{} {}L{} {}", d1(x - 6.0), d1(y), d1(x - 2.0), d1(y + 5.0), d1(x + 6.0), d1(y - 6.0))
        }
        Glyph::Diamond => {
            let (x, y) = (d1(x), d1(y));
            format!("M{x} {}L{} {y}L{x} {}L{} {y}z", d1(y.0 - 7.0), d1(x.0 + 7.0), d1(y.0 + 7.0), d1(x.0 - 7.0))
        }
        Glyph::Bar => format!("M{} {}L{} {}", d1(x), d1(y - 9.0), d1(x), d1(y + 9.0)),
        Glyph::Rule => format!("M{} {}L{} {}", d1(x - 9.0), d1(y), d1(x + 9.0), d1(y)),
        Glyph::Ring => format!("M{} {}a12 12 0 1 0 24 0a12 12 0 1 0 -24 0z", d1(x - 12.0), d1(y)),
    }
}

#[cfg(test)]
mod collision_tests {
    use super::*;

    fn with_labels(labels: &[(&str, f64, f64)]) -> Diagram {
        let items = labels
            .iter()
            .map(|&(text, x, y)| Item {
                shape: Shape::Text { x, y, text: text.to_owned() },
                class: "label",
                t: Millis::ZERO,
                record: None,
            })
            .collect();
        Diagram {
            width: 300.0,
            height: 100.0,
            lanes: Vec::new(),
            items,
            stops: Vec::new(),
            end: Millis::ZERO,
            summary: String::new(),
            orientation: Orientation::Across,
        }
    }

    /// The check the diagram tests rely on finds what it looks for: ten
    /// characters are 74 units wide, so a label 70 units on in the same
    /// row (5 units lower, under a row's 16) overlaps by 4, one 74 on just
    /// meets, and one a row (16 units) lower is clear.
    #[test]
    fn label_collisions_finds_an_overlap_and_a_label_off_the_picture() {
        assert_eq!(
            with_labels(&[("0123456789", 10.0, 20.0), ("abc", 84.0, 20.0), ("def", 10.0, 36.0)]).label_collisions(),
            Vec::<String>::new()
        );
        assert_eq!(
            with_labels(&[("0123456789", 10.0, 20.0), ("abc", 80.0, 25.0)]).label_collisions(),
            ["\"0123456789\" at (10,20) overlaps \"abc\" at (80,25)"]
        );
        // 40 characters from 20 end at 316, past the width of 300.
        assert_eq!(
            with_labels(&[(&"x".repeat(40), 20.0, 20.0)]).label_collisions(),
            [format!("{:?} runs off the right edge", "x".repeat(40))]
        );
        assert_eq!(with_labels(&[("a", 20.0, 120.0)]).label_collisions(), ["\"a\" lies outside the picture"]);
    }
}
