//! The sequence diagram as geometry: lanes for the client, the network, the
//! server's operations, the deduplication store and the ledger, with time
//! running left to right.
//!
//! The time axis is piecewise linear: every event time gets a stop, and the
//! gap between two stops grows with the time between them but never below
//! what a label needs nor above a screenful (a compressed gap is marked
//! "≈"). Labels in a lane are packed into rows so none overlaps another; the
//! diagram grows (and the page scrolls it) instead of truncating text.
//!
//! The browser renders these items as SVG elements; [`Diagram::to_svg`]
//! renders the same items as a standalone file.

use std::fmt::Write;

use crate::sim::mirror::increments;
use crate::sim::{Decision, Millis, OpKey, Outcome, Record, Run, Status, What};

/// Width of one character of the diagram's 12 px monospace font, rounded up.
pub const CHAR_W: f64 = 7.4;
const LABEL_H: f64 = 16.0;
const LABEL_PAD: f64 = 10.0;
const LEFT: f64 = 104.0;
const MIN_GAP: f64 = 72.0;
const MAX_GAP: f64 = 320.0;
const PX_PER_MS: f64 = 0.08;
/// How far past the end a continuing bar (a stored result, a deadline) is drawn.
const OVERFLOW: f64 = 56.0;
const BAR_H: f64 = 10.0;
/// Vertical distance between rows of bars that overlap in time.
const BAR_STEP: f64 = 14.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Axis,
    Client,
    Network,
    Server,
    Store,
    Ledger,
}

impl Lane {
    const ALL: [Lane; 6] = [Lane::Axis, Lane::Client, Lane::Network, Lane::Server, Lane::Store, Lane::Ledger];

    fn index(self) -> usize {
        self as usize
    }

    pub fn title(self) -> &'static str {
        match self {
            Lane::Axis => "Model time",
            Lane::Client => "Client",
            Lane::Network => "Network",
            Lane::Server => "Server",
            Lane::Store => "Dedup store",
            Lane::Ledger => "Ledger",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Dot,
    Cross,
    Tick,
    Diamond,
    Bar,
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
            Shape::Line { x1, y1, x2, y2, .. } => Some(format!("M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}")),
            Shape::Rect { x, y, w, h } => Some(format!("M{x:.1} {y:.1}h{w:.1}v{h:.1}h{:.1}z", -w)),
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
    pub lane: Lane,
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
    stops: Vec<(Millis, f64)>,
    pub end: Millis,
    /// A one-sentence summary for the diagram's accessible description.
    pub summary: String,
}

/// One attempt's deadline window: sent, due, and when it was decided.
struct Window {
    attempt: u32,
    sent: Millis,
    deadline: Millis,
    decided: Option<Millis>,
    record: usize,
}

/// A vertical position not known until every lane's label rows are counted.
#[derive(Clone, Copy, Debug)]
enum Y {
    Track(Lane),
    /// Halfway between the client's and the server's tracks.
    NetworkMid,
    /// Row `n` of a lane's bars (row 0 is the track).
    Bar(Lane, usize),
    Label(Lane, usize),
}

#[derive(Clone, Debug)]
enum Pending {
    Line { x1: f64, y1: Y, x2: f64, y2: Y, arrow: bool },
    Bar { x1: f64, x2: f64, y: Y },
    Text { x: f64, y: Y, text: String },
    Mark { x: f64, y: Y, glyph: Glyph },
}

struct Builder {
    stops: Vec<(Millis, f64)>,
    end: Millis,
    pending: Vec<(Pending, &'static str, Millis, Option<usize>)>,
    /// Per lane, the right edge of each label row so far.
    rows: [Vec<f64>; 6],
    /// Per lane, the right edge of each row of bars so far: operations that
    /// overlap in time, or results stored under different keys at once, get
    /// rows of their own.
    bar_rows: [Vec<f64>; 6],
    /// The server row of each operation, by its originating attempt.
    op_rows: Vec<(u32, usize)>,
    /// The store row currently holding each key's reservation or result.
    key_rows: Vec<(OpKey, usize)>,
    right_edge: f64,
}

impl Builder {
    fn x(&self, t: Millis) -> f64 {
        x_at(&self.stops, t)
    }

