//! A trace read from a file, in words and geometry: its checks, its
//! intents, where it broke (naming the span), a text mirror of its spans,
//! the JSON the command line gives, and the lab's diagram with a lane per
//! service.

use std::fmt::Write;

use crate::sim::Millis;
use crate::sim::json::Json;
use crate::sim::trace::checks::{Break, Place, Verdict, checks, intent_checks, where_it_broke};
use crate::sim::trace::span::{Kind, Span};
use crate::sim::trace::{CheckName, Findings};
use crate::view::timeline::{Builder, Diagram, Frame, Glyph, LaneSpec, LaneStyle, Y};

/// At most this many spans are drawn (the rest are still checked).
pub const MAX_DRAWN: usize = 400;
/// At most this many spans are listed in the text mirror.
pub const MAX_LISTED: usize = 2_000;

/// A check's title, as the page and the text say it.
pub fn title(name: CheckName) -> &'static str {
    match name {
        CheckName::CommittedAtMostOnce => "Committed at most once per intent",
        CheckName::StatusAgreesWithEffects => "The client's status agrees with the effects",
        CheckName::NoEffectAfterGivingUp => "No effect after the client gave up",
        CheckName::OneReviewPerBusinessKey => "One review per business key",
    }
}

pub fn verdict_word(holds: Option<bool>) -> &'static str {
    match holds {
        Some(true) => "holds",
        Some(false) => "fails",
        None => "nothing to judge",
    }
}

/// Milliseconds since the trace's first span.
pub fn since_start(f: &Findings, ns: u64) -> Millis {
    Millis(ns.saturating_sub(f.trace.start_ns()) / 1_000_000)
}

/// The wall clock of `ns` (UTC), to the millisecond.
pub fn clock(ns: u64) -> String {
    let ms = (ns / 1_000_000) % 86_400_000;
    format!("{:02}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// A moment as "10:31:12.531 (+4.411 s)".
pub fn when(f: &Findings, ns: u64) -> String {
    format!("{} (+{})", clock(ns), since_start(f, ns))
}

fn shown(text: &str) -> String {
    crate::sim::params::shorten(text)
}

/// How a span is named in words: its name, its service and its id.
pub fn span_words(f: &Findings, i: usize) -> String {
    let s = &f.trace.spans[i];
    format!("span \u{201c}{}\u{201d} of {} ({})", shown(&s.name), shown(&f.trace.services[s.service]), s.span_id)
}

/// "Where it broke", in one paragraph naming the span.
pub fn break_words(f: &Findings, b: &Break) -> String {
    let dup = f.effects[b.duplicate].span;
    let first = f.effects[b.first].span;
    let lane = shown(&f.trace.services[b.service]);
    let why = match &b.place {
        Place::NewKey { first: k1, then } => match (k1, then) {
            (_, None) => "the retry carried no idempotency key, so nothing could tell it from a new intent".to_owned(),
            (Some(k1), Some(k2)) => format!(
                "the retry carried key {}, not {}: a new key per attempt names the attempt, not the intent",
                shown(k2),
                shown(k1)
            ),
            (None, Some(k2)) => format!("the retry carried key {}, which the first attempt did not", shown(k2)),
        },
        Place::NotLookedUp { key } => {
            format!("it received key {} again and did not look it up, so it did the work again", shown(key))
        }
        Place::NotRecorded { key } => format!(
            "the operation that made the first effect ended without recording its result under key {}, so the store never learned of it",
            shown(key)
        ),
        Place::Forgotten { key } => {
            format!("the store deleted key {} before the retry came, so it had forgotten the first effect", shown(key))
        }
        Place::NotFound { key } => format!("the store had no record of key {} when the retry came", shown(key)),
        Place::SecondForBusinessKey { key } => {
            format!("a second effect for business key {}, from another intent", shown(key))
        }
    };
    format!(
        "{lane} lane, at {}: {} ({}). The duplicate is {}, done at {}; the first was {}, at {}.",
        when(f, b.at_ns),
        span_words(f, b.span),
        why,
        span_words(f, dup),
        when(f, f.effects[b.duplicate].at_ns),
        span_words(f, first),
        when(f, f.effects[b.first].at_ns),
    )
}

/// What the region says when nothing broke.
pub fn nothing_broke(f: &Findings) -> String {
    match f.effects.len() {
        0 => "Nothing broke: the trace holds no effect.".to_owned(),
        n => format!("Nothing broke: no intent and no business key has two effects ({n} effects in all)."),
    }
}

fn figures_text(v: &Verdict) -> String {
    v.figures.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
}

/// The command line's text: what was read, the checks, the intents, where
/// it broke, then the spans.
pub fn text(f: &Findings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Trace: {} spans from {} services ({}); {} intents, {} attempts, {} effects.",
        f.trace.spans.len(),
        f.trace.services.len(),
        f.trace.services.iter().map(|s| shown(s)).collect::<Vec<_>>().join(", "),
        f.intents.len(),
        f.attempts.len(),
        f.effects.len()
    );
    for w in &f.warnings {
        let _ = writeln!(out, "Warning: {w}");
    }
    out.push_str("\nChecks:\n");
    for v in checks(f) {
        let _ = writeln!(out, "  {:<46} {:<17} {}", title(v.name), verdict_word(v.holds), figures_text(&v));
    }
    out.push_str("\nIntents:\n");
    for (i, intent) in f.intents.iter().enumerate() {
        let failing: Vec<&str> =
            intent_checks(f, i).iter().filter(|v| v.holds == Some(false)).map(|v| title(v.name)).collect();
        let _ = writeln!(
            out,
            "  {}: {} attempts, {} effects, the client {}{}{}",
            shown(&intent.label),
            intent.attempts.len(),
            intent.effects.len(),
            intent.status.map_or("has no status yet", |s| s.name()),
            intent.business_key.as_deref().map_or(String::new(), |k| format!(", business key {}", shown(k))),
            if failing.is_empty() { String::new() } else { format!("; fails: {}", failing.join(", ")) }
        );
    }
    out.push_str("\nWhere it broke:\n  ");
    out.push_str(&match where_it_broke(f) {
        Some(b) => break_words(f, &b),
        None => nothing_broke(f),
    });
    out.push_str("\n\nSpans:\n");
    out.push_str(&mirror(f));
    out
}

/// What a span is, for the mirror: attempt, server operation, effect.
fn role(f: &Findings, i: usize) -> &'static str {
    if f.effects.iter().any(|e| e.span == i) {
        "effect"
    } else if f.attempts.iter().any(|a| a.span == i) {
        "attempt"
    } else if f.attempts.iter().any(|a| a.operations.contains(&i)) {
        "server operation"
    } else {
        ""
    }
}

