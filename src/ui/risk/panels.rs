//! The risk page's text regions: the figures at the playhead, recent
//! events and the state as text. Each is the core's own words.

use leptos::prelude::*;

use crate::view::risk::compare::compare_mirror;
use crate::view::risk::html::{Figures, event_items, figures_html};
use crate::view::risk::text_mirror;

use super::super::text_panels::{recent_events, state_as_text, where_it_broke};
use super::state::Risk;

/// Recent events list at most this many, newest first: a burst has
/// thousands, and a long list helps nobody.
const RECENT: usize = 120;

/// The list reads `risk` (which may follow the page's run a frame behind);
/// choosing an event moves the playhead through `live`, the page's own.
#[component]
pub fn RiskEvents(risk: Risk, live: Risk) -> impl IntoView {
    let count = move || {
        let t = risk.player.playhead.get();
        risk.run.with(|r| r.records_until(t).len())
    };
    recent_events(live, RECENT, count, move |count| risk.run.with(|r| event_items(r.records(), count, RECENT)))
}

/// The state as text: of the run, or while comparing, of both runs on
/// one clock and their differences.
#[component]
pub fn RiskMirror(risk: Risk) -> impl IntoView {
    let c = risk.compare;
    state_as_text(Memo::new(move |_| {
        let t = risk.player.playhead.get();
        match c.pair() {
            Some((b, diff)) => risk.run.with(|a| compare_mirror(a, &b, &diff, c.fork.get(), t)),
            None => risk.run.with(|r| text_mirror(r, t)),
        }
    }))
}

/// "Where it broke": once the run's worst harm has happened, where and
/// when, and for each check failing by then since when and which switch
/// that protects it was off; before that nothing that gives it away. While
/// comparing, for both runs.
#[component]
pub fn RiskWhereItBroke(risk: Risk) -> impl IntoView {
    use crate::view::risk::broke::{ANSWER_FIRST, broke, words_with};
    // Where run B broke, found once per run B (each failing check takes a
    // few dozen judgements), not at every frame of playback.
    let broke_b = Memo::new(move |_| risk.compare.run_b().map(|b| broke(&b)));
    let moment = move || {
        let t = risk.broke.with(|b| b.as_ref().map(|b| risk.run.with(|r| b.t(r))))?;
        let hidden = risk.answer_hidden() || (risk.presenter.future_hidden() && t > risk.player.playhead.get());
        (!hidden).then_some(t)
    };
    where_it_broke(
        risk,
        "risk-broke-h",
        move || {
            if risk.answer_hidden() {
                return vec![("", ANSWER_FIRST.to_owned())];
            }
            let t = risk.player.playhead.get();
            let a = risk.broke.with(|b| risk.run.with(|r| words_with(r, b.as_ref(), t)));
            match risk.compare.run_b() {
                Some(run_b) => {
                    let b = words_with(&run_b, broke_b.get().flatten().as_ref(), t);
                    a.into_iter().map(|l| ("Run A", l)).chain(b.into_iter().map(|l| ("Run B", l))).collect()
                }
                None => a.into_iter().map(|l| ("", l)).collect(),
            }
        },
        moment,
    )
}

/// The figures a reader looks at first, at the playhead.
#[component]
pub fn RiskFigures(risk: Risk) -> impl IntoView {
    let markup = move || {
        let t = risk.player.playhead.get();
        let hidden = risk.answer_hidden();
        let figures = risk.run.with(|r| risk.snapshot.with(|s| Figures::at(s, r.records_until(t))));
        figures_html(&figures, hidden)
    };
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">"At the playhead"</h2>
            <div inner_html=markup></div>
        </section>
    }
}