    /// Like `x`, but times past the end stop just beyond it.
    fn x_clamped(&self, t: Millis) -> f64 {
        if t > self.end { self.x(self.end) + OVERFLOW } else { self.x(t) }
    }

    fn push(&mut self, shape: Pending, class: &'static str, t: Millis, record: Option<usize>) {
        self.pending.push((shape, class, t, record));
    }

    /// The first row of bars in `lane` free from `x1` on, now taken to `x2`.
    fn bar_row(&mut self, lane: Lane, x1: f64, x2: f64) -> usize {
        let rows = &mut self.bar_rows[lane.index()];
        let row = rows.iter().position(|&edge| edge <= x1 + 0.5).unwrap_or_else(|| {
            rows.push(f64::NEG_INFINITY);
            rows.len() - 1
        });
        rows[row] = x2;
        row
    }

    fn op_row(&self, origin: u32) -> usize {
        self.op_rows.iter().rev().find(|(a, _)| *a == origin).map_or(0, |(_, r)| *r)
    }

    fn key_row(&self, key: OpKey) -> usize {
        self.key_rows.iter().rev().find(|(k, _)| *k == key).map_or(0, |(_, r)| *r)
    }

    /// Places a label starting at `x` in the first row of `lane` where it
    /// overlaps nothing.
    fn label(&mut self, lane: Lane, x: f64, text: String, class: &'static str, t: Millis, record: Option<usize>) {
        let width = text.chars().count() as f64 * CHAR_W;
        let rows = &mut self.rows[lane.index()];
        let row = match rows.iter().position(|&edge| edge + LABEL_PAD <= x) {
            Some(r) => r,
            None => {
                rows.push(f64::NEG_INFINITY);
                rows.len() - 1
            }
        };
        rows[row] = x + width;
        self.right_edge = self.right_edge.max(x + width);
        self.push(Pending::Text { x, y: Y::Label(lane, row), text }, class, t, record);
    }
}

/// Interpolates between stops; before the first stop is the first x.
fn x_at(stops: &[(Millis, f64)], t: Millis) -> f64 {
    let i = stops.partition_point(|&(st, _)| st <= t);
    match (i.checked_sub(1).map(|j| stops[j]), stops.get(i)) {
        (None, _) => stops.first().map_or(LEFT, |s| s.1),
        (Some((_, x)), None) => x,
        (Some((t0, x0)), Some(&(t1, x1))) => {
            let span = (t1.ms() - t0.ms()) as f64;
            x0 + (x1 - x0) * ((t.ms() - t0.ms()) as f64) / span
        }
    }
}

fn gap(dt_ms: u64) -> f64 {
    (dt_ms as f64 * PX_PER_MS).clamp(MIN_GAP, MAX_GAP)
}

fn response_class(status: Status) -> &'static str {
    match status {
        Status::Success => "response success",
        Status::Unavailable => "response unavailable",
        Status::Rejected => "response rejected",
    }
}

impl Diagram {
    pub fn of(run: &Run) -> Diagram {
        let records = run.records();
        let end = run.end();

        // Stops: every event time, time 0, and deadlines inside the run.
        let mut times: Vec<Millis> = records.iter().map(|r| r.t).collect();
        times.push(Millis::ZERO);
        times.extend(records.iter().filter_map(|r| match r.what {
            What::AttemptSent { deadline, .. } if deadline <= end => Some(deadline),
            _ => None,
        }));
        times.sort_unstable();
        times.dedup();
        let mut stops = Vec::with_capacity(times.len());
        let mut x = LEFT;
        let mut compressed = Vec::new();
        for (i, &t) in times.iter().enumerate() {
            if i > 0 {
                let dt = t.ms() - times[i - 1].ms();
                x += gap(dt);
                if dt as f64 * PX_PER_MS > MAX_GAP {
                    compressed.push((x - MAX_GAP / 2.0, t));
                }
            }
            stops.push((t, x));
        }

        let mut b = Builder {
            stops,
            end,
            pending: Vec::new(),
            rows: Default::default(),
            bar_rows: Default::default(),
            op_rows: Vec::new(),
            key_rows: Vec::new(),
            right_edge: 0.0,
        };

        // The axis: a tick and a time label at every stop.
        let stop_list = b.stops.clone();
        for &(t, x) in &stop_list {
            b.push(
                Pending::Line { x1: x, y1: Y::Track(Lane::Axis), x2: x, y2: Y::Track(Lane::Ledger), arrow: false },
                "gridline",
                t,
                None,
            );
            b.label(Lane::Axis, x - 2.0, t.to_string(), "axis-label", Millis::ZERO, None);
        }
        for (x, t) in compressed {
            b.label(Lane::Axis, x - CHAR_W / 2.0, "≈".to_owned(), "axis-break", t, None);
        }

        // Per attempt: when it was sent, its deadline, and when it was decided.
        let mut windows: Vec<Window> = Vec::new();
        if !run.settings().dedup() {
            let text = "deduplication is off: the server does not look at keys".to_owned();
            b.label(Lane::Store, LEFT, text, "label dedup-off", Millis::ZERO, None);
        }
        for (i, r) in records.iter().enumerate() {
            draw_record(&mut b, i, r, &mut windows);
        }
        for Window { sent, deadline, decided, record: i, .. } in windows {
            let until = decided.unwrap_or(deadline);
            let (x1, x2) = (b.x(sent), b.x_clamped(until));
            b.push(Pending::Bar { x1, x2, y: Y::Track(Lane::Client) }, "window", sent, Some(i));
            if decided.is_some_and(|d| d < deadline) {
                let x3 = b.x_clamped(deadline);
                b.push(Pending::Bar { x1: x2, x2: x3, y: Y::Track(Lane::Client) }, "window-rest", until, None);
                b.push(Pending::Mark { x: x3, y: Y::Track(Lane::Client), glyph: Glyph::Bar }, "deadline", until, None);
            }
        }

        let summary = summary_sentence(run);
        b.finish(end, summary)
    }

