//! The risk lab's opening run as markup, written at build time
//! (`idempotency-lab opening --lab risk`) into a file beside the lab's
//! bundle (`risk/opening.html`). A link to the lab and nothing else gets it
//! put in the page before any WebAssembly arrives (assets/first-paint.js),
//! until the live lab takes its place (assets/opening.js): the live page's
//! masthead, figures, timeline and playback at the opening playhead, from
//! the same words and geometry, with every control disabled.
//!
//! It holds both drawings the live page chooses between by the window's
//! width (styles/opening.css): the timeline at its natural width, which
//! scrolls in a box of any width, and the sequence diagram fitted to a
//! 360-pixel phone's box.

use std::fmt::Write;

use crate::sim::Millis;
use crate::sim::Schema;
use crate::sim::risk::settings::{MODE, PRESET, Pattern};
use crate::sim::risk::{Mode, Run, Settings};
use crate::view::fields;
use crate::view::glossary::RISK_TERMS;
use crate::view::lab::{LabModel, Replayed};
use crate::view::opening::{
    LOADING_STATUS, SHARE_TOOLBAR, disabled, field, masthead, picker, playback, with_suffix, words,
};
use crate::view::page::Layout;
use crate::view::timeline::{Frame, SCROLL_CUE, escape};

use super::RiskLab;
use super::diagram::{TIMELINE_HINTS, diagram_on, end_of, stop_times};
use super::html::{Figures, diagram_svg, figures_html, lane_titles};
use super::patterns::MODE_HINT;

/// The line under the name.
pub const TAGLINE: &str = "One timeout once created two risk reviews for one order. Replay it with a naive tool \
     server, then turn the patterns on one by one and see which invariant each one protects.";

/// The sequence diagram's width in a 360-pixel phone's box (the live page
/// draws it for the box it finds).
pub const NARROW_FIT: f64 = 316.0;

/// The opening run as the page puts it in place: one root element that
/// the host replaces with the live lab.
pub fn page() -> String {
    let settings = Settings::from_values(&Settings::defaults()).unwrap_or_else(|_| panic!("the defaults are valid"));
    let Ok(run) = Run::simulate(&settings) else { panic!("the opening settings simulate") };
    let at = Millis::ZERO;
    let mut out = String::with_capacity(128 * 1024);
    let _ = write!(out, "<div class=\"lab-root prerendered page-opening\">{LOADING_STATUS}<div class=\"app risk\">");
    masthead(&mut out, TAGLINE, RiskLab::LAB.id, SHARE_TOOLBAR);
    out.push_str("<div class=\"notices\" role=\"status\"></div><div class=\"workspace\"><main class=\"stage\">");
    let figures = Figures::at(&run.snapshot_at(at), run.records_until(at));
    let _ = write!(
        out,
        "<section class=\"results\" aria-labelledby=\"results-h\"><h2 id=\"results-h\">At the playhead</h2>\
         <div>{}</div></section>",
        figures_html(&figures, false)
    );
    timeline(&mut out, &run);
    playback(&mut out, RiskLab::end(&run), at, RiskLab::wall_clock(at).as_deref(), true);
    out.push_str("</main>");
    controls(&mut out, &settings);
    out.push_str("</div></div></div>");
    disabled(&out)
}

fn timeline(out: &mut String, run: &Run) {
    let across = diagram_on(run, stop_times(run), end_of(run), Frame::Across(None));
    let down = diagram_on(run, stop_times(run), end_of(run), Frame::Down(NARROW_FIT));
    let _ = write!(
        out,
        "<section class=\"panel timeline\" aria-labelledby=\"timeline-h\"><h2 id=\"timeline-h\">Timeline</h2>\
         <p class=\"hint wide-timeline\">{}</p><p class=\"hint narrow-timeline\">{}</p>\
         <div class=\"timeline-controls\"><p class=\"hide-future-toggle\">\
         <input type=\"checkbox\" id=\"risk-hide-future\"><label for=\"risk-hide-future\">Hide the future</label></p>",
        escape(TIMELINE_HINTS[0]),
        escape(TIMELINE_HINTS[1])
    );
    picker(out, "layout-picker", "risk-layout", "Layout", Layout::OPTIONS, 0);
    // Drawn at its natural width, the timeline is wider than any box it is
    // shown in on a page: the live page says so over it.
    let (axis, svg) = diagram_svg(&across, run.records(), "", None);
    let _ = write!(
        out,
        "</div><p class=\"scroll-cue wide-timeline\">{SCROLL_CUE}</p><div class=\"timeline-frame wide-timeline\">\
         <div class=\"timeline-scroll\" tabindex=\"0\" role=\"group\" aria-label=\"Timeline diagram, scrolls sideways\">\
         <div class=\"axis-layer diagram\">{axis}</div><div class=\"diagram-layer\">{svg}</div></div>\
         <div class=\"lane-titles-frame\">{}</div></div>",
        lane_titles(&across)
    );
    // The phone's drawing: its ids are its own, so the page never has two
    // elements of one id.
    let (axis, svg) = diagram_svg(&down, run.records(), "", None);
    let narrow = format!(
        "<div class=\"timeline-frame sequence narrow-timeline\"><div class=\"timeline-scroll\" tabindex=\"0\" \
         role=\"group\" aria-label=\"Timeline diagram, scrolls sideways\"><div class=\"column-titles-frame\">{}</div>\
         <div class=\"axis-layer diagram\">{axis}</div><div class=\"diagram-layer\">{svg}</div></div></div>",
        lane_titles(&down)
    );
    out.push_str(&with_suffix(&narrow, "-narrow"));
    out.push_str("</section>");
}

/// The settings column as it begins: the lab's words, the preset, the
/// mode and the pattern switches.
fn controls(out: &mut String, settings: &Settings) {
    out.push_str("<div class=\"area-controls\">");
    words(out, RISK_TERMS);
    out.push_str(
        "<section class=\"panel controls\" aria-labelledby=\"risk-controls-h\"><h2 id=\"risk-controls-h\">Settings</h2>\
         <div class=\"fields\">",
    );
    field(out, &PRESET, &fields::value(&PRESET, settings));
    let mode = settings.mode;
    let _ = write!(
        out,
        "<div class=\"field\"><label for=\"risk-mode\">{}</label><select id=\"risk-mode\" \
         aria-describedby=\"risk-mode-hint\"><option value=\"patterns\"{}>Patterns</option>\
         <option value=\"naive\"{}>Naive</option></select><span class=\"hint\" id=\"risk-mode-hint\">{}</span></div></div>\
         <fieldset class=\"patterns\"><legend>Patterns</legend><div class=\"fields\">",
        MODE.label,
        if mode == Mode::Patterns { " selected" } else { "" },
        if mode == Mode::Naive { " selected" } else { "" },
        escape(MODE_HINT),
    );
    for pattern in Pattern::ALL {
        let param = pattern.param();
        field(out, param, &fields::value(param, settings));
    }
    out.push_str("</div></fieldset></section></div>");
}
