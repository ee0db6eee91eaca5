//! The first lab's text regions: recent events and the state as text (the
//! panels every lab shares, with this lab's words; in a comparison, the
//! state of both runs), and the results strip. Each is the core's own
//! words, rendered as text.

use leptos::prelude::*;

use crate::view::ack::compare::compare_mirror;
use crate::view::ack::opening::event_line;
use crate::view::ack::{broke, results, text_mirror_with};
use crate::view::markup::event_items;

use super::super::glossary;
use super::super::playback::Replay;
use super::super::text_panels::{recent_events, state_as_text, where_it_broke};
use super::state::Ack;

#[component]
pub fn RecentEvents(ack: Ack) -> impl IntoView {
    let count = move || {
        let t = ack.player.playhead.get();
        ack.run.with(|r| r.records_until(t).len())
    };
    // A run of this lab is short: every event so far is listed.
    recent_events(ack, usize::MAX, count, move |count| {
        ack.run.with(|r| event_items(r.records(), count, usize::MAX, event_line))
    })
}

#[component]
pub fn Mirror(ack: Ack) -> impl IntoView {
    state_as_text(Memo::new(move |_| {
        let t = ack.player.playhead.get();
        let c = ack.compare;
        let both = c.diff().zip(c.run_b());
        match both {
            Some((diff, b)) => ack.run.with(|a| compare_mirror(a, &b, &diff, c.fork.get(), t)),
            None => {
                let so_far = ack.future_hidden();
                ack.run.with(|r| text_mirror_with(r, t, so_far))
            }
        }
    }))
}

/// The figures at the playhead: what has happened by then, nothing of what
/// is still to come. The end of the run is a second line, left out where
/// it would give the answer away (presenter mode, a prediction, a
/// checkpoint).
#[component]
pub fn ResultsStrip(ack: Ack) -> impl IntoView {
    let figures = Memo::new(move |_| {
        let t = ack.player.playhead.get();
        ack.run.with(|r| (results::at(r, t), results::verdict_at(r, t)))
    });
    let hidden = move || ack.answer_hidden();
    let shown = move |pick: fn(&results::Figures) -> String| {
        move || if hidden() { "?".to_owned() } else { figures.with(|(f, _)| pick(f)) }
    };
    let verdict = move || {
        if hidden() {
            return Some(
                view! { <p class="verdict pending">"Make your prediction in the experiment to reveal the result."</p> }
                    .into_any(),
            );
        }
        let results::Verdict { class, lead, text } = figures.with(|(_, v)| v.clone())?;
        Some(
            view! {
                <p class=format!("verdict {class}")>
                    {(!lead.is_empty()).then(|| view! { <strong>{lead}</strong> })}
                    {text}
                </p>
            }
            .into_any(),
        )
    };
    let end = move || {
        // An embed (a docs page's run) says nothing of the end before the
        // playhead reaches it.
        let early = ack.embed && ack.player.playhead.get() < ack.run.with(|r| r.end());
        let quiet = hidden() || ack.presenter.end_hidden() || early;
        (!quiet).then(|| view! { <p class="end-line">{move || ack.run.with(|run| results::end_line(run))}</p> })
    };
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">"At the playhead"</h2>
            <dl class="figures">
                <div class="figure">
                    <dt>"Committed counter"</dt>
                    <dd class="counter">{shown(|f| f.counter.clone())}</dd>
                </div>
                <div class="figure">
                    <dt>"Client outcome"</dt>
                    <dd class="outcome">{shown(|f| f.outcome.clone())}</dd>
                </div>
                <div class="figure">
                    <dt>{glossary::term("Deduplication hits")}</dt>
                    <dd class="hits">{shown(|f| f.hits.clone())}</dd>
                </div>
                <div class="figure">
                    <dt>"Attempts"</dt>
                    <dd class="attempts">{shown(|f| f.attempts.clone())}</dd>
                </div>
            </dl>
            {verdict}
            {end}
        </section>
    }
}

/// "Where it broke": once the run has counted its intent twice, the lane,
/// the moment and why; before that, only what has happened so far.
#[component]
pub fn WhereItBroke(ack: Ack) -> impl IntoView {
    // The moment the region names the break: the duplicate increment's.
    let broke_at = Memo::new(move |_| ack.run.with(|r| broke::where_it_broke(r).map(|b| r.records()[b.duplicate].t)));
    let moment = move || {
        let t = broke_at.get()?;
        // Not while it would give the answer away: before a prediction, or
        // ahead of a playhead whose future is hidden.
        let hidden = ack.answer_hidden() || (ack.future_hidden() && t > ack.player.playhead.get());
        (!hidden).then_some(t)
    };
    where_it_broke(
        ack,
        "broke-h",
        move || {
            if ack.answer_hidden() {
                return vec![("", broke::PREDICT_FIRST.to_owned())];
            }
            let t = ack.player.playhead.get();
            let a = ack.run.with(|r| broke::words_at(r, t));
            match ack.compare.run_b() {
                Some(b) => vec![("Run A", a), ("Run B", broke::words_at(&b, t))],
                None => vec![("", a)],
            }
        },
        moment,
    )
}