    /// The x position of model time `t` (clamped to the drawn range).
    pub fn x_at(&self, t: Millis) -> f64 {
        x_at(&self.stops, t.min(self.end))
    }

    /// A standalone SVG document, with the playhead at `playhead` if given.
    pub fn to_svg(&self, playhead: Option<Millis>) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" \
             role=\"img\" aria-labelledby=\"title desc\">\n<title id=\"title\">Idempotency Lab timeline</title>\n\
             <desc id=\"desc\">{}</desc>\n<style>{}</style>\n",
            escape(&self.summary),
            EXPORT_STYLE,
            w = self.width,
            h = self.height
        );
        for band in &self.lanes {
            let _ = writeln!(
                out,
                "<rect class=\"lane-band lane-{}\" x=\"0\" y=\"{:.1}\" width=\"{:.0}\" height=\"{:.1}\"/>\
                 <text class=\"lane-title\" x=\"8\" y=\"{:.1}\">{}</text>",
                band.lane.index(),
                band.top,
                self.width,
                band.height,
                band.top + 16.0,
                band.lane.title()
            );
        }
        for item in &self.items {
            let class = item.class;
            let _ = match (&item.shape, item.shape.path()) {
                (Shape::Text { x, y, text }, _) => {
                    writeln!(out, "<text class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\">{}</text>", escape(text))
                }
                (shape, Some(d)) => writeln!(
                    out,
                    "<path class=\"{class}\" d=\"{d}\"{}/>",
                    if shape.has_arrow() { " marker-end=\"url(#arrow)\"" } else { "" }
                ),
                (_, None) => Ok(()),
            };
        }
        if let Some(t) = playhead {
            let x = self.x_at(t);
            let _ = writeln!(
                out,
                "<line class=\"playhead\" x1=\"{x:.1}\" y1=\"0\" x2=\"{x:.1}\" y2=\"{:.0}\"/>",
                self.height
            );
        }
        out.push_str(
            "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" \
             orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\"/></marker></defs>\n</svg>\n",
        );
        out
    }
}

