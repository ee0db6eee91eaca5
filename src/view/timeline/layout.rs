//! The builder a lab draws its run with, and the vertical layout that turns
//! lanes, label rows and bar rows into positions.

use crate::sim::Millis;

use super::axis;
use super::packing::{LABEL_PAD, Rows};
use super::{CHAR_W, Diagram, Glyph, Item, LABEL_H, LEFT, LaneBand, LaneSpec, OVERFLOW, Shape};

const BAR_H: f64 = 10.0;
/// Vertical distance between rows of bars that overlap in time.
const BAR_STEP: f64 = 14.0;

/// How a lane places its labels around its track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneStyle {
    /// The time axis: labels in rows, the track at the bottom.
    Axis,
    /// Labels above the track (an initiator, such as a client).
    LabelsAbove,
    /// A gap lanes' messages cross; labels inside, the track in the middle.
    Between,
    /// The track at the top, bars below it, then labels.
    LabelsBelow,
}

/// A vertical position not known until every lane's rows are counted.
#[derive(Clone, Copy, Debug)]
pub enum Y {
    Track(usize),
    /// Row `n` of a lane's bars (row 0 is the track).
    Bar(usize, usize),
    Label(usize, usize),
}

#[derive(Clone, Debug)]
pub(super) enum Pending {
    Line {
        x1: f64,
        y1: Y,
        x2: f64,
        y2: Y,
        arrow: bool,
    },
    Bar {
        x1: f64,
        x2: f64,
        y: Y,
    },
    Text {
        x: f64,
        y: Y,
        text: String,
    },
    Mark {
        x: f64,
        y: Y,
        glyph: Glyph,
    },
    Gridline {
        x: f64,
    },
    /// A band across one lane, from `x1` to `x2`.
    Spot {
        lane: usize,
        x1: f64,
        x2: f64,
    },
}

/// The box a diagram is drawn for, and its layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Frame {
    /// The timeline, fitted to a width where one is given.
    Across(Option<f64>),
    /// The timeline fitted to a width, each lane as low as its labels and
    /// bars allow: where the whole run must fit one screen or one frame
    /// (presenter mode, an embed).
    Tight(f64),
    /// The sequence diagram, for a box this wide.
    Down(f64),
}

impl Frame {
    /// The width an exported sequence diagram is drawn for.
    pub const EXPORT_DOWN_W: f64 = 480.0;

    /// The frame of an exported diagram: the layout on screen, at its
    /// natural size.
    pub fn export(downward: bool) -> Frame {
        if downward { Frame::Down(Frame::EXPORT_DOWN_W) } else { Frame::Across(None) }
    }
}

/// Collects what a lab draws, then lays it out.
pub struct Builder {
    pub(super) lanes: Vec<LaneSpec>,
    /// Positions along the time axis (the timeline's x).
    pub(super) stops: Vec<(Millis, f64)>,
    pub(super) end: Millis,
    pub(super) pending: Vec<(Pending, &'static str, Millis, Option<usize>)>,
    labels: Vec<Rows>,
    bars: Vec<Rows>,
    right_edge: f64,
    /// The width to fit in, if the timeline is drawn for a box.
    fit: Option<f64>,
    /// The sequence diagram's width, if it is one.
    down: Option<f64>,
    /// Lanes as low as their contents allow ([`Frame::Tight`]).
    tight: bool,
}

/// Room kept right of the last label in a fitted diagram.
const FIT_MARGIN: f64 = 8.0;

impl Builder {
    /// A diagram of `lanes` (lane 0 must be the axis) with a stop at every
    /// one of `times`, ending at `end`. The axis is drawn at once.
    pub fn new(lanes: Vec<LaneSpec>, times: Vec<Millis>, end: Millis) -> Builder {
        Builder::fitted(lanes, times, end, None)
    }

    /// A diagram drawn to fit `width` where it can: idle stretches are
    /// squeezed behind break marks, and a label that would run past the
    /// right edge ends there instead of starting at its event. A run with
    /// too many events for the width is drawn wider (the page scrolls it).
    pub fn fitted(lanes: Vec<LaneSpec>, times: Vec<Millis>, end: Millis, width: Option<f64>) -> Builder {
        Builder::framed(lanes, times, end, Frame::Across(width))
    }

