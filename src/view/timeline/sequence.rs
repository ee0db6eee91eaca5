//! The sequence layout: time runs downward, each lane is a column, and a
//! message is an arrow from one column down to another. Labels sit in one
//! column right of the lanes, each at the height of its moment, wrapped to
//! the width there is and never cut; a dotted leader joins a label to its
//! lane. A lane with nothing drawn on it in the run takes no column.
//!
//! It lays out what a lab drew with the same [`Builder`] calls as the
//! timeline: a position along the time axis becomes a height, a lane's row
//! a column, so every lab gets both layouts from one drawing.

use crate::sim::Millis;

use super::layout::{Builder, Pending, Y};
use super::{CHAR_W, Diagram, Glyph, Item, LABEL_H, LaneBand, Orientation, Shape};

/// The lane titles' strip at the top.
pub const HEADER_H: f64 = 26.0;
/// The narrowest and widest a lane's column gets.
const COL_MIN: f64 = 24.0;
const COL_MAX: f64 = 104.0;
/// The narrowest the labels' column gets before the diagram grows wider
/// than its box.
const TEXT_MIN: f64 = 140.0;
/// The widest the labels' column gets (about 60 characters a line).
const TEXT_MAX: f64 = 450.0;
/// The least distance between two moments.
const STEP_MIN: f64 = 12.0;
/// The most extra room a long idle stretch adds.
const IDLE_MAX: f64 = 18.0;
/// Room below a moment's last label line.
const AFTER_TEXT: f64 = 6.0;
/// From a moment's height down to its first label's baseline.
const BASELINE: f64 = 4.0;
/// How far a row of bars sits from its lane's track.
const ROW_STEP: f64 = 5.0;
/// Width of a bar drawn down a column.
const BAR_W: f64 = 8.0;

/// A label of the labels' column or the time column, before it is placed.
struct Label {
    pending: usize,
    lane: usize,
    moment: usize,
    lines: Vec<String>,
}

/// The columns: where each lane is, and where the labels start.
struct Columns {
    /// Each lane's column (its place in `bands`), `None` for a folded one
    /// (and lane 0).
    column: Vec<Option<usize>>,
    width: f64,
    text_x: f64,
    text_chars: usize,
    /// A column's width.
    col: f64,
    bands: Vec<LaneBand>,
}

impl Columns {
    fn of(b: &Builder, width: f64) -> Columns {
        let used = used_lanes(b);
        let shown: Vec<usize> = (1..b.lanes.len()).filter(|&l| used[l]).collect();
        let n = shown.len().max(1) as f64;
        // The words get about half the box, the lanes the rest; too many
        // lanes for the box squeeze to their narrowest, and only then does
        // the diagram grow wider than its box.
        let text_want = (width * 0.45).clamp(TEXT_MIN, TEXT_MAX);
        let col = ((width - text_want - 10.0) / n).clamp(COL_MIN, COL_MAX);
        let text_x = col * n + 6.0;
        let text_w = (width - text_x - 4.0).clamp(TEXT_MIN.min(width - text_x - 4.0).max(0.0), TEXT_MAX);
        let text_w = text_w.max(TEXT_MIN.min(text_want));
        let mut column = vec![None; b.lanes.len()];
        let mut bands = Vec::with_capacity(shown.len());
        for (i, &lane) in shown.iter().enumerate() {
            let left = i as f64 * col;
            column[lane] = Some(i);
            let spec = &b.lanes[lane];
            let fits = spec.title.chars().count() as f64 * CHAR_W + 6.0 <= col;
            bands.push(LaneBand {
                title: spec.title.clone(),
                short: if fits { spec.title.clone() } else { spec.short.clone() },
                top: left,
                height: col,
            });
        }
        Columns {
            column,
            width: text_x + text_w + 4.0,
            text_x,
            text_chars: ((text_w / CHAR_W).floor() as usize).max(8),
            col,
            bands,
        }
    }

    /// A lane's column, unless it is folded.
    fn band(&self, lane: usize) -> Option<&LaneBand> {
        self.column.get(lane).copied().flatten().map(|i| &self.bands[i])
    }

    /// The x of a lane's track: the middle of its column.
    fn track(&self, lane: usize) -> Option<f64> {
        self.band(lane).map(|band| band.top + band.height / 2.0)
    }

    /// The x of `y` (a lane's track or one of its rows of bars).
    fn x(&self, y: Y) -> f64 {
        let (lane, row) = match y {
            Y::Track(lane) | Y::Label(lane, _) => (lane, 0),
            Y::Bar(lane, row) => (lane, row),
        };
        let centre = self.track(lane).unwrap_or(0.0);
        centre + (row as f64 * ROW_STEP).min((self.col / 2.0 - BAR_W).max(0.0))
    }
}

