//! The first lab's opening run as a page, written at build time
//! (`idempotency-lab opening`) into the page that hosts every lab, so a
//! reader sees the diagram, the results and the state as text before any
//! WebAssembly arrives. It is the live page's markup at the opening
//! playhead, from the same words and geometry, with every control disabled
//! until the lab starts (the host then puts the live lab in its place, as
//! the reader left it: assets/opening.js).
//!
//! It is written twice, as the full page and as the embed (`?embed=1`),
//! and each holds two drawings, as the live page chooses between them by
//! the window's width: the timeline, fitted to the box of the window it is
//! written for ([`Opening`]), and the sequence diagram for a 360-pixel
//! phone. The styles show what the link and the window would
//! (styles/opening.css, assets/first-paint.js).

use std::fmt::Write;

use crate::sim::Millis;
use crate::sim::Schema;
use crate::sim::ack::settings::PARAMS;
use crate::sim::ack::{Record, Run, Settings};
use crate::sim::params::Group;
use crate::view::fields;
use crate::view::glossary::{ACK_TERMS, meaning};
use crate::view::labs::LABS;
use crate::view::markup::{EventLine, event_items};
use crate::view::opening::{LOADING_STATUS, SHARE_TOOLBAR, disabled, field, masthead, picker, playback, with_suffix};
use crate::view::page::Layout;
use crate::view::timeline::Frame;
use crate::view::timeline::escape;
use crate::view::timeline::page::{LANE_TITLE_INSET, LANE_TITLES_W};

use super::diagram::{diagram_on, stop_times};
use super::experiments::{THREE_WAYS, TRY_LEGEND, TRY_OPENING};
use super::{broke, results, sentence, text_mirror};

/// The tagline under the name.
pub const TAGLINE: &str = "A client that reports one success can leave two increments in the ledger. Lose an acknowledgement, retry, and see why.";

/// Where the full page keeps the settings a reader last used (the local
/// storage of the page's origin); a reader who has some does not see the
/// opening run (assets/first-paint.js reads the same key).
pub const SAVED_SETTINGS_KEY: &str = "idempotency-lab.settings.v1";

/// How to read the timeline, across and down.
pub const TIMELINE_HINTS: [&str; 2] = [
    "Time runs left to right; the pink line is the playhead. Click any mark to move the playhead to it.",
    "Time runs down, a column per actor; the pink line is the playhead. Click a mark to move it there.",
];

/// Where the opening run is written for, and the widths its two drawings
/// are fitted to: the timeline's box in the window the page is written
/// for, and the sequence diagram's on a 360-pixel phone (the live page
/// draws them for the box it finds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opening {
    /// The full page, in a 1280-pixel-wide window.
    Page,
    /// `?embed=1`, in the 800-pixel frame the Embed snippet suggests.
    Embed,
}

impl Opening {
    /// The timeline's width.
    pub fn wide_fit(self) -> f64 {
        match self {
            Opening::Page => 880.0,
            Opening::Embed => 768.0,
        }
    }

    /// The sequence diagram's width on a 360-pixel phone.
    pub fn narrow_fit(self) -> f64 {
        match self {
            Opening::Page => Self::NARROW_FIT,
            Opening::Embed => 328.0,
        }
    }

    /// The page's sequence diagram's width on a 360-pixel phone.
    pub const NARROW_FIT: f64 = 318.0;

    /// The timeline's room, in height, where the whole run must fit: the
    /// embed's, in its 800 x 500 frame (the live embed measures it, and
    /// draws a taller run smaller, for a wider box, as this page is
    /// written).
    pub fn room(self) -> Option<f64> {
        match self {
            Opening::Page => None,
            Opening::Embed => Some(204.0),
        }
    }
}

/// One line of the recent events, as this lab words it (the live page's
/// list and this one).
pub fn event_line(r: &Record) -> EventLine {
    EventLine { kind: r.kind(), t: r.t, time: r.t.to_string(), sentence: sentence(r) }
}

/// The opening run as the host page is written with: the full page and
/// the embed, each a root element the host replaces with the live lab
/// (the page's styles show the one a link asks for; the embed's ids end
/// in `-embed`, so that the two never share one).
pub fn page() -> String {
    let settings = Settings::opening();
    let Ok(run) = Run::simulate(&settings) else { panic!("the opening settings simulate") };
    let mut out = root(Opening::Page, &run, &settings);
    out.push_str(&with_suffix(&root(Opening::Embed, &run, &settings), "-embed"));
    out
}

