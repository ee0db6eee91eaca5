//! Markup for the risk page's read-only panels: the timeline, the database
//! table, the state machine, the checks, the incident's log, a call's
//! reconstruction, alerts, the deadline budget, the gates and the recent
//! events' lines (the lists are every page's, in `view::markup`). Each is a
//! pure function from what `view::risk` computes to escaped HTML (or SVG),
//! so it is tested natively and the page sets it as the panel's content.
//! Writing the markup here instead of as Leptos views keeps the page's
//! bundle small (each Leptos view is several kilobytes of generic code)
//! and makes a pattern switch redraw in one pass.
//!
//! Anything the reader can choose carries its moment as `data-t` (model
//! milliseconds) or its call as `data-call`; the page listens once per
//! panel. No markup here carries a style attribute or a script, so it runs
//! under the page's Content-Security-Policy.

use std::fmt::Write;

use crate::sim::Millis;
use crate::sim::risk::Snapshot;
use crate::sim::risk::{Check, Record, Row};
use crate::view::num::{d0, d1};
use crate::view::timeline::{Diagram, Orientation, escape, page};

use crate::view::markup::{self, EventLine};

use super::alerts::Alert;
use super::checks::{is_invariant, title};
use super::incident::IncidentLine;
use super::load::Little;
use super::machine::{BIRTH, HEIGHT, LINE_H, Machine, WIDTH};
use super::names;
use super::sentences::{sentence, verdict};
use super::table::{Change, Conflict, cells, status_class};
use super::trace::{CallEntry, Part, Spend, Trace};
use super::verdicts::summary;

/// Pushes formatted text; writing to a `String` cannot fail.
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

// The timeline.

/// Where the playhead and the veil over the future start, for a diagram
/// whose future is hidden (`predicting`) or faded.
pub const PLAYHEAD_ID: &str = "risk-playhead";
pub const VEIL_ID: &str = "risk-veil";

/// The width of the lane titles pinned beside the timeline.
pub const LANE_TITLES_W: f64 = 100.0;

/// The lane titles pinned beside a run's timeline (or above its sequence
/// diagram), as the page and the written opening run show them.
pub fn lane_titles(d: &Diagram) -> String {
    d.lane_titles_svg(LANE_TITLES_W, 6.0, 1.0)
}

/// The run's timeline as two SVG elements, the axis strip and the body.
/// The body holds the lanes, the items (those that show an event carry its
/// time as `data-t`), then a veil over everything after the playhead and
/// the playhead itself, which the page moves. The axis strip holds the
/// axis's labels and is drawn beneath the body, whose axis lane is left
/// clear, so the veil fades them too. Two runs at the same instants and of
/// the same width share their axis strip, and a pattern switch then
/// parses and lays out the body alone.
///
/// `prefix` goes before every id in the body ("" for run A, "b-" for run
/// B, so two diagrams share a page; a prefixed diagram is named run B's),
/// and `diverge` is the index of the
/// event where this run first parts from the run it is compared with: its
/// marks are highlighted (`diverge`) and a line marks its moment.
pub fn diagram_svg(d: &Diagram, records: &[Record], prefix: &str, diverge: Option<usize>) -> (String, String) {
    let mut out = String::with_capacity(64 * 1024);
    let (w, h) = (d1(d.width), d1(d.height));
    let mut axis = format!(
        "<svg class=\"axis-strip\" width=\"{w}\" height=\"{}\" aria-hidden=\"true\">",
        d1(d.lanes.first().map_or(0.0, |l| l.height))
    );
    put!(
        out,
        "<svg class=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         role=\"img\" aria-labelledby=\"{prefix}risk-diagram-title\" aria-describedby=\"{prefix}risk-diagram-desc\">\
         <title id=\"{prefix}risk-diagram-title\">{}</title><desc id=\"{prefix}risk-diagram-desc\">{}</desc>",
        if prefix.is_empty() { "Timeline of the run" } else { "Timeline of run B" },
        escape(&d.summary)
    );
    let arrow = format!("{prefix}risk-arrowhead");
    page::arrowhead_defs(&mut out, &arrow);
    // The axis lane is the strip's.
    for i in 1..d.lanes.len() {
        page::band(&mut out, d, i);
    }
    if let Some(r) = diverge.and_then(|i| records.get(i)) {
        let (x1, y1, x2, y2) = d.playhead(r.t);
        put!(
            out,
            "<line class=\"divergence\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>",
            d1(x1),
            d1(x2),
            d1(y1),
            d1(y2)
        );
    }
    // Down the page, the times are labels beside the others, in the body.
    let down = d.orientation == Orientation::Down;
    // The shapes, the playhead, then the labels (which the diagram lists
    // last), so neither a line nor the playhead is painted over a label;
    // the veil over the future then fades all three.
    let labels = d.items.partition_point(|it| !matches!(it.shape, crate::view::timeline::Shape::Text { .. }));
    for (n, item) in d.items.iter().enumerate() {
        if n == labels {
            page::playhead(&mut out, d, Millis::ZERO, &format!(" id=\"{prefix}{PLAYHEAD_ID}\""));
        }
        let at = item.record.and_then(|i| records.get(i).map(|r| (i, r.t)));
        // Every item carries its moment, so a future hidden rather than
        // faded hides it whole; those that show an event can be chosen.
        let (clickable, data) = match at {
            Some((i, t)) => (" clickable", format!(" data-t=\"{}\" data-record=\"{i}\"", t.ms())),
            None => ("", format!(" data-t=\"{}\"", item.t.ms())),
        };
        let marked = if diverge.is_some() && item.record == diverge { " diverge" } else { "" };
        let layer = if item.class.starts_with("axis") && !down { &mut axis } else { &mut out };
        page::item(layer, item, &format!("{clickable}{marked}"), &data, &arrow);
    }
    if labels == d.items.len() {
        page::playhead(&mut out, d, Millis::ZERO, &format!(" id=\"{prefix}{PLAYHEAD_ID}\""));
    }
    // The veil over what comes after the playhead, drawn where the
    // playhead starts (the page moves both).
    let (vx, vy, vw, vh) = d.after(Millis::ZERO);
    put!(
        out,
        "<rect id=\"{prefix}{VEIL_ID}\" class=\"future-veil\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        d1(vx),
        d1(vy),
        d1(vw),
        d1(vh)
    );
    out.push_str("</svg>");
    if down {
        // No strip: an empty axis layer leaves the body as it is.
        return (String::new(), out);
    }
    axis.push_str("</svg>");
    (axis, out)
}

