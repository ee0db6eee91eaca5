//! The rows' state machine as geometry: the five statuses, the legal
//! transitions (read from the core's own legality rule, never listed a
//! second time), where each row is at a moment, and every transition taken
//! so far, the illegal ones drawn apart with their causes.

use crate::sim::Millis;
use crate::sim::risk::Run;
use crate::sim::risk::facts::{Cause, RowId, Status, is_legal};

use super::names;

/// The drawing's size (SVG user units; the page scales it to fit).
pub const WIDTH: f64 = 600.0;
pub const HEIGHT: f64 = 370.0;
const NODE_W: f64 = 112.0;
const NODE_H: f64 = 34.0;
/// Where a row is born, left of PENDING.
pub const BIRTH: (f64, f64) = (40.0, 200.0);
/// Between two lines of one label.
pub const LINE_H: f64 = 13.0;

/// The centre of a status's box: FAILED and SUCCEEDED, the two ends, at
/// the top; PENDING and UNKNOWN below them; RETRYABLE at the bottom.
pub fn centre(status: Status) -> (f64, f64) {
    match status {
        Status::Failed => (220.0, 48.0),
        Status::Succeeded => (480.0, 48.0),
        Status::Pending => (220.0, 200.0),
        Status::Unknown => (480.0, 200.0),
        Status::Retryable => (350.0, 325.0),
    }
}

/// How a label lines up with its point (SVG `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    pub fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub status: Status,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// The rows in this status at the moment, in id order.
    pub rows: Vec<RowId>,
}

impl Node {
    /// "R10086 R10087", or the first few and how many more.
    pub fn rows_text(&self) -> String {
        const SHOWN: usize = 3;
        let mut parts: Vec<String> = self.rows.iter().take(SHOWN).map(|r| names::row(*r)).collect();
        if self.rows.len() > SHOWN {
            parts.push(format!("+{}", self.rows.len() - SHOWN));
        }
        parts.join(" ")
    }
}

/// A transition between two statuses (or from birth), with its causes.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: Option<Status>,
    pub to: Status,
    pub causes: Vec<Cause>,
    pub legal: bool,
    /// How many times rows took it so far.
    pub taken: u32,
    /// SVG path data.
    pub path: String,
    /// The label, one line per entry, the first at `label_y`.
    pub lines: Vec<String>,
    pub label_x: f64,
    pub label_y: f64,
    pub anchor: Anchor,
}

/// A transition taken so far, for the list beside the drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    pub from: Option<Status>,
    pub to: Status,
    pub cause: Cause,
    pub legal: bool,
    pub count: u32,
    /// The first row that took it.
    pub row: RowId,
}