/// The path of a small glyph centred on (x, y).
fn glyph_path(glyph: Glyph, x: f64, y: f64) -> String {
    match glyph {
        Glyph::Dot => format!("M{:.1} {y:.1}a5 5 0 1 0 10 0a5 5 0 1 0 -10 0z", x - 5.0),
        Glyph::Cross => format!(
            "M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}",
            x - 6.0,
            y - 6.0,
            x + 6.0,
            y + 6.0,
            x - 6.0,
            y + 6.0,
            x + 6.0,
            y - 6.0
        ),
        Glyph::Tick => format!("M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}", x - 6.0, y, x - 2.0, y + 5.0, x + 6.0, y - 6.0),
        Glyph::Diamond => {
            format!("M{x:.1} {:.1}L{:.1} {y:.1}L{x:.1} {:.1}L{:.1} {y:.1}z", y - 7.0, x + 7.0, y + 7.0, x - 7.0)
        }
        Glyph::Bar => format!("M{x:.1} {:.1}L{x:.1} {:.1}", y - 9.0, y + 9.0),
    }
}

/// Escapes text for SVG/XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn summary_sentence(run: &Run) -> String {
    let s = run.summary();
    let increments = increments(s.committed);
    format!(
        "Timeline from 0.00 s to {}: {} attempt(s); the client {} at {}; the ledger holds {increments}; {} deduplication hit(s).",
        s.end,
        s.attempts,
        match s.outcome {
            Outcome::Succeeded => "succeeded",
            Outcome::Rejected => "was rejected",
            Outcome::Exhausted => "gave up (exhausted)",
        },
        s.outcome_at,
        s.dedup_hits
    )
}

fn draw_decision(b: &mut Builder, t: Millis, decision: Decision, i: usize) {
    if let Decision::Retry { at, delay, .. } = decision {
        let (x1, x2) = (b.x(t), b.x(at));
        b.push(
            Pending::Line { x1, y1: Y::Track(Lane::Client), x2, y2: Y::Track(Lane::Client), arrow: false },
            "backoff",
            t,
            Some(i),
        );
        if delay.ms() > 0 {
            b.label(Lane::Client, x1 + 4.0, format!("backoff {delay}"), "label backoff-label", t, Some(i));
        }
    }
}