/// Which lanes something is drawn on.
fn used_lanes(b: &Builder) -> Vec<bool> {
    let mut used = vec![false; b.lanes.len()];
    let mut mark = |y: Y| {
        let (Y::Track(l) | Y::Bar(l, _) | Y::Label(l, _)) = y;
        if let Some(u) = used.get_mut(l) {
            *u = true;
        }
    };
    for (p, ..) in &b.pending {
        match *p {
            Pending::Line { y1, y2, .. } => {
                mark(y1);
                mark(y2);
            }
            Pending::Bar { y, .. } | Pending::Text { y, .. } | Pending::Mark { y, .. } => mark(y),
            Pending::Spot { lane, .. } => mark(Y::Track(lane)),
            Pending::Gridline { .. } => {}
        }
    }
    used
}

/// `text` in lines of at most `chars` characters, broken between words
/// where it can be and inside a word only where one is longer than a line.
pub fn wrap(text: &str, chars: usize) -> Vec<String> {
    let chars = chars.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let room = if used == 0 { chars } else { chars.saturating_sub(used + 1) };
            if word.len() <= room {
                if used > 0 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            let rest = word.split_off(chars);
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The moment (index of the stop) a position along the time axis belongs
/// to: the last stop at or before it (a label the lab nudged a few units
/// left of its stop still belongs to it).
fn moment_of(stops: &[(Millis, f64)], p: f64) -> usize {
    stops.partition_point(|&(_, x)| x <= p + 3.0).saturating_sub(1)
}

/// Lays out `b` as a sequence diagram for a box `width` wide.
pub(super) fn lay_out(b: Builder, summary: String, width: f64) -> Diagram {
    let cols = Columns::of(&b, width);
    let labels = labels(&b, &cols);
    // Each moment's lines of labels.
    let n = b.stops.len().max(1);
    let mut lines = vec![0usize; n];
    for l in &labels {
        lines[l.moment] += l.lines.len();
    }
    // A moment's height: below the one before, past its labels, with a
    // little more room after a long idle stretch.
    let mut ys = Vec::with_capacity(n);
    let mut y = HEADER_H + 14.0;
    for k in 0..b.stops.len() {
        if k > 0 {
            let gap = b.stops[k].1 - b.stops[k - 1].1;
            let idle = ((gap - super::axis::MIN_GAP) / (super::axis::MAX_GAP - super::axis::MIN_GAP)).clamp(0.0, 1.0);
            let text = if lines[k - 1] > 0 { lines[k - 1] as f64 * LABEL_H + AFTER_TEXT } else { 0.0 };
            y += text.max(STEP_MIN) + idle * IDLE_MAX;
        }
        ys.push(y);
    }
    let stops: Vec<(Millis, f64)> = b.stops.iter().zip(&ys).map(|(&(t, _), &y)| (t, y)).collect();
    let last = ys.last().copied().unwrap_or(HEADER_H);
    let tail = lines.last().map_or(0.0, |&l| l as f64 * LABEL_H);
    let height = last + tail.max(STEP_MIN) + 28.0;
    let down = |p: f64| along(&b.stops, &ys, p);
    let time_right = cols.text_x - 2.0;
    let mut items: Vec<Item> = Vec::with_capacity(b.pending.len() + labels.len());
    // Gridlines first, under everything, across the lanes.
    for (p, class, t, record) in &b.pending {
        let shape = match *p {
            Pending::Gridline { x } => {
                let y = down(x);
                Shape::Line { x1: 0.0, y1: y, x2: time_right, y2: y, arrow: false }
            }
            Pending::Line { x1, y1, x2, y2, arrow } => {
                Shape::Line { x1: cols.x(y1), y1: down(x1), x2: cols.x(y2), y2: down(x2), arrow }
            }
            Pending::Bar { x1, x2, y } => {
                let (top, bottom) = (down(x1), down(x2));
                Shape::Rect { x: cols.x(y) - BAR_W / 2.0, y: top, w: BAR_W, h: (bottom - top).max(2.0) }
            }
            Pending::Mark { x, y, glyph } => {
                let glyph = if glyph == Glyph::Bar { Glyph::Rule } else { glyph };
                Shape::Mark { x: cols.x(y), y: down(x), glyph }
            }
            Pending::Spot { lane, x1, x2 } => {
                let Some(band) = cols.band(lane) else {
                    continue;
                };
                let (top, bottom) = (down(x1), down(x2));
                Shape::Rect { x: band.top + 1.0, y: top, w: band.height - 2.0, h: (bottom - top).max(2.0) }
            }
            Pending::Text { .. } => continue,
        };
        items.push(Item { shape, class, t: *t, record: *record });
    }
    // The labels: each moment's under its time, in the order they were
    // drawn, a dotted leader joining each to its lane.
    let mut used = vec![0usize; n];
    for l in labels {
        let (_, class, t, record) = &b.pending[l.pending];
        let first = ys[l.moment] + BASELINE + used[l.moment] as f64 * LABEL_H;
        if let Some(track) = cols.track(l.lane) {
            let y = first - BASELINE;
            let shape = Shape::Line { x1: track + 4.0, y1: y, x2: cols.text_x - 3.0, y2: y, arrow: false };
            items.push(Item { shape, class: "leader", t: *t, record: *record });
        }
        used[l.moment] += l.lines.len();
        for (i, line) in l.lines.into_iter().enumerate() {
            let shape = Shape::Text { x: cols.text_x, y: first + i as f64 * LABEL_H, text: line };
            items.push(Item { shape, class, t: *t, record: *record });
        }
    }
    let mut lanes = vec![LaneBand { title: b.lanes[0].title.clone(), short: String::new(), top: 0.0, height: 0.0 }];
    lanes.extend(cols.bands.iter().cloned());
    let names: Vec<String> = cols
        .bands
        .iter()
        .map(
            |band| {
                if band.short == band.title { band.title.clone() } else { format!("{} ({})", band.title, band.short) }
            },
        )
        .collect();
    let summary = format!("{summary} Time runs downward; the columns, left to right: {}.", names.join(", "));
    let items = super::layout::labels_last(items);
    Diagram { width: cols.width, height, lanes, items, stops, end: b.end, summary, orientation: Orientation::Down }
}

/// Every label, wrapped, with its moment: each moment that has labels
/// starts with its time (the axis lane's labels joined on one line), and
/// a moment with none shows no time. The axis's break marks are left out:
/// an idle stretch shows as more room instead.
fn labels(b: &Builder, cols: &Columns) -> Vec<Label> {
    let mut times: Vec<(usize, Vec<&str>)> = vec![(usize::MAX, Vec::new()); b.stops.len().max(1)];
    let mut found: Vec<Label> = Vec::new();
    for (i, (p, class, ..)) in b.pending.iter().enumerate() {
        let Pending::Text { x, y: Y::Label(lane, _) | Y::Track(lane) | Y::Bar(lane, _), text } = p else {
            continue;
        };
        let moment = moment_of(&b.stops, *x);
        if *lane == 0 {
            if !class.contains("axis-break") {
                let (first, texts) = &mut times[moment];
                *first = (*first).min(i);
                texts.push(text);
            }
            continue;
        }
        found.push(Label { pending: i, lane: *lane, moment, lines: wrap(text, cols.text_chars) });
    }
    let mut with_time: Vec<bool> = vec![false; times.len()];
    for l in &found {
        with_time[l.moment] = true;
    }
    for (moment, (first, texts)) in times.into_iter().enumerate() {
        if with_time[moment] && !texts.is_empty() {
            found.push(Label { pending: first, lane: 0, moment, lines: wrap(&texts.join(" · "), cols.text_chars) });
        }
    }
    // Stable: each moment's time first, then its labels as drawn.
    found.sort_by_key(|l| (l.moment, l.lane != 0));
    found
}

/// The height of position `p` along the time axis: between two stops in
/// proportion, past the last one half as far as across.
fn along(stops: &[(Millis, f64)], ys: &[f64], p: f64) -> f64 {
    let i = stops.partition_point(|&(_, x)| x <= p);
    match (i.checked_sub(1), stops.get(i)) {
        (None, _) => ys.first().copied().unwrap_or(HEADER_H),
        (Some(j), None) => ys[j] + ((p - stops[j].1) / 2.0).min(28.0),
        (Some(j), Some(&(_, x1))) => {
            let x0 = stops[j].1;
            ys[j] + (ys[j + 1] - ys[j]) * (p - x0) / (x1 - x0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_between_words_and_splits_only_a_word_longer_than_a_line() {
        assert_eq!(wrap("attempt 1 times out", 10), ["attempt 1", "times out"]);
        assert_eq!(wrap("abcdefghijkl mn", 5), ["abcde", "fghij", "kl mn"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("one two", 7), ["one two"]);
    }
}