// The database table.

/// The table's rows: status colours, the row that changed last marked
/// (`changed`, `aria-current`), and each conflict on the row it hit.
pub fn table_rows(rows: &[Row], change: Option<&Change>, conflicts: &[Conflict]) -> String {
    let mut out = String::with_capacity(rows.len() * 400);
    for row in rows {
        let changed = change.is_some_and(|c| c.row == row.id);
        put!(
            out,
            "<tr class=\"row {}{}\"{}>",
            status_class(row.status),
            if changed { " changed" } else { "" },
            if changed { " aria-current=\"true\"" } else { "" }
        );
        for (i, text) in cells(row).iter().enumerate() {
            match i {
                0 => put!(out, "<th scope=\"row\">{}</th>", escape(text)),
                5 => put!(out, "<td><span class=\"status-chip\">{}</span></td>", escape(text)),
                _ => put!(out, "<td>{}</td>", escape(text)),
            }
        }
        out.push_str("<td class=\"conflicts\">");
        for c in conflicts.iter().filter(|c| c.existing == row.id) {
            put!(out, "<span class=\"conflict\">{}</span>", escape(&c.text));
        }
        out.push_str("</td></tr>");
    }
    out
}

// The state machine.

/// The machine as an SVG element, described in words for assistive
/// technology.
pub fn machine_svg(m: &Machine, description: &str) -> String {
    let mut out = String::with_capacity(8 * 1024);
    put!(
        out,
        "<svg class=\"machine-drawing\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"machine-title\" \
         aria-describedby=\"machine-desc\"><title id=\"machine-title\">States of the rows and their transitions</title>\
         <desc id=\"machine-desc\">{}</desc><defs><marker id=\"machine-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" \
         refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path class=\"arrowhead\" \
         d=\"M0 0L10 5L0 10z\"/></marker></defs><circle class=\"birth\" cx=\"{}\" cy=\"{}\" r=\"6\"/>",
        d0(WIDTH),
        d0(HEIGHT),
        escape(description),
        d1(BIRTH.0),
        d1(BIRTH.1)
    );
    for e in &m.edges {
        let class = match (e.legal, e.taken > 0) {
            (false, _) => "edge illegal",
            (true, true) => "edge taken",
            (true, false) => "edge",
        };
        put!(out, "<path class=\"{class}\" d=\"{}\" marker-end=\"url(#machine-arrow)\"/>", e.path);
        let label = if e.legal { "edge-label" } else { "edge-label illegal" };
        for (i, line) in e.lines.iter().enumerate() {
            put!(
                out,
                "<text class=\"{label}\" text-anchor=\"{}\" x=\"{}\" y=\"{}\">{}</text>",
                e.anchor.name(),
                d1(e.label_x),
                d1(e.label_y + i as f64 * LINE_H),
                escape(line)
            );
        }
    }
    let latest = m.latest.map(|(_, s)| s);
    for n in &m.nodes {
        put!(
            out,
            "<g class=\"state {}{}{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\"/>\
             <text class=\"state-name\" x=\"{}\" y=\"{}\">{}</text><text class=\"state-rows\" x=\"{}\" y=\"{}\">{}</text></g>",
            status_class(n.status),
            if n.rows.is_empty() { "" } else { " occupied" },
            if latest == Some(n.status) { " latest" } else { "" },
            d1(n.x - n.w / 2.0),
            d1(n.y - n.h / 2.0),
            d1(n.w),
            d1(n.h),
            d1(n.x),
            d1(n.y + 5.0),
            n.status.name(),
            d1(n.x),
            d1(n.y + n.h / 2.0 + 16.0),
            escape(&n.rows_text())
        );
    }
    out.push_str("</svg>");
    out
}