fn draw_record(b: &mut Builder, i: usize, r: &Record, windows: &mut Vec<Window>) {
    let (t, n, key) = (r.t, r.attempt, r.key);
    let x = b.x(t);
    let decide = |windows: &mut Vec<Window>| {
        if let Some(w) = windows.iter_mut().rev().find(|w| w.attempt == n && w.decided.is_none()) {
            w.decided = Some(t);
        }
    };
    match r.what {
        What::AttemptSent { deadline, arrives_at } => {
            windows.push(Window { attempt: n, sent: t, deadline, decided: None, record: i });
            let xa = b.x(arrives_at);
            b.push(
                Pending::Line { x1: x, y1: Y::Track(Lane::Client), x2: xa, y2: Y::Track(Lane::Server), arrow: true },
                "request",
                t,
                Some(i),
            );
            b.label(Lane::Client, x, format!("attempt {n} sent · key {key}"), "label send-label", t, Some(i));
        }
        What::RequestRejected => {
            b.push(Pending::Mark { x, y: Y::Track(Lane::Server), glyph: Glyph::Cross }, "mark rejected", t, Some(i));
            b.label(Lane::Server, x, format!("400: attempt {n} rejected"), "label", t, Some(i));
        }
        What::RequestUnavailable => {
            b.push(Pending::Mark { x, y: Y::Track(Lane::Server), glyph: Glyph::Cross }, "mark unavailable", t, Some(i));
            b.label(Lane::Server, x, format!("503: attempt {n} not executed"), "label", t, Some(i));
        }
        What::OperationStarted { reserved, commits_at } => {
            let xc = b.x(commits_at);
            let row = b.bar_row(Lane::Server, x, xc);
            b.op_rows.push((n, row));
            b.push(Pending::Bar { x1: x, x2: xc, y: Y::Bar(Lane::Server, row) }, "operation", t, Some(i));
            b.label(Lane::Server, x, format!("attempt {n} executes"), "label", t, Some(i));
            if reserved {
                let row = b.bar_row(Lane::Store, x, xc);
                b.key_rows.push((key, row));
                b.push(Pending::Bar { x1: x, x2: xc, y: Y::Bar(Lane::Store, row) }, "reserved", t, Some(i));
                b.label(Lane::Store, x, format!("{key} reserved"), "label", t, Some(i));
            }
        }
        What::DedupJoined { origin, .. } => {
            let row = b.op_row(origin);
            b.push(Pending::Mark { x, y: Y::Bar(Lane::Server, row), glyph: Glyph::Diamond }, "mark join", t, Some(i));
            b.label(
                Lane::Server,
                x,
                format!("attempt {n} joins attempt {origin}'s operation"),
                "label join-label",
                t,
                Some(i),
            );
        }
        What::DedupReplayed { value, .. } => {
            let row = b.key_row(key);
            b.push(
                Pending::Line { x1: x, y1: Y::Bar(Lane::Store, row), x2: x, y2: Y::Track(Lane::Server), arrow: true },
                "replay",
                t,
                Some(i),
            );
            b.push(Pending::Mark { x, y: Y::Bar(Lane::Store, row), glyph: Glyph::Diamond }, "mark replay", t, Some(i));
            b.label(
                Lane::Store,
                x,
                format!("replayed to attempt {n} (counter {value})"),
                "label replay-label",
                t,
                Some(i),
            );
        }
        What::OperationCommitted { value, stored_until, .. } => {
            let row = b.op_row(n);
            b.push(Pending::Mark { x, y: Y::Bar(Lane::Server, row), glyph: Glyph::Tick }, "mark commit", t, Some(i));
            b.label(Lane::Server, x, format!("attempt {n} commits"), "label", t, Some(i));
            b.push(Pending::Mark { x, y: Y::Track(Lane::Ledger), glyph: Glyph::Dot }, "mark increment", t, Some(i));
            b.label(
                Lane::Ledger,
                x,
                format!("+1 → counter {value} (attempt {n})"),
                "label increment-label",
                t,
                Some(i),
            );
            if let Some(until) = stored_until {
                let xe = b.x_clamped(until);
                let row = b.bar_row(Lane::Store, x, xe);
                b.key_rows.push((key, row));
                b.push(Pending::Bar { x1: x, x2: xe, y: Y::Bar(Lane::Store, row) }, "stored", t, Some(i));
                let more = if until > b.end { " →" } else { "" };
                b.label(Lane::Store, x, format!("{key} result stored until {until}{more}"), "label", t, Some(i));
            }
        }
        What::ResponseDelivered { status, sent_at, decision } => {
            decide(windows);
            let xs = b.x(sent_at);
            b.push(
                Pending::Line { x1: xs, y1: Y::Track(Lane::Server), x2: x, y2: Y::Track(Lane::Client), arrow: true },
                response_class(status),
                sent_at,
                Some(i),
            );
            let (glyph, text) = match decision {
                Decision::Done(Outcome::Succeeded) => {
                    (Glyph::Tick, format!("success for attempt {n}: client reports success"))
                }
                Decision::Done(Outcome::Rejected) => (Glyph::Cross, format!("400 for attempt {n}: rejected, no retry")),
                Decision::Done(Outcome::Exhausted) => {
                    (Glyph::Cross, format!("{} for attempt {n}: exhausted", status.word()))
                }
                Decision::Retry { .. } => (Glyph::Cross, format!("{} for attempt {n}: retry", status.word())),
            };
            b.push(Pending::Mark { x, y: Y::Track(Lane::Client), glyph }, "mark delivered", t, Some(i));
            b.label(Lane::Client, x, text, "label delivered-label", t, Some(i));
            draw_decision(b, t, decision, i);
        }
        What::ResponseLate { status, sent_at } => {
            let xs = b.x(sent_at);
            b.push(
                Pending::Line { x1: xs, y1: Y::Track(Lane::Server), x2: x, y2: Y::Track(Lane::Client), arrow: true },
                "response late",
                sent_at,
                Some(i),
            );
            b.label(
                Lane::Client,
                x,
                format!("late {} for attempt {n}: ignored", status.word()),
                "label late-label",
                t,
                Some(i),
            );
        }
        What::ResponseLost { status, sent_at } => {
            let xs = b.x(sent_at);
            b.push(
                Pending::Line { x1: xs, y1: Y::Track(Lane::Server), x2: x, y2: Y::NetworkMid, arrow: false },
                "response lost",
                sent_at,
                Some(i),
            );
            b.push(Pending::Mark { x, y: Y::NetworkMid, glyph: Glyph::Cross }, "mark lost", t, Some(i));
            b.label(
                Lane::Network,
                x + 8.0,
                format!("{} for attempt {n} lost", status.word()),
                "label lost-label",
                t,
                Some(i),
            );
        }
        What::AttemptTimedOut { decision } => {
            decide(windows);
            b.push(Pending::Mark { x, y: Y::Track(Lane::Client), glyph: Glyph::Bar }, "mark timeout", t, Some(i));
            let text = match decision {
                Decision::Done(_) => format!("attempt {n} times out: exhausted"),
                Decision::Retry { .. } => format!("attempt {n} times out"),
            };
            b.label(Lane::Client, x, text, "label timeout-label", t, Some(i));
            draw_decision(b, t, decision, i);
        }
        What::StoredResultExpired { .. } => {
            let row = b.key_row(key);
            b.push(Pending::Mark { x, y: Y::Bar(Lane::Store, row), glyph: Glyph::Bar }, "mark expired", t, Some(i));
            b.label(Lane::Store, x, format!("{key} result expires"), "label", t, Some(i));
        }
    }
}