    /// A diagram drawn for `frame`: the sequence layout draws the same
    /// calls on its own axis, so it takes the timeline's natural one.
    pub fn framed(lanes: Vec<LaneSpec>, times: Vec<Millis>, end: Millis, frame: Frame) -> Builder {
        let (width, down) = match frame {
            Frame::Across(width) => (width, None),
            Frame::Tight(width) => (Some(width), None),
            Frame::Down(width) => (None, Some(width)),
        };
        debug_assert_eq!(lanes.first().map(|l| l.style), Some(LaneStyle::Axis));
        // The last stop leaves room for what continues past the end.
        let span = width.map(|w| w - LEFT - OVERFLOW - 24.0);
        let (stops, squeezed) = axis::stops(times, span);
        let n = lanes.len();
        let mut b = Builder {
            lanes,
            stops,
            end,
            pending: Vec::new(),
            labels: vec![Rows::default(); n],
            bars: vec![Rows::default(); n],
            right_edge: 0.0,
            fit: width,
            down,
            tight: matches!(frame, Frame::Tight(_)),
        };
        // A gridline and a time label at every stop.
        for (t, x) in b.stops.clone() {
            b.pending.push((Pending::Gridline { x }, "gridline", t, None));
            b.label(0, x - 2.0, t.to_string(), "axis-label", t, None);
        }
        // A squeezed stretch says how long it is, where there is room.
        for q in squeezed {
            let long = format!("≈ {}", q.idle);
            let text = if long.chars().count() as f64 * CHAR_W + 8.0 < q.gap { long } else { "≈".to_owned() };
            let x = q.x - text.chars().count() as f64 * CHAR_W / 2.0;
            b.label(0, x, text, "axis-break", q.until, None);
        }
        b
    }

    pub fn end(&self) -> Millis {
        self.end
    }

    pub fn x(&self, t: Millis) -> f64 {
        axis::x_at(&self.stops, t)
    }

    /// Like `x`, but times past the end stop just beyond it.
    pub fn x_clamped(&self, t: Millis) -> f64 {
        if t > self.end { self.x(self.end) + OVERFLOW } else { self.x(t) }
    }

    pub fn line(
        &mut self,
        from: (f64, Y),
        to: (f64, Y),
        arrow: bool,
        class: &'static str,
        t: Millis,
        record: Option<usize>,
    ) {
        let line = Pending::Line { x1: from.0, y1: from.1, x2: to.0, y2: to.1, arrow };
        self.pending.push((line, class, t, record));
    }

    pub fn mark(&mut self, x: f64, y: Y, glyph: Glyph, class: &'static str, t: Millis, record: Option<usize>) {
        self.pending.push((Pending::Mark { x, y, glyph }, class, t, record));
    }

    /// A bar from `x1` to `x2` on `y`.
    pub fn bar(&mut self, x1: f64, x2: f64, y: Y, class: &'static str, t: Millis, record: Option<usize>) {
        self.pending.push((Pending::Bar { x1, x2, y }, class, t, record));
    }

    /// A band across the whole of `lane` from `x1` to `x2` (it marks a place
    /// in the lane, behind what is drawn there).
    pub fn spot(&mut self, lane: usize, x1: f64, x2: f64, class: &'static str, t: Millis, record: Option<usize>) {
        self.pending.insert(0, (Pending::Spot { lane, x1, x2 }, class, t, record));
    }

    /// The first row of bars in `lane` free from `x1` on, now taken to `x2`.
    pub fn bar_row(&mut self, lane: usize, x1: f64, x2: f64) -> usize {
        self.bars[lane].take(x1, x2, -0.5)
    }

    /// Places a label starting at `x` in the first row of `lane` where it
    /// overlaps nothing.
    pub fn label(&mut self, lane: usize, x: f64, text: String, class: &'static str, t: Millis, record: Option<usize>) {
        let width = text.chars().count() as f64 * CHAR_W;
        // In a fitted diagram a label that would run past the edge ends
        // there, still over its event.
        // (Where the axis itself runs past the width, the diagram is drawn
        // wider anyway, and a label stays at its event.)
        let axis_fits = self.fit.is_some_and(|fit| self.stops.last().is_none_or(|s| s.1 + OVERFLOW + 24.0 <= fit));
        let x = match self.fit {
            Some(fit) if axis_fits && x + width > fit - FIT_MARGIN => (fit - FIT_MARGIN - width).max(LEFT).min(x),
            _ => x,
        };
        let row = self.labels[lane].take(x, x + width, LABEL_PAD);
        self.right_edge = self.right_edge.max(x + width);
        self.pending.push((Pending::Text { x, y: Y::Label(lane, row), text }, class, t, record));
    }

    /// Lays everything out: as a timeline, top to bottom, or as the
    /// sequence diagram it was framed for.
    pub fn finish(self, summary: String) -> Diagram {
        match self.down {
            Some(width) => super::sequence::lay_out(self, summary, width),
            None => self.across(summary),
        }
    }