impl Taken {
    /// "PENDING → FAILED (timeout)".
    pub fn name(&self) -> String {
        format!("{} → {} ({})", self.from.map_or("new row", |s| s.name()), self.to.name(), self.cause.name())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    pub nodes: Vec<Node>,
    /// The legal transitions, then the illegal ones taken so far.
    pub edges: Vec<Edge>,
    pub taken: Vec<Taken>,
    /// The row that moved last, and where to.
    pub latest: Option<(RowId, Status)>,
}

fn num(v: f64) -> String {
    crate::view::num::d1(v).to_string()
}

/// Where the segment from the centre of a box towards `to` leaves it.
fn exit(from: (f64, f64), to: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    if dx == 0.0 && dy == 0.0 {
        return from;
    }
    let sx = if dx == 0.0 { f64::INFINITY } else { (NODE_W / 2.0 + 4.0) / dx.abs() };
    let sy = if dy == 0.0 { f64::INFINITY } else { (NODE_H / 2.0 + 4.0) / dy.abs() };
    let s = sx.min(sy);
    (from.0 + dx * s, from.1 + dy * s)
}

/// Where a legal edge's label goes, placed by hand so no two meet.
fn legal_label(from: Option<Status>, to: Status) -> ((f64, f64), Anchor) {
    use Status as S;
    match (from, to) {
        (None, _) => ((100.0, 192.0), Anchor::Middle),
        (Some(S::Pending), S::Failed) => ((228.0, 128.0), Anchor::Start),
        (Some(S::Pending), S::Succeeded) => ((326.0, 152.0), Anchor::Start),
        (Some(S::Pending), S::Unknown) => ((350.0, 218.0), Anchor::Middle),
        (Some(S::Unknown), S::Succeeded) => ((488.0, 128.0), Anchor::Start),
        // Three causes, one to a line, right-aligned at the drawing's edge
        // between UNKNOWN's box and the label of UNKNOWN -> SUCCEEDED.
        (Some(S::Unknown), S::Unknown) => ((596.0, 142.0), Anchor::End),
        (Some(S::Unknown), S::Retryable) => ((432.0, 282.0), Anchor::Start),
        (Some(S::Retryable), S::Pending) => ((268.0, 282.0), Anchor::End),
        // Not a legal pair; placed mid-way, should the rule ever change.
        (Some(a), b) => {
            let (p, q) = (centre(a), centre(b));
            (((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0), Anchor::Middle)
        }
    }
}

/// A path between two statuses: straight for legal moves, bowed to one
/// side for illegal ones (so an illegal move between the same two statuses
/// as a legal one is drawn apart), a loop for a move that stays put. With
/// the label's point and anchor for a bowed edge.
fn edge_path(from: Option<Status>, to: Status, bow: f64) -> (String, (f64, f64), Anchor) {
    let b = centre(to);
    let a = from.map_or(BIRTH, centre);
    if from == Some(to) {
        // A loop on the box's right (or, bowed, its left) side.
        let side = if bow == 0.0 { 1.0 } else { -1.0 };
        let x = b.0 + side * NODE_W / 2.0;
        let (y1, y2) = (b.1 - 8.0, b.1 + 8.0);
        let reach = x + side * 30.0;
        let path = format!(
            "M{} {}C{} {} {} {} {} {}",
            num(x),
            num(y1),
            num(reach),
            num(y1 - 26.0),
            num(reach),
            num(y2 + 26.0),
            num(x + side * 2.0),
            num(y2)
        );
        let anchor = if side > 0.0 { Anchor::Start } else { Anchor::End };
        return (path, (reach + side * 4.0, b.1 - 26.0), anchor);
    }
    let start = if from.is_none() { a } else { exit(a, b) };
    let end = exit(b, a);
    if bow == 0.0 {
        let path = format!("M{} {}L{} {}", num(start.0), num(start.1), num(end.0), num(end.1));
        return (path, ((start.0 + end.0) / 2.0, (start.1 + end.1) / 2.0), Anchor::Middle);
    }
    // The control point sits `bow` units to the left of the direction of
    // travel, from the middle of the chord.
    let (dx, dy) = (end.0 - start.0, end.1 - start.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (nx, ny) = (dy / len, -dx / len);
    let mid = ((start.0 + end.0) / 2.0, (start.1 + end.1) / 2.0);
    let control = (mid.0 + nx * bow, mid.1 + ny * bow);
    let path = format!(
        "M{} {}Q{} {} {} {}",
        num(start.0),
        num(start.1),
        num(control.0),
        num(control.1),
        num(end.0),
        num(end.1)
    );
    // The curve's middle is halfway from the chord's middle to the control;
    // the label sits just outside it, away from the chord.
    let curve = ((mid.0 + control.0) / 2.0, (mid.1 + control.1) / 2.0);
    let anchor = if nx < 0.0 { Anchor::End } else { Anchor::Start };
    ((path), (curve.0 + nx * 8.0, curve.1 + ny * 8.0), anchor)
}

/// Every legal (from, to) pair with its causes, from the core's rule.
pub fn legal_edges() -> Vec<(Option<Status>, Status, Vec<Cause>)> {
    let mut out: Vec<(Option<Status>, Status, Vec<Cause>)> = Vec::new();
    for from in [None].into_iter().chain(Status::ALL.map(Some)) {
        for to in Status::ALL {
            let causes: Vec<Cause> = Cause::ALL.into_iter().filter(|c| is_legal(from, to, *c)).collect();
            if !causes.is_empty() {
                out.push((from, to, causes));
            }
        }
    }
    out
}

/// A legal edge's causes, one to a line, so the longest edge's four causes
/// stay between its boxes.
fn label_lines(causes: &[Cause]) -> Vec<String> {
    causes.iter().map(|c| c.name().to_owned()).collect()
}

/// The machine as of `t`.
pub fn machine(run: &Run, t: Millis) -> Machine {
    // Each row's status, by its place in the table.
    let mut status: Vec<Option<(RowId, Status)>> = Vec::new();
    let mut taken: Vec<Taken> = Vec::new();
    let mut latest = None;
    for r in run.records_until(t) {
        let Some(m) = r.row_move() else { continue };
        let i = m.row.index();
        if status.len() <= i {
            status.resize(i + 1, None);
        }
        status[i] = Some((m.row, m.to));
        latest = Some((m.row, m.to));
        match taken.iter_mut().find(|k| k.from == m.from && k.to == m.to && k.cause == m.cause) {
            Some(k) => k.count += 1,
            None => {
                taken.push(Taken { from: m.from, to: m.to, cause: m.cause, legal: m.is_legal(), count: 1, row: m.row })
            }
        }
    }
    let nodes = Status::ALL
        .into_iter()
        .map(|s| {
            let (x, y) = centre(s);
            let rows = status.iter().flatten().filter(|(_, st)| *st == s).map(|(r, _)| *r).collect();
            Node { status: s, x, y, w: NODE_W, h: NODE_H, rows }
        })
        .collect();
    let mut edges: Vec<Edge> = legal_edges()
        .into_iter()
        .map(|(from, to, causes)| {
            let (path, _, _) = edge_path(from, to, 0.0);
            let ((label_x, label_y), anchor) = legal_label(from, to);
            let taken = taken.iter().filter(|k| k.legal && k.from == from && k.to == to).map(|k| k.count).sum();
            let mut lines = label_lines(&causes);
            if taken > 0
                && let Some(last) = lines.last_mut()
            {
                last.push_str(&format!(" ×{taken}"));
            }
            Edge { from, to, causes, legal: true, taken, path, lines, label_x, label_y, anchor }
        })
        .collect();
    // Illegal moves taken so far, one edge per (from, to), bowed away from
    // any legal edge between the same statuses.
    let mut illegal: Vec<(Option<Status>, Status, Vec<Cause>, u32)> = Vec::new();
    for k in taken.iter().filter(|k| !k.legal) {
        match illegal.iter_mut().find(|e| e.0 == k.from && e.1 == k.to) {
            Some(e) => {
                e.2.push(k.cause);
                e.3 += k.count;
            }
            None => illegal.push((k.from, k.to, vec![k.cause], k.count)),
        }
    }
    for (from, to, causes, count) in illegal {
        let (path, (label_x, label_y), anchor) = edge_path(from, to, 60.0);
        let mut lines: Vec<String> = causes.iter().map(|c| c.name().to_owned()).collect();
        lines.push(format!("illegal ×{count}"));
        edges.push(Edge { from, to, causes, legal: false, taken: count, path, lines, label_x, label_y, anchor });
    }
    Machine { nodes, edges, taken, latest }
}

/// The machine in one sentence, for its accessible description.
pub fn describe(m: &Machine) -> String {
    let places: Vec<String> = m
        .nodes
        .iter()
        .map(|n| {
            if n.rows.is_empty() {
                format!("{}: no rows", n.status.name())
            } else {
                format!("{}: {}", n.status.name(), n.rows_text())
            }
        })
        .collect();
    let illegal: Vec<String> = m.taken.iter().filter(|k| !k.legal).map(|k| format!("{}, illegal", k.name())).collect();
    let illegal = if illegal.is_empty() {
        "No illegal transition so far.".to_owned()
    } else {
        format!("Taken so far: {}.", illegal.join("; "))
    };
    format!("Rows by status: {}. {illegal}", places.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Settings};

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    #[test]
    fn the_legal_edges_are_the_contracts_table() {
        let pairs: Vec<(Option<&str>, &str, usize)> =
            legal_edges().iter().map(|(f, t, c)| (f.map(|s| s.name()), t.name(), c.len())).collect();
        assert_eq!(
            pairs,
            [
                (None, "PENDING", 1),
                (Some("PENDING"), "SUCCEEDED", 1),
                (Some("PENDING"), "FAILED", 1),
                (Some("PENDING"), "UNKNOWN", 4),
                (Some("UNKNOWN"), "SUCCEEDED", 1),
                (Some("UNKNOWN"), "UNKNOWN", 3),
                (Some("UNKNOWN"), "RETRYABLE", 1),
                (Some("RETRYABLE"), "PENDING", 1),
            ]
        );
    }

    #[test]
    fn the_naive_incident_marks_pending_to_failed_on_timeout_illegal() {
        let r = run(Preset::Incident, Mode::Naive);
        let m = machine(&r, r.horizon());
        let illegal: Vec<&Edge> = m.edges.iter().filter(|e| !e.legal).collect();
        assert_eq!(illegal.len(), 1);
        assert_eq!((illegal[0].from, illegal[0].to), (Some(Status::Pending), Status::Failed));
        assert_eq!(illegal[0].lines, ["timeout", "illegal ×1"]);
        // It is drawn apart from the legal PENDING -> FAILED (business_rejection).
        let legal = m.edges.iter().find(|e| e.legal && e.to == Status::Failed).unwrap();
        assert_ne!(legal.path, illegal[0].path);
        assert_eq!(legal.taken, 0);
        let names: Vec<String> = m.taken.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            ["new row → PENDING (inserted)", "PENDING → FAILED (timeout)", "PENDING → SUCCEEDED (create_succeeded)"]
        );
        let failed = m.nodes.iter().find(|n| n.status == Status::Failed).unwrap();
        assert_eq!(failed.rows_text(), "R10086");
        assert!(describe(&m).contains("PENDING → FAILED (timeout), illegal"));
        // Before the timeout the row is PENDING and nothing is illegal yet.
        let early = machine(&r, Millis(2_000));
        assert!(early.edges.iter().all(|e| e.legal));
        assert_eq!(early.latest, Some((RowId(10086), Status::Pending)));
    }

    #[test]
    fn the_patterns_take_only_legal_edges_and_count_them() {
        let r = run(Preset::NotFoundResend, Mode::Patterns);
        let m = machine(&r, r.horizon());
        assert!(m.edges.iter().all(|e| e.legal));
        let claim = m.edges.iter().find(|e| e.from == Some(Status::Retryable)).unwrap();
        assert_eq!((claim.to, claim.taken), (Status::Pending, 1));
        let many = machine(&run(Preset::Overload, Mode::Patterns), Millis(30_000));
        let done = many.nodes.iter().find(|n| n.status == Status::Succeeded).unwrap();
        assert_eq!(done.rows.len(), 200);
        assert_eq!(done.rows_text(), "R10086 R10087 R10088 +197");
    }

    /// Each label line's box, at the width the page's 12 px monospace
    /// font gives it (bold, for illegal labels, is no wider).
    fn label_boxes(m: &Machine) -> Vec<(String, f64, f64, f64, f64)> {
        const CHAR_W: f64 = 7.3;
        let mut boxes = Vec::new();
        for e in &m.edges {
            for (i, line) in e.lines.iter().enumerate() {
                let w = line.chars().count() as f64 * CHAR_W;
                let x = match e.anchor {
                    Anchor::Start => e.label_x,
                    Anchor::Middle => e.label_x - w / 2.0,
                    Anchor::End => e.label_x - w,
                };
                let y = e.label_y + i as f64 * LINE_H;
                boxes.push((line.clone(), x, y - 10.0, w, 12.0));
            }
        }
        boxes
    }

    #[test]
    fn labels_stay_inside_the_drawing_and_apart() {
        // The naive incident has the illegal edge; random faults add more.
        let mut runs = vec![run(Preset::Incident, Mode::Naive), run(Preset::NotFoundResend, Mode::Patterns)];
        runs.push(run(Preset::RandomFaults, Mode::Naive));
        runs.push(run(Preset::Overload, Mode::Patterns));
        runs.push(run(Preset::Overload, Mode::Naive));
        runs.push(run(Preset::WorkerCrash, Mode::Patterns));
        for r in runs {
            let m = machine(&r, r.horizon());
            let boxes = label_boxes(&m);
            let nodes: Vec<(f64, f64, f64, f64)> =
                m.nodes.iter().map(|n| (n.x - n.w / 2.0, n.y - n.h / 2.0, n.w, n.h)).collect();
            for (i, (text, x, y, w, h)) in boxes.iter().enumerate() {
                assert!(*x >= 0.0 && x + w <= WIDTH && *y >= 0.0 && y + h <= HEIGHT, "{text:?} leaves the drawing");
                for (other, ox, oy, ow, oh) in &boxes[i + 1..] {
                    let apart = x + w <= *ox || ox + ow <= *x || y + h <= *oy || oy + oh <= *y;
                    assert!(apart, "{text:?} meets {other:?}");
                }
                for (nx, ny, nw, nh) in &nodes {
                    let apart = x + w <= *nx || nx + nw <= *x || y + h <= *ny || ny + nh <= *y;
                    assert!(apart, "{text:?} covers a status box");
                }
            }
        }
    }
}