impl Builder {
    fn finish(self, end: Millis, summary: String) -> Diagram {
        let rows = |lane: Lane| self.rows[lane.index()].len().max(1) as f64;
        // Extra rows of bars below a lane's track push its labels down.
        let extra = |lane: Lane| self.bar_rows[lane.index()].len().saturating_sub(1) as f64 * BAR_STEP;
        // Vertical layout, top to bottom. Labels sit above the client track
        // and below the other tracks, so arrows between client and server
        // cross only the network lane.
        let axis_top = 0.0;
        let axis_h = rows(Lane::Axis) * LABEL_H + 10.0;
        let client_top = axis_top + axis_h;
        let client_track = client_top + rows(Lane::Client) * LABEL_H + 20.0;
        let network_top = client_track + 8.0;
        let network_h = (rows(Lane::Network) * LABEL_H + 24.0).max(56.0);
        let server_top = network_top + network_h;
        let server_track = server_top + 10.0;
        let lower = |top: f64, lane: Lane| (top, top + 12.0, top + 12.0 + extra(lane) + rows(lane) * LABEL_H + 12.0);
        let (_, _, server_bottom) = lower(server_top, Lane::Server);
        let (store_top, store_track, store_bottom) = lower(server_bottom, Lane::Store);
        let (ledger_top, ledger_track, ledger_bottom) = lower(store_bottom, Lane::Ledger);
        let height = ledger_bottom + 8.0;

        let track = |lane: Lane| match lane {
            Lane::Axis => axis_top + axis_h - 2.0,
            Lane::Client => client_track,
            Lane::Network => network_top + network_h / 2.0,
            Lane::Server => server_track,
            Lane::Store => store_track,
            Lane::Ledger => ledger_track,
        };
        let resolve = |y: Y| match y {
            Y::Track(lane) => track(lane),
            Y::NetworkMid => network_top + network_h / 2.0,
            Y::Bar(lane, row) => track(lane) + row as f64 * BAR_STEP,
            Y::Label(lane, row) => {
                let row = row as f64;
                match lane {
                    Lane::Axis => axis_top + 13.0 + row * LABEL_H,
                    Lane::Client => client_top + 14.0 + row * LABEL_H,
                    Lane::Network => network_top + 14.0 + row * LABEL_H,
                    Lane::Server => server_track + extra(Lane::Server) + 20.0 + row * LABEL_H,
                    Lane::Store => store_track + extra(Lane::Store) + 20.0 + row * LABEL_H,
                    Lane::Ledger => ledger_track + 20.0 + row * LABEL_H,
                }
            }
        };

        let lanes = vec![
            LaneBand { lane: Lane::Axis, top: axis_top, height: axis_h },
            LaneBand { lane: Lane::Client, top: client_top, height: network_top - client_top },
            LaneBand { lane: Lane::Network, top: network_top, height: network_h },
            LaneBand { lane: Lane::Server, top: server_top, height: server_bottom - server_top },
            LaneBand { lane: Lane::Store, top: store_top, height: store_bottom - store_top },
            LaneBand { lane: Lane::Ledger, top: ledger_top, height: ledger_bottom - ledger_top },
        ];
        debug_assert_eq!(lanes.len(), Lane::ALL.len());

        let items = self
            .pending
            .into_iter()
            .map(|(p, class, t, record)| {
                let shape = match p {
                    Pending::Line { x1, y1, x2, y2, arrow } => {
                        let (mut y1, mut y2) = (resolve(y1), resolve(y2));
                        // Gridlines span from the axis to the bottom.
                        if class == "gridline" {
                            y1 = axis_h;
                            y2 = height;
                        }
                        Shape::Line { x1, y1, x2, y2, arrow }
                    }
                    Pending::Bar { x1, x2, y } => {
                        Shape::Rect { x: x1, y: resolve(y) - BAR_H / 2.0, w: (x2 - x1).max(2.0), h: BAR_H }
                    }
                    Pending::Text { x, y, text } => Shape::Text { x, y: resolve(y), text },
                    Pending::Mark { x, y, glyph } => Shape::Mark { x, y: resolve(y), glyph },
                };
                Item { shape, class, t, record }
            })
            .collect();

        let last_x = self.stops.last().map_or(LEFT, |s| s.1);
        let width = (last_x + OVERFLOW + 24.0).max(self.right_edge + 24.0);
        Diagram { width, height, lanes, items, stops: self.stops, end, summary }
    }
}