    fn across(self, summary: String) -> Diagram {
        let label_rows = |lane: usize| self.labels[lane].len().max(1) as f64;
        // Extra rows of bars below a lane's track push its labels down.
        let extra = |lane: usize| self.bars[lane].len().saturating_sub(1) as f64 * BAR_STEP;
        let mut bands = Vec::with_capacity(self.lanes.len());
        // Per lane: (track y, first label row's y).
        let mut places = Vec::with_capacity(self.lanes.len());
        let mut top = 0.0;
        // The room a lane keeps around its labels and track: less in a
        // tight frame, where the whole run must fit.
        let (pad, between_min) = if self.tight { (6.0, 28.0) } else { (12.0, 56.0) };
        // Between the last row of labels above a track and the track.
        let above = if self.tight { 4.0 } else { 8.0 };
        for (i, lane) in self.lanes.iter().enumerate() {
            let rows = label_rows(i);
            let (height, track, labels) = match lane.style {
                LaneStyle::Axis => {
                    let h = rows * LABEL_H + pad - 2.0;
                    (h, top + h - 2.0, top + 13.0)
                }
                LaneStyle::LabelsAbove => {
                    let track = top + rows * LABEL_H + pad + above;
                    (track + pad - 4.0 - top, track, top + 14.0)
                }
                LaneStyle::Between => {
                    let h = (rows * LABEL_H + 2.0 * pad).max(between_min);
                    (h, top + h / 2.0, top + 14.0)
                }
                LaneStyle::LabelsBelow => {
                    let track = top + pad;
                    // Under the last row, room for its descenders.
                    let foot = if self.tight { 4.0 } else { pad };
                    let h = pad + extra(i) + rows * LABEL_H + foot;
                    // Below the last row of bars (10 high), clear of them.
                    let below = if self.tight { 16.0 } else { 20.0 };
                    (h, track, track + extra(i) + below)
                }
            };
            bands.push(LaneBand { title: lane.title.clone(), short: lane.short.clone(), top, height });
            places.push((track, labels));
            top += height;
        }
        let height = top + 8.0;
        let axis_bottom = bands.first().map_or(0.0, |b| b.height);
        let resolve = |y: Y| match y {
            Y::Track(lane) => places[lane].0,
            Y::Bar(lane, row) => places[lane].0 + row as f64 * BAR_STEP,
            Y::Label(lane, row) => places[lane].1 + row as f64 * LABEL_H,
        };
        let items = self
            .pending
            .into_iter()
            .map(|(p, class, t, record)| {
                let shape = match p {
                    Pending::Gridline { x } => Shape::Line { x1: x, y1: axis_bottom, x2: x, y2: height, arrow: false },
                    Pending::Line { x1, y1, x2, y2, arrow } => {
                        Shape::Line { x1, y1: resolve(y1), x2, y2: resolve(y2), arrow }
                    }
                    Pending::Bar { x1, x2, y } => {
                        Shape::Rect { x: x1, y: resolve(y) - BAR_H / 2.0, w: (x2 - x1).max(2.0), h: BAR_H }
                    }
                    Pending::Text { x, y, text } => Shape::Text { x, y: resolve(y), text },
                    Pending::Mark { x, y, glyph } => Shape::Mark { x, y: resolve(y), glyph },
                    Pending::Spot { lane, x1, x2 } => {
                        let band = &bands[lane];
                        Shape::Rect { x: x1, y: band.top + 1.0, w: x2 - x1, h: band.height - 2.0 }
                    }
                };
                Item { shape, class, t, record }
            })
            .collect();
        let items = labels_last(items);
        let last_x = self.stops.last().map_or(LEFT, |s| s.1);
        // (A fitted diagram's labels end FIT_MARGIN before its edge.)
        let pad = if self.fit.is_some() { FIT_MARGIN } else { 24.0 };
        let needed = (last_x + OVERFLOW + 24.0).max(self.right_edge + pad);
        // A fitted diagram takes its box's width when its content fits.
        let width = match self.fit {
            Some(fit) if needed <= fit => fit,
            _ => needed,
        };
        Diagram {
            width,
            height,
            lanes: bands,
            items,
            stops: self.stops,
            end: self.end,
            summary,
            orientation: super::Orientation::Across,
        }
    }
}

/// `items` with every label after every shape (otherwise in their order):
/// drawn last, with its halo, no line, mark or bar is painted over a
/// label, and the page draws the playhead between the two.
pub(super) fn labels_last(mut items: Vec<Item>) -> Vec<Item> {
    items.sort_by_key(|it| matches!(it.shape, super::Shape::Text { .. }));
    items
}