/// The spans in the order they started, a line each: the text mirror of
/// the diagram.
pub fn mirror(f: &Findings) -> String {
    let mut order: Vec<usize> = (0..f.trace.spans.len()).collect();
    order.sort_by_key(|&i| (f.trace.spans[i].start_ns, i));
    let mut out = String::new();
    for &i in order.iter().take(MAX_LISTED) {
        let s = &f.trace.spans[i];
        let role = role(f, i);
        let _ = writeln!(
            out,
            "  {} to +{}  {:<12} {:<8} {}{}",
            when(f, s.start_ns),
            since_start(f, s.end_ns),
            shown(&f.trace.services[s.service]),
            s.kind.name(),
            shown(&s.name),
            if role.is_empty() { String::new() } else { format!("  [{role}]") }
        );
    }
    if order.len() > MAX_LISTED {
        let _ = writeln!(out, "  … and {} spans more", order.len() - MAX_LISTED);
    }
    out
}

fn verdict_json(v: &Verdict) -> Json {
    Json::obj([
        ("name", Json::str(v.name.name())),
        ("holds", Json::opt(v.holds, Json::Bool)),
        ("figures", Json::Obj(v.figures.iter().map(|(k, n)| ((*k).to_owned(), Json::num(n))).collect())),
    ])
}

/// The verdicts as the labs give theirs: a `checks` list over the whole
/// trace, and per intent beside it.
pub fn json(f: &Findings) -> String {
    let intents = f
        .intents
        .iter()
        .enumerate()
        .map(|(i, intent)| {
            Json::obj([
                ("intent", Json::str(intent.label.as_str())),
                ("keys", Json::Arr(intent.keys.iter().map(|k| Json::str(k.as_str())).collect())),
                ("business_key", Json::opt(intent.business_key.as_deref(), Json::str)),
                ("attempts", Json::num(intent.attempts.len())),
                ("effects", Json::num(intent.effects.len())),
                ("client_status", Json::opt(intent.status, |s| Json::str(s.name()))),
                ("checks", Json::Arr(intent_checks(f, i).iter().map(verdict_json).collect())),
            ])
        })
        .collect();
    let broke = where_it_broke(f).map(|b| {
        let s = &f.trace.spans[b.span];
        Json::obj([
            ("service", Json::str(f.trace.services[b.service].as_str())),
            ("span_id", Json::str(s.span_id.to_string())),
            ("span_name", Json::str(s.name.as_str())),
            ("time_unix_nano", Json::str(b.at_ns.to_string())),
            ("duplicate_span_id", Json::str(f.trace.spans[f.effects[b.duplicate].span].span_id.to_string())),
            ("text", Json::str(break_words(f, &b))),
        ])
    });
    Json::obj([
        ("spans", Json::num(f.trace.spans.len())),
        ("services", Json::Arr(f.trace.services.iter().map(|s| Json::str(s.as_str())).collect())),
        ("warnings", Json::Arr(f.warnings.iter().map(|w| Json::str(w.to_string())).collect())),
        ("checks", Json::Arr(checks(f).iter().map(verdict_json).collect())),
        ("intents", Json::Arr(intents)),
        ("where_it_broke", broke.unwrap_or(Json::Null)),
    ])
    .pretty()
        + "\n"
}