/// Colours for the exported file, which has no page stylesheet around it.
const EXPORT_STYLE: &str = "\
svg{font:12px ui-monospace,Menlo,Consolas,monospace;background:#fff}\
.lane-band{fill:#f6f7f9}.lane-1,.lane-3,.lane-5{fill:#eef1f5}.lane-title{font-weight:bold;fill:#333}\
text{fill:#222}.axis-label{fill:#555}.gridline{stroke:#d8dce2;stroke-width:1}\
path{fill:none;stroke:#444;stroke-width:1.5}.request{stroke:#2b6cb0}.response.success{stroke:#2f855a}\
.response.unavailable,.response.rejected{stroke:#b7791f}.response.lost{stroke:#c53030;stroke-dasharray:4 3}\
.response.late{stroke:#718096;stroke-dasharray:2 3}.backoff{stroke:#805ad5;stroke-dasharray:6 4;stroke-width:2}\
.window{fill:#bee3f8;stroke:none}.window-rest{fill:none;stroke:#90cdf4;stroke-dasharray:3 3}\
.operation{fill:#fbd38d;stroke:none}.reserved{fill:#e9d8fd;stroke:none}.stored{fill:#c6f6d5;stroke:none}.mark{stroke:#222;stroke-width:2}\
.mark.lost{stroke:#c53030;stroke-width:3}.mark.increment{fill:#2f855a;stroke:none}\
.playhead{stroke:#d53f8c;stroke-width:2}marker path{fill:#444;stroke:none}.lane-title{font-weight:bold}";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Settings;

    fn texts(d: &Diagram) -> Vec<(&str, f64, f64)> {
        d.items
            .iter()
            .filter_map(|i| match &i.shape {
                Shape::Text { x, y, text } => Some((text.as_str(), *x, *y)),
                _ => None,
            })
            .collect()
    }

    fn diagram(pairs: &[(crate::sim::Param, &str)]) -> Diagram {
        Diagram::of(&Run::simulate(&Settings::from_pairs(pairs).unwrap()).unwrap())
    }

    #[test]
    fn labels_never_overlap_and_fit_inside() {
        use crate::sim::Param;
        for pairs in [
            vec![],
            vec![(Param::Dedup, "off")],
            vec![(Param::Fault, "lose-all"), (Param::MaxAttempts, "10"), (Param::Jitter, "full")],
            vec![
                (Param::TimeoutMs, "1"),
                (Param::ExecMs, "0"),
                (Param::ResponseTransitMs, "0"),
                (Param::MaxAttempts, "10"),
            ],
        ] {
            let d = diagram(&pairs);
            let labels = texts(&d);
            for (a, (ta, xa, ya)) in labels.iter().enumerate() {
                let wa = ta.chars().count() as f64 * CHAR_W;
                assert!(xa + wa <= d.width, "{ta} runs off the right edge");
                for (tb, xb, yb) in labels.iter().skip(a + 1) {
                    let wb = tb.chars().count() as f64 * CHAR_W;
                    let same_row = (ya - yb).abs() < LABEL_H;
                    let overlap = *xa < xb + wb && *xb < xa + wa;
                    assert!(
                        !(same_row && overlap),
                        "{ta:?} at ({xa},{ya}) overlaps {tb:?} at ({xb},{yb}) for {pairs:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn bars_that_overlap_in_time_get_rows_of_their_own() {
        use crate::sim::Param;
        // Without deduplication, a retry at 2.00 s starts a second operation
        // while the first still runs until 2.50 s; per-attempt keys store two
        // results at once.
        for pairs in [
            vec![(Param::Fault, "none"), (Param::Dedup, "off"), (Param::TimeoutMs, "1000"), (Param::ExecMs, "2500")],
            vec![(Param::Key, "per-attempt")],
        ] {
            let d = diagram(&pairs);
            let bars: Vec<(f64, f64, f64, f64)> = d
                .items
                .iter()
                .filter(|i| matches!(i.class, "operation" | "stored" | "reserved"))
                .filter_map(|i| match i.shape {
                    Shape::Rect { x, y, w, h } => Some((x, y, w, h)),
                    _ => None,
                })
                .collect();
            assert!(bars.len() >= 2);
            for (a, &(xa, ya, wa, ha)) in bars.iter().enumerate() {
                for &(xb, yb, wb, hb) in &bars[a + 1..] {
                    let overlap = xa < xb + wb - 0.5 && xb < xa + wa - 0.5 && ya < yb + hb && yb < ya + ha;
                    assert!(!overlap, "bars overlap at ({xa},{ya}) and ({xb},{yb}) for {pairs:?}");
                }
            }
        }
        let off = diagram(&[(Param::Dedup, "off")]);
        assert!(texts(&off).iter().any(|t| t.0.starts_with("deduplication is off")));
    }

    #[test]
    fn time_maps_monotonically_with_room_between_events() {
        let d = diagram(&[]);
        let times = [0, 2000, 2050, 3000, 4000, 4050];
        let xs: Vec<f64> = times.iter().map(|&t| d.x_at(Millis(t))).collect();
        for w in xs.windows(2) {
            assert!(w[1] - w[0] >= MIN_GAP, "{xs:?}");
        }
        // Between stops, x interpolates.
        assert!(d.x_at(Millis(1000)) > xs[0] && d.x_at(Millis(1000)) < xs[1]);
    }

    #[test]
    fn the_opening_run_draws_the_lost_ack_and_the_replay() {
        let d = diagram(&[]);
        let labels: Vec<&str> = texts(&d).into_iter().map(|t| t.0).collect();
        for expected in [
            "attempt 1 sent · key intent-1",
            "success for attempt 1 lost",
            "attempt 1 times out",
            "backoff 1.00 s",
            "replayed to attempt 2 (counter 1)",
            "+1 → counter 1 (attempt 1)",
            "intent-1 result stored until 62.00 s →",
            "success for attempt 2: client reports success",
        ] {
            assert!(labels.contains(&expected), "missing {expected:?} in {labels:?}");
        }
        assert_eq!(d.items.iter().filter(|i| i.class == "mark increment").count(), 1);
        assert_eq!(d.items.iter().filter(|i| i.class == "response lost").count(), 1);
    }

    #[test]
    fn every_event_can_be_clicked_somewhere() {
        let run = Run::simulate(&Settings::default()).unwrap();
        let d = Diagram::of(&run);
        for i in 0..run.records().len() {
            assert!(d.items.iter().any(|item| item.record == Some(i)), "event {i} has no drawn item");
        }
    }

    #[test]
    fn svg_export_is_well_formed_and_escaped() {
        let svg = diagram(&[]).to_svg(Some(Millis(2050)));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("class=\"playhead\""));
        assert_eq!(escape("<a href='x'>&</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
    }
}