fn root(opening: Opening, run: &Run, settings: &Settings) -> String {
    let at = Millis::ZERO;
    let mut out = String::with_capacity(64 * 1024);
    let (which, app) = match opening {
        Opening::Page => ("page-opening", "app"),
        Opening::Embed => ("embed-opening", "app embed"),
    };
    let _ = write!(
        out,
        "<div class=\"lab-root prerendered {which}\">\
         {LOADING_STATUS}<div class=\"{app}\">"
    );
    if opening == Opening::Page {
        masthead(&mut out, TAGLINE, LABS[0].id, SHARE_TOOLBAR);
    }
    out.push_str("<div class=\"notices\" role=\"status\"></div>");
    if opening == Opening::Embed {
        out.push_str("<main class=\"stage\">");
        playback(&mut out, run.end(), at, None, opening == Opening::Page);
        results_strip(&mut out, run, at, opening);
        timeline(&mut out, run, at, opening);
        out.push_str(
            "<details class=\"embed-more\"><summary>Where it broke, recent events and the state as text</summary>\
             <div class=\"embed-more-body\">",
        );
        where_it_broke(&mut out, run, at, "", "broke-h");
        text_panels(&mut out, run, at);
        out.push_str(
            "</div></details></main><p class=\"embed-footer\"><a href=\"./\" target=\"_blank\" rel=\"noopener\">\
             Open in Idempotency Lab</a></p></div></div>",
        );
        return disabled(&out);
    }
    out.push_str("<div class=\"workspace\"><main class=\"stage\">");
    results_strip(&mut out, run, at, opening);
    where_it_broke(&mut out, run, at, "", "broke-h");
    try_it(&mut out, "wide-only", "");
    timeline(&mut out, run, at, opening);
    try_it(&mut out, "narrow-only", "-narrow");
    playback(&mut out, run.end(), at, None, opening == Opening::Page);
    text_panels(&mut out, run, at);
    out.push_str("</main>");
    controls(&mut out, settings);
    out.push_str("</div></div></div>");
    disabled(&out)
}

/// "Try it" as the live page writes it for the opening run (its choice
/// of the opening run ticked), `class` saying where it shows and its ids
/// ending in `suffix`.
fn try_it(out: &mut String, class: &str, suffix: &str) {
    let _ = write!(
        out,
        "<section class=\"panel try-it {class}\" aria-labelledby=\"try-it-h{suffix}\">\
         <h2 id=\"try-it-h{suffix}\">Try it</h2><fieldset class=\"try-seed\"><legend>{}</legend>",
        escape(TRY_LEGEND)
    );
    let titles = std::iter::once(TRY_OPENING).chain(THREE_WAYS.iter().map(|(title, _)| *title));
    for (i, title) in titles.enumerate() {
        let checked = if i == 0 { " checked" } else { "" };
        let _ = write!(
            out,
            "<span class=\"choice\"><input type=\"radio\" id=\"try-{i}{suffix}\" name=\"try-seed{suffix}\"{checked}>\
             <label for=\"try-{i}{suffix}\">{}</label></span>",
            escape(title)
        );
    }
    out.push_str("</fieldset><div class=\"fields\"></div></section>");
}

fn results_strip(out: &mut String, run: &Run, at: Millis, opening: Opening) {
    let f = results::at(run, at);
    let hits = meaning(ACK_TERMS, "Deduplication hits").unwrap_or_default();
    let _ = write!(
        out,
        "<section class=\"results\" aria-labelledby=\"results-h\"><h2 id=\"results-h\">At the playhead</h2>\
         <dl class=\"figures\">\
         <div class=\"figure\"><dt>Committed counter</dt><dd class=\"counter\">{}</dd></div>\
         <div class=\"figure\"><dt>Client outcome</dt><dd class=\"outcome\">{}</dd></div>\
         <div class=\"figure\"><dt><span class=\"term\" title=\"{}\">Deduplication hits</span></dt>\
         <dd class=\"hits\">{}</dd></div>\
         <div class=\"figure\"><dt>Attempts</dt><dd class=\"attempts\">{}</dd></div></dl>",
        escape(&f.counter),
        escape(&f.outcome),
        escape(hits),
        escape(&f.hits),
        escape(&f.attempts)
    );
    if let Some(results::Verdict { class, lead, text }) = results::verdict_at(run, at) {
        let lead = if lead.is_empty() { String::new() } else { format!("<strong>{}</strong>", escape(lead)) };
        let _ = write!(out, "<p class=\"verdict {class}\">{lead}{}</p>", escape(&text));
    }
    // An embed says nothing of the end before the playhead reaches it.
    if opening == Opening::Page || at >= run.end() {
        let _ = write!(out, "<p class=\"end-line\">{}</p>", escape(&results::end_line(run)));
    }
    out.push_str("</section>");
}