/// The transitions taken so far, legal or not.
pub fn taken_list(m: &Machine) -> String {
    if m.taken.is_empty() {
        return "<li class=\"empty\">None yet.</li>".to_owned();
    }
    let mut out = String::new();
    for k in &m.taken {
        let (class, word) = if k.legal { ("taken legal", "legal") } else { ("taken illegal", "illegal") };
        put!(
            out,
            "<li class=\"{class}\"><span class=\"transition-name\">{}</span> ×{}: <strong class=\"legality\">{word}</strong></li>",
            escape(&k.name()),
            k.count
        );
    }
    out
}

// The checks.

/// The checks of one kind (the six conditions, or the four invariants),
/// with their verdicts and figures unless the answer is `hidden`.
pub fn check_items(checks: &[Check], invariants: bool, hidden: bool) -> String {
    let mut out = String::new();
    for c in checks.iter().filter(|c| is_invariant(c.name) == invariants) {
        let (class, word, said) = if hidden {
            ("acceptance hidden-answer", "?", "Predict first to see the figures.".to_owned())
        } else {
            let class = match c.holds {
                Some(true) => "acceptance holds",
                Some(false) => "acceptance fails",
                None => "acceptance na",
            };
            (class, verdict(c.holds), summary(c))
        };
        put!(
            out,
            "<li class=\"{class}\"><p class=\"check-head\"><span class=\"verdict-word\">{word}</span> \
             <span class=\"check-title\">{}</span></p><code class=\"check-name\">{}</code>\
             <p class=\"check-figures\">{}</p></li>",
            escape(title(c.name)),
            c.name.name(),
            escape(&said)
        );
    }
    out
}

// The incident's log.

/// The report's six lines beside the run's, each a button to its moment;
/// lines the playhead has passed are marked `past`.
pub fn incident_items(lines: &[IncidentLine], playhead: Millis) -> String {
    let mut out = String::new();
    for line in lines {
        let at = line.matched.map(|(_, t)| t);
        let state = match at {
            Some(t) if t <= playhead => "past",
            Some(_) => "future",
            None => "absent",
        };
        let data = at.map_or_else(|| " disabled".to_owned(), |t| format!(" data-t=\"{}\"", t.ms()));
        put!(
            out,
            "<li class=\"log-line {state}\"><button type=\"button\" class=\"log-entry\"{data}>\
             <span class=\"log-clock\"><span class=\"log-label\">report </span><time>{}</time>\
             <span class=\"log-label\"> · run </span><time>{}</time></span>\
             <span class=\"log-report\">{}</span><span class=\"log-run\">{}</span></button></li>",
            line.report.clock,
            line.run_clock().unwrap_or_else(|| "—".to_owned()),
            escape(line.report.text),
            escape(&line.run_text)
        );
    }
    out
}

// Reconstructing a call.

/// The menu of calls, with `selected` chosen.
pub fn call_options(calls: &[CallEntry], selected: Option<u32>) -> String {
    let mut out = String::with_capacity(calls.len() * 80);
    for c in calls {
        let chosen = if selected == Some(c.call.0) { " selected" } else { "" };
        put!(out, "<option value=\"{}\"{chosen}>{}</option>", c.call.0, escape(&c.label));
    }
    out
}