/// The services in lane order: the one whose first span starts first on top.
fn lane_order(f: &Findings) -> Vec<usize> {
    let mut first = vec![u64::MAX; f.trace.services.len()];
    for s in &f.trace.spans {
        first[s.service] = first[s.service].min(s.start_ns);
    }
    let mut order: Vec<usize> = (0..first.len()).collect();
    order.sort_by_key(|&i| (first[i], i));
    order
}

fn short(title: &str) -> String {
    title.chars().filter(|c| c.is_alphanumeric()).take(3).collect()
}

/// The trace drawn with the lab's diagram: a lane per service, each span a
/// bar on its lane (a call from one service to another an arrow), each
/// effect a diamond, the duplicate effect ringed and where it broke shaded.
pub fn diagram(f: &Findings, frame: Frame) -> Diagram {
    let order = lane_order(f);
    let mut lane_of = vec![0; f.trace.services.len()];
    let mut lanes = vec![LaneSpec { title: "Time".to_owned(), short: "T".to_owned(), style: LaneStyle::Axis }];
    for (n, &s) in order.iter().enumerate() {
        lane_of[s] = n + 1;
        let title = shown(&f.trace.services[s]);
        lanes.push(LaneSpec { short: short(&title), title, style: LaneStyle::LabelsBelow });
    }
    let mut drawn: Vec<usize> = (0..f.trace.spans.len()).collect();
    drawn.sort_by_key(|&i| (f.trace.spans[i].start_ns, i));
    drawn.truncate(MAX_DRAWN);
    let t = |ns: u64| since_start(f, ns);
    let mut times: Vec<Millis> =
        drawn.iter().flat_map(|&i| [t(f.trace.spans[i].start_ns), t(f.trace.spans[i].end_ns)]).collect();
    times.sort_unstable();
    times.dedup();
    let end = times.last().copied().unwrap_or(Millis::ZERO);
    let mut b = Builder::framed(lanes, times, end, frame);
    let broke = where_it_broke(f);
    for &i in &drawn {
        draw_span(f, &mut b, &lane_of, i);
    }
    if let Some(br) = &broke {
        let lane = lane_of[br.service];
        let x = b.x(t(br.at_ns));
        let dup_t = t(f.effects[br.duplicate].at_ns);
        b.spot(lane, x - 16.0, x + 16.0, "broke-spot", dup_t, Some(br.span));
        b.label(lane, x, "where it broke".to_owned(), "label broke-label", dup_t, Some(br.span));
        let e = &f.trace.spans[f.effects[br.duplicate].span];
        let (ex, elane) = (b.x(t(e.end_ns)), lane_of[e.service]);
        b.mark(ex, Y::Track(elane), Glyph::Ring, "mark broke-ring", dup_t, Some(f.effects[br.duplicate].span));
    }
    let summary = match &broke {
        Some(br) => break_words(f, br),
        None => nothing_broke(f),
    };
    let lanes_said: Vec<String> = order.iter().map(|&s| shown(&f.trace.services[s])).collect();
    b.finish(format!("{} spans on the lanes {}. {summary}", f.trace.spans.len(), lanes_said.join(", ")))
}

fn draw_span(f: &Findings, b: &mut Builder, lane_of: &[usize], i: usize) {
    let s: &Span = &f.trace.spans[i];
    let lane = lane_of[s.service];
    let (t0, t1) = (since_start(f, s.start_ns), since_start(f, s.end_ns));
    let (x0, x1) = (b.x(t0), b.x(t1));
    let effect = f.effects.iter().any(|e| e.span == i);
    let attempt = f.attempts.iter().any(|a| a.span == i);
    if let Some(p) = f.parents[i] {
        let parent = &f.trace.spans[p];
        if parent.service != s.service && s.kind == Kind::Server {
            b.line((x0, Y::Track(lane_of[parent.service])), (x0, Y::Track(lane)), true, "span-arrow", t0, Some(i));
        }
    }
    if effect {
        b.mark(x1, Y::Track(lane), Glyph::Diamond, "mark span-effect", t1, Some(i));
        b.label(lane, x1, format!("effect: {}", shown(&s.name)), "label", t1, Some(i));
        return;
    }
    if x1 - x0 < 2.0 {
        b.mark(x0, Y::Track(lane), Glyph::Bar, "mark span-point", t0, Some(i));
    } else {
        let row = b.bar_row(lane, x0, x1);
        b.bar(x0, x1, Y::Bar(lane, row), if attempt { "span-bar span-attempt" } else { "span-bar" }, t0, Some(i));
    }
    let server = f.attempts.iter().any(|a| a.operations.contains(&i));
    if attempt || server {
        let key = f.attempts.iter().find(|a| a.span == i).and_then(|a| a.key.as_deref());
        let text = match key {
            Some(k) => format!("{} · key {}", shown(&s.name), shown(k)),
            None => shown(&s.name),
        };
        b.label(lane, x0, text, "label", t0, Some(i));
    }
}