fn where_it_broke(out: &mut String, run: &Run, at: Millis, class: &str, id: &str) {
    let class = if class.is_empty() { String::new() } else { format!(" {class}") };
    let _ = write!(
        out,
        "<section class=\"panel where-it-broke{class}\" aria-labelledby=\"{id}\"><h2 id=\"{id}\">Where it broke</h2>\
         <p>{}</p></section>",
        escape(&broke::words_at(run, at))
    );
}

fn timeline(out: &mut String, run: &Run, at: Millis, opening: Opening) {
    let times = stop_times(run);
    // The embed's lanes are as low as their contents allow, as the live
    // embed draws them, so the whole run fits its frame.
    let frame = |width: f64| match opening {
        Opening::Page => Frame::Across(Some(width)),
        Opening::Embed => Frame::Tight(width),
    };
    let mut across = diagram_on(run, times.clone(), run.end(), frame(opening.wide_fit()));
    let shrink = crate::view::timeline::fit_scale(across.height, opening.room());
    if shrink < 1.0 {
        across = diagram_on(run, times.clone(), run.end(), frame(opening.wide_fit() / shrink));
    }
    let down = diagram_on(run, times, run.end(), Frame::Down(opening.narrow_fit()));
    let _ = write!(
        out,
        "<section class=\"panel timeline\" aria-labelledby=\"timeline-h\"><h2 id=\"timeline-h\">Timeline</h2>\
         <p class=\"hint wide-timeline\">{}</p><p class=\"hint narrow-timeline\">{}</p>\
         <div class=\"timeline-controls\"><p class=\"hide-future-toggle\"><input type=\"checkbox\" id=\"hide-future\">\
         <label for=\"hide-future\">Hide the future</label></p>",
        escape(TIMELINE_HINTS[0]),
        escape(TIMELINE_HINTS[1])
    );
    picker(out, "layout-picker", "layout", "Layout", Layout::OPTIONS, 0);
    let _ = write!(
        out,
        "</div><div class=\"timeline-frame wide-timeline\"><div class=\"timeline-scroll\" tabindex=\"0\" role=\"group\" \
         aria-label=\"Timeline diagram, scrolls sideways\">{}</div><div class=\"lane-titles-frame\">{}</div></div>",
        across.page_svg_scaled("", "Timeline of the run", at, shrink),
        across.lane_titles_svg(LANE_TITLES_W, LANE_TITLE_INSET, shrink)
    );
    let _ = write!(
        out,
        "<div class=\"timeline-frame sequence narrow-timeline\"><div class=\"timeline-scroll\" tabindex=\"0\" \
         role=\"group\" aria-label=\"Timeline diagram, scrolls sideways\"><div class=\"column-titles-frame\">{}</div>\
         {}</div></div></section>",
        down.lane_titles_svg(LANE_TITLES_W, LANE_TITLE_INSET, 1.0),
        down.page_svg("-narrow", "Timeline of the run", at)
    );
}

fn text_panels(out: &mut String, run: &Run, at: Millis) {
    let count = run.records_until(at).len();
    let _ = write!(
        out,
        "<div class=\"text-panels\"><section class=\"panel events\" aria-labelledby=\"events-h\">\
         <h2 id=\"events-h\">Recent events</h2>\
         <p class=\"hint\">Newest first, up to the playhead. Choose one to move the playhead there.</p>\
         <ol class=\"event-list\">{}</ol></section>\
         <section class=\"panel mirror\" aria-labelledby=\"mirror-h\"><h2 id=\"mirror-h\">State as text</h2>\
         <pre class=\"mirror-text\">{}</pre></section></div>",
        event_items(run.records(), count, usize::MAX, event_line),
        escape(&text_mirror(run, at))
    );
}

fn controls(out: &mut String, settings: &Settings) {
    out.push_str(
        "<div class=\"area-controls\"><section class=\"panel controls\" aria-labelledby=\"controls-h\">\
         <h2 id=\"controls-h\">Settings</h2><div class=\"fields\">",
    );
    let group = |out: &mut String, group: Group| {
        for param in PARAMS.iter().filter(|p| p.group == group) {
            field(out, param, &fields::value(param, settings));
        }
    };
    group(out, Group::Basics);
    out.push_str("</div><details class=\"advanced\"><summary>Advanced</summary><div class=\"fields\">");
    group(out, Group::Advanced);
    out.push_str("</div></details><details class=\"advanced faults\"><summary>Faults and storage</summary><div class=\"fields\">");
    group(out, Group::Faults);
    out.push_str(
        "</div></details><button type=\"button\" class=\"reset\">Reset to opening settings</button></section></div>",
    );
}