/// What the records say about one call.
pub fn trace_details(t: &Trace) -> String {
    let mut out = String::with_capacity(4 * 1024);
    let none = "—".to_owned();
    let facts: [(&str, String, bool); 7] = [
        (
            "Call",
            format!("{} ({}) at {}, via replica {}", names::call(t.call), t.tool, names::clock(t.made_at), t.replica),
            false,
        ),
        ("Who, for whom", t.who.clone(), false),
        ("Policy", t.policy.clone(), false),
        ("request_key (sanitised)", t.request_key.clone().unwrap_or_else(|| none.clone()), true),
        ("business_key", t.business_key.clone().unwrap_or_else(|| none.clone()), true),
        ("review_id", t.review_id.clone().unwrap_or_else(|| none.clone()), true),
        ("Result", t.result.clone(), false),
    ];
    out.push_str("<dl class=\"trace-facts\">");
    for (name, value, code) in facts {
        if code {
            put!(out, "<div><dt>{}</dt><dd><code>{}</code></dd></div>", escape(name), escape(&value));
        } else {
            put!(out, "<div><dt>{}</dt><dd>{}</dd></div>", escape(name), escape(&value));
        }
    }
    out.push_str(
        "</dl><h3 id=\"trace-moves-h\">Its row's transitions</h3><ul class=\"trace-list\" aria-labelledby=\"trace-moves-h\">",
    );
    if t.moves.is_empty() {
        out.push_str("<li>No row was written for this call by the playhead.</li>");
    }
    for m in &t.moves {
        let from = m.from.map_or("new row", |s| s.name());
        let latency =
            m.downstream.map_or_else(String::new, |d| format!("; the Risk API answered or timed out after {d}"));
        let (class, legal) = if m.legal { ("move", "") } else { ("move illegal", ", illegal") };
        put!(
            out,
            "<li class=\"{class}\"><time>{}</time> {}: {from} → {} ({}{legal}) by {}{latency}</li>",
            names::clock(m.t),
            names::row(m.row),
            m.to.name(),
            m.cause,
            escape(&m.by)
        );
    }
    out.push_str(
        "</ul><h3 id=\"trace-touches-h\">Probes and claims that touched its row</h3>\
         <ul class=\"trace-list\" aria-labelledby=\"trace-touches-h\">",
    );
    if t.touches.is_empty() {
        out.push_str("<li>No probe or claim touched its row by the playhead.</li>");
    }
    for (at, text) in &t.touches {
        put!(out, "<li><time>{}</time> {}</li>", names::clock(*at), escape(text));
    }
    out.push_str("</ul>");
    out
}

// Alerts.

pub fn alert_items(alerts: &[Alert]) -> String {
    if alerts.is_empty() {
        return "<li class=\"quiet\">No alerts by the playhead.</li>".to_owned();
    }
    let mut out = String::new();
    for a in alerts {
        put!(
            out,
            "<li class=\"alert {}\"><time>{}</time> {}</li>",
            a.kind.name(),
            names::clock(a.since),
            escape(&a.text)
        );
    }
    out
}

// The deadline budget.

/// A part's CSS name ("auth/policy" is "auth-policy"), so a part has one
/// colour in the budget and in the spend.
fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

fn parts_text(parts: &[Part]) -> String {
    parts.iter().map(|p| format!("{} {}", p.name, Millis(p.ms))).collect::<Vec<_>>().join(", ")
}

/// One bar of parts scaled so `scale_ms` fills it, with its legend.
fn bar(out: &mut String, parts: &[Part], scale_ms: u64, class: &str, label: &str) {
    let scale = if scale_ms == 0 { 0.0 } else { 100.0 / scale_ms as f64 };
    put!(
        out,
        "<svg class=\"budget-bar\" viewBox=\"0 0 100 10\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"{}\">",
        escape(label)
    );
    let mut x = 0.0;
    for p in parts.iter().filter(|p| p.ms > 0) {
        let w = p.ms as f64 * scale;
        put!(
            out,
            "<rect class=\"{class} part-{}\" x=\"{}\" y=\"0\" width=\"{}\" height=\"10\"/>",
            slug(p.name),
            d1(x),
            d1(w.max(0.4))
        );
        x += w;
    }
    out.push_str("</svg><ul class=\"budget-legend\">");
    for p in parts {
        put!(
            out,
            "<li><span class=\"swatch {class} part-{}\"></span>{} {}</li>",
            slug(p.name),
            escape(p.name),
            Millis(p.ms)
        );
    }
    out.push_str("</ul>");
}

/// The budget of the client deadline, and a call's actual spend.
pub fn budget_html(plan: &[Part], deadline: Millis, spend: Option<&Spend>) -> String {
    let mut out = String::new();
    out.push_str("<p class=\"budget-caption\">Budget</p>");
    let label = format!("Budget of {deadline}: {}", parts_text(plan));
    bar(&mut out, plan, deadline.ms(), "plan", &label);
    if let Some(s) = spend {
        let verdict = match (s.answered, s.within_deadline()) {
            (true, true) => format!("answered after {} of the {} deadline", s.total, s.deadline),
            (true, false) => format!("answered after {}: past the {} deadline", s.total, s.deadline),
            (false, _) => format!("{} so far and no answer", s.total),
        };
        let call = names::call(s.call);
        put!(out, "<p class=\"budget-caption\">{call}: {verdict}.</p>");
        let label = format!("{call} spent: {}", parts_text(&s.parts));
        // Past the deadline the bar grows to the call's whole time.
        bar(&mut out, &s.parts, s.deadline.max(s.total).ms(), "spend", &label);
    }
    out
}

// Gates and queues.

/// The global gate, if on, then each replica's gates.
pub fn gates_html(snapshot: &Snapshot) -> String {
    let mut out = String::new();
    if let Some(quota) = snapshot.fleet_quota {
        let (working, queued) = snapshot.fleet();
        put!(
            out,
            "<div class=\"gate\"><h3>Global gate</h3><p>{working} of {quota} working across the fleet, {queued} queued</p>\
             <div class=\"meters\"><label>Working <meter min=\"0\" max=\"{quota}\" value=\"{working}\"></meter></label></div></div>"
        );
    }
    for g in &snapshot.gates {
        let limits = if g.on {
            format!("{} of {} in flight, {} of {} queued", g.in_flight, g.cap, g.queued, g.capacity)
        } else {
            format!("{} in flight, {} queued, no gates (cap {} not applied)", g.in_flight, g.queued, g.cap)
        };
        put!(
            out,
            "<div class=\"gate\"><h3>Replica {name}</h3><p>{limits}</p><div class=\"meters\">\
             <label>In flight <meter min=\"0\" max=\"{}\" value=\"{}\"></meter></label>\
             <label>Queued <meter min=\"0\" max=\"{}\" value=\"{}\"></meter></label></div>\
             <p class=\"hint\">So far at most {} in flight and {} queued; {} OVERLOADED.</p></div>",
            g.cap.max(g.max_in_flight).max(1),
            g.in_flight,
            g.capacity.max(g.max_queued).max(1),
            g.queued,
            g.max_in_flight,
            g.max_queued,
            g.overloaded,
            name = g.replica.name(),
        );
    }
    out
}

pub fn little_html(l: &Little) -> String {
    format!(
        "<div class=\"littles-law\"><h3>Little's law</h3><p>In flight ≈ arrival rate × residence time.</p><p>{}</p></div>",
        escape(&l.sentence())
    )
}

// The figures at the playhead.

/// What a reader looks at first: reviews at the Risk API (the truth),
/// rows, tool calls and illegal transitions at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    pub reviews: usize,
    pub rows: usize,
    pub calls: usize,
    pub illegal: usize,
    /// Some order has more than one review.
    pub doubled: bool,
}

impl Figures {
    pub fn at(snapshot: &crate::sim::risk::Snapshot, records: &[Record]) -> Figures {
        let reviews = &snapshot.reviews;
        // The Risk API numbers its reviews in order; a review whose order an
        // earlier one already has is a second review for that order.
        let doubled = reviews.iter().enumerate().any(|(i, r)| reviews[..i].iter().any(|e| e.order == r.order));
        Figures {
            reviews: reviews.len(),
            rows: snapshot.rows.len(),
            calls: snapshot.calls.len(),
            illegal: records.iter().filter_map(|r| r.row_move()).filter(|m| !m.is_legal()).count(),
            doubled,
        }
    }
}

/// The figures as a list of terms (each "?" while the answer is hidden),
/// and a warning when an order has two reviews.
pub fn figures_html(f: &Figures, hidden: bool) -> String {
    let mut out = String::from("<dl class=\"figures\">");
    for (name, class, value) in [
        ("Reviews at the Risk API", "reviews", f.reviews),
        ("Rows in the table", "rows", f.rows),
        ("Tool calls", "calls", f.calls),
        ("Illegal transitions", "illegal", f.illegal),
    ] {
        let value = if hidden { "?".to_owned() } else { value.to_string() };
        put!(out, "<div class=\"figure\"><dt>{name}</dt><dd class=\"{class}\">{value}</dd></div>");
    }
    out.push_str("</dl>");
    if hidden {
        out.push_str(
            "<p class=\"verdict pending\">Make your prediction in the preset's question to reveal the result.</p>",
        );
    } else if f.doubled {
        out.push_str(
            "<p class=\"verdict disagree\"><strong>Two reviews for one order: </strong>the Risk API holds more \
             reviews than there are orders that asked for one.</p>",
        );
    }
    out
}

// Presets and their questions.

/// One button per preset, `data-preset` its index; the active one pressed.
pub fn preset_buttons(titles: &[&str], active: Option<usize>) -> String {
    let mut out = String::new();
    for (i, title) in titles.iter().enumerate() {
        put!(
            out,
            "<li><button type=\"button\" data-preset=\"{i}\" aria-pressed=\"{}\">{}</button></li>",
            active == Some(i),
            escape(title)
        );
    }
    out
}

/// A preset's question: before the prediction, its choices (each a button
/// with `data-choice`, "Just show me" with an empty one); after it, the
/// run's answer and why (`answer` is the verdict and the explanation).
pub fn question_card(title: &str, question: &super::questions::Question, answer: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    put!(
        out,
        "<div class=\"experiment-card\" role=\"group\" aria-labelledby=\"question-title\">\
         <h3 id=\"question-title\" tabindex=\"-1\">{}</h3>",
        escape(title)
    );
    match answer {
        None => {
            put!(
                out,
                "<p class=\"question\" id=\"question-text\">Predict: {}</p>\
                 <div class=\"choices\" role=\"group\" aria-labelledby=\"question-text\">",
                escape(question.text)
            );
            for choice in question.choices {
                put!(out, "<button type=\"button\" data-choice=\"{0}\">{0}</button>", escape(choice));
            }
            out.push_str("</div><button type=\"button\" class=\"link\" data-choice=\"\">Just show me</button>");
        }
        Some((verdict, why)) => {
            put!(
                out,
                "<p class=\"question\">{}</p><p class=\"answer\"><strong>{}</strong></p>\
                 <p class=\"explanation\">{}</p><button type=\"button\" class=\"link\" data-close=\"\">Close the question</button>",
                escape(question.text),
                escape(verdict),
                escape(why)
            );
        }
    }
    out.push_str("</div>");
    out
}

// Recent events.

/// The newest `limit` of the first `count` records, newest first, each a
/// button to its moment on the incident's clock (the list every page
/// shares, `view::markup::event_items`).
pub fn event_items(records: &[Record], count: usize, limit: usize) -> String {
    let line = |r: &Record| EventLine { kind: r.kind(), t: r.t, time: names::clock(r.t), sentence: sentence(r) };
    markup::event_items(records, count, limit, line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::risk::{Mode, Preset, Run, Settings};
    use crate::view::risk::{diagram, incident, machine, table, trace};
    use crate::view::timeline::Frame;

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    /// Every tag that opens is closed (or closes itself), in order.
    fn balanced(markup: &str) -> bool {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = markup;
        while let Some(start) = rest.find('<') {
            let end = rest[start..].find('>').map(|e| start + e).unwrap_or(rest.len() - 1);
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            if tag.ends_with('/') {
                continue;
            }
            let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            if tag.starts_with('/') {
                if stack.pop().as_deref() != Some(name.as_str()) {
                    return false;
                }
            } else {
                stack.push(name);
            }
        }
        stack.is_empty()
    }

    #[test]
    fn the_timeline_carries_moments_a_veil_and_a_playhead() {
        let r = run(Preset::Incident, Mode::Naive);
        let d = diagram::diagram(&r);
        let (axis, svg) = diagram_svg(&d, r.records(), "", None);
        assert!(balanced(&svg), "{svg}");
        assert!(balanced(&axis), "{axis}");
        // The axis strip holds the wall clock, and the body none of it.
        assert!(axis.contains(">10:31:08.120<") && !svg.contains(">10:31:08.120<"));
        // The axis strip's labels carry their moments (a hidden future hides
        // them too), and no lane of its own.
        assert!(axis.contains("data-t=\"2621\"") && !axis.contains("lane-band"));
        assert!(svg.contains("data-t=\"2622\""), "the illegal move can be chosen");
        assert!(svg.contains(&format!("id=\"{VEIL_ID}\"")) && svg.contains(&format!("id=\"{PLAYHEAD_ID}\"")));
        assert!(svg.contains("R10086 PENDING → FAILED (timeout, illegal)"));
        assert!(!svg.contains("style="), "no inline styles under the CSP");
        assert!(balanced(&d.lane_titles_svg(100.0, 6.0, 1.0)));
    }

    #[test]
    fn two_runs_line_up_on_model_time_and_mark_where_they_part() {
        use crate::sim::risk::compare::Comparison;
        use crate::sim::risk::settings::IDEMPOTENT_CREATE;
        // The incident, naive, against the same with the idempotent create:
        // they part at 4.411 s, where the retry's create finds RV-1.
        let a = run(Preset::Incident, Mode::Naive);
        let b = Run::simulate(&Settings::from_pairs(&[(&IDEMPOTENT_CREATE, "on")]).unwrap()).unwrap();
        let d = Comparison::of(&a, &b).divergence.unwrap();
        assert_eq!(d.t(), Millis(4_411));
        let (times, end) = diagram::shared_axis(&a, &b);
        let (da, db) = (
            diagram::diagram_on(&a, times.clone(), end, Frame::Across(None)),
            diagram::diagram_on(&b, times, end, Frame::Across(None)),
        );
        for t in [0, 2_622, 4_411, 4_412, end.ms()] {
            assert_eq!(da.along(Millis(t)), db.along(Millis(t)), "at {t} ms");
        }
        assert_eq!(end, diagram::end_of(&a).max(diagram::end_of(&b)));
        // With every pattern on, the run has moments the naive one has no
        // event at (its claims and probes): each is a stop on the naive
        // run's axis too, where the naive run alone has none.
        let p = run(Preset::Incident, Mode::Patterns);
        let only_p = p.records().iter().map(|r| r.t).find(|t| a.records().iter().all(|r| r.t != *t)).unwrap();
        let (times, end) = diagram::shared_axis(&a, &p);
        assert!(
            diagram::diagram_on(&a, times, end, Frame::Across(None)).stops.iter().any(|(t, _)| *t == only_p),
            "{only_p}"
        );
        assert!(!diagram::diagram(&a).stops.iter().any(|(t, _)| *t == only_p));
        assert!(da.along(Millis(4_411)) > da.along(Millis(2_622)));
        let (_, sa) = diagram_svg(&da, a.records(), "", Some(d.index));
        let (_, sb) = diagram_svg(&db, b.records(), "b-", Some(d.index));
        let line = format!("<line class=\"divergence\" x1=\"{0}\" x2=\"{0}\"", d1(da.along(Millis(4_411))));
        assert!(sa.contains(&line) && sb.contains(&line), "{line}");
        assert!(sa.contains(" diverge\"") && sb.contains(" diverge\""));
        // Run B's ids are its own, so both diagrams fit in one page.
        assert!(sb.contains("id=\"b-risk-playhead\"") && sb.contains("url(#b-risk-arrowhead)"));
        assert!(!sb.contains("id=\"risk-"), "no id of run A's diagram");
        assert!(sb.contains(">Timeline of run B</title>") && sa.contains(">Timeline of the run</title>"));
        assert!(balanced(&sb));
        // Alone, a run marks nothing.
        let (_, alone) = diagram_svg(&diagram::diagram(&a), a.records(), "", None);
        assert!(!alone.contains("divergence") && !alone.contains(" diverge"));
    }

    #[test]
    fn text_is_escaped() {
        let r = run(Preset::SameRequestKey, Mode::Patterns);
        let events = event_items(r.records(), r.records().len(), 500);
        assert!(balanced(&events));
        // SQL strings carry quotes; they arrive escaped.
        assert!(events.contains("&#39;rk-0001&#39;"), "{events}");
        assert!(!events.contains("'rk-0001'"));
    }

    #[test]
    fn the_table_marks_the_changed_row_and_the_conflict() {
        // An agent that calls again at 10:31:12.000 rather than polling.
        use crate::sim::risk::settings::{MODE, RETRY_POLICY};
        let settings = Settings::from_pairs(&[(&MODE, "patterns"), (&RETRY_POLICY, "off")]).unwrap();
        let r = Run::simulate(&settings).unwrap();
        let t = r.horizon();
        let change = table::latest_change(&r, Millis(4_001));
        let rows = table_rows(r.rows(), change.as_ref(), &table::conflicts(&r, t));
        assert!(balanced(&rows));
        assert!(rows.starts_with(
            "<tr class=\"row status-succeeded changed\" aria-current=\"true\"><th scope=\"row\">R10086</th>"
        ));
        assert!(rows.contains("<span class=\"conflict\">10:31:12.121: replica A&#39;s insert for call 3"), "{rows}");
    }

    #[test]
    fn the_machine_and_the_checks_read_as_the_panels_say() {
        let r = run(Preset::Incident, Mode::Naive);
        let m = machine::machine(&r, r.horizon());
        let svg = machine_svg(&m, &machine::describe(&m));
        assert!(balanced(&svg), "{svg}");
        assert_eq!(svg.matches("class=\"edge illegal\"").count(), 1);
        assert!(taken_list(&m).contains("PENDING → FAILED (timeout)</span> ×1: <strong class=\"legality\">illegal"));
        let checks = r.checks();
        // The six acceptance conditions, and the eight invariants.
        let conditions = check_items(&checks, false, false);
        let invariants = check_items(&checks, true, false);
        assert_eq!((conditions.matches("<li").count(), invariants.matches("<li").count()), (6, 8));
        assert!(invariants.contains("reviews for O20260728001: 2"));
        assert!(balanced(&conditions) && balanced(&invariants));
        let hidden = check_items(&checks, true, true);
        assert!(!hidden.contains("fails") && hidden.matches(">?<").count() == 8);
    }

    #[test]
    fn the_figures_warn_of_two_reviews_for_one_order() {
        let r = run(Preset::Incident, Mode::Naive);
        let f = Figures::at(&r.snapshot_at(r.horizon()), r.records());
        assert_eq!((f.reviews, f.rows, f.calls, f.illegal, f.doubled), (2, 2, 2, 1, true));
        let html = figures_html(&f, false);
        assert!(balanced(&html) && html.contains("Two reviews for one order"));
        let hidden = figures_html(&f, true);
        assert!(!hidden.contains(">2<") && hidden.contains("Make your prediction"));
        let fine = run(Preset::Incident, Mode::Patterns);
        assert!(!Figures::at(&fine.snapshot_at(fine.horizon()), fine.records()).doubled);
    }

    #[test]
    fn a_question_offers_its_choices_then_the_answer() {
        use crate::view::risk::questions::question;
        let q = question(Preset::Incident);
        let before = question_card("The incident", &q, None);
        assert!(balanced(&before));
        assert!(before.contains("data-choice=\"1\">1</button>") && before.contains("data-choice=\"\">Just show me"));
        let after = question_card("The incident", &q, Some(("Right: 2.", "Two reviews.")));
        assert!(balanced(&after) && after.contains("<strong>Right: 2.</strong>") && !after.contains("data-choice"));
        let list = preset_buttons(&["a", "b"], Some(1));
        assert!(list.contains("data-preset=\"1\" aria-pressed=\"true\""));
        assert!(list.contains("data-preset=\"0\" aria-pressed=\"false\""));
    }

    #[test]
    fn the_other_panels_are_well_formed() {
        let r = run(Preset::NotFoundResend, Mode::Patterns);
        let t = r.horizon();
        let lines = incident::incident_lines(&r);
        let log = incident_items(&lines, Millis(0));
        assert!(balanced(&log));
        assert!(log.contains("class=\"log-line past\""), "the first call is at 0");
        assert!(log.contains(" disabled>"), "the patterns make no second review");
        let calls = trace::calls(&r);
        assert!(balanced(&call_options(&calls, Some(1))));
        assert!(call_options(&calls, Some(1)).contains("<option value=\"1\" selected>"));
        let tr = trace::trace(&r, calls[0].call, t).unwrap();
        assert!(balanced(&trace_details(&tr)));
        let alerts = super::super::alerts::alerts(&r, t);
        assert!(balanced(&alert_items(&alerts)));
        let plan = trace::budget(r.settings());
        let spend = trace::spend(&r, calls[0].call, t);
        let budget = budget_html(&plan, r.settings().agent.deadline, spend.as_ref());
        assert!(balanced(&budget), "{budget}");
        assert!(budget.contains(
            "aria-label=\"Budget of 5.00 s: auth/policy 0.10 s, database 0.30 s, Risk API 2.50 s, reserve 2.10 s\""
        ));
        let snap = r.snapshot_at(t);
        assert!(balanced(&gates_html(&snap)));
        let burst = run(Preset::Overload, Mode::Patterns);
        let l = super::super::load::littles_law(&burst).unwrap();
        assert!(balanced(&little_html(&l)));
    }
}
