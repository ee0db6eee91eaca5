//! The first lab's text regions: recent events and the state as text (the
//! panels every lab shares, with this lab's words; in a comparison, the
//! state of both runs), and the results strip. Each is the core's own
//! words, rendered as text.

use leptos::prelude::*;

use crate::sim::ack::{Outcome, Record, Status};
use crate::view::ack::compare::compare_mirror;
use crate::view::ack::sentences::outcome_reason;
use crate::view::ack::{increments, sentence, text_mirror};
use crate::view::markup::{EventLine, event_items};

use super::super::text_panels::{recent_events, state_as_text};
use super::state::Ack;

#[component]
pub fn RecentEvents(ack: Ack) -> impl IntoView {
    let count = move || {
        let t = ack.player.playhead.get();
        ack.run.with(|r| r.records_until(t).len())
    };
    // A run of this lab is short: every event so far is listed.
    let line = |r: &Record| EventLine { kind: r.kind(), t: r.t, time: r.t.to_string(), sentence: sentence(r) };
    recent_events(ack, usize::MAX, count, move |count| {
        ack.run.with(|r| event_items(r.records(), count, usize::MAX, line))
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
            None => ack.run.with(|r| text_mirror(r, t)),
        }
    }))
}

#[component]
pub fn ResultsStrip(ack: Ack) -> impl IntoView {
    let summary = move || ack.run.with(|r| *r.summary());
    let max_attempts = move || ack.run.with(|r| r.settings().max_attempts());
    let hidden = move || ack.answer_hidden();
    let shown = move |text: String| if hidden() { "?".to_owned() } else { text };
    let verdict = move || {
        if hidden() {
            return Some(
                view! { <p class="verdict pending">"Make your prediction in the experiment to reveal the result."</p> }
                    .into_any(),
            );
        }
        let s = summary();
        let increments = increments(s.committed);
        match s.outcome {
            Outcome::Succeeded if s.disagrees() => Some(
                view! {
                    <p class="verdict disagree">
                        <strong>"The client status and the ledger disagree: "</strong>
                        {format!("the client reports one success, but the ledger holds {increments}.")}
                    </p>
                }
                .into_any(),
            ),
            Outcome::Exhausted(_) => Some(
                view! {
                    <p class="verdict unknown">
                        {format!(
                            "The client gave up{} without knowing the result; the ledger holds {increments}. The intent is kept for reconciliation.",
                            outcome_reason(s.outcome),
                        )}
                    </p>
                }
                .into_any(),
            ),
            Outcome::Rejected(Status::Unprocessable) => Some(
                view! {
                    <p class="verdict unknown">
                        {format!(
                            "The server refused the retry with 422: its payload differs from the one the key was first used with. The ledger holds {increments}.",
                        )}
                    </p>
                }
                .into_any(),
            ),
            Outcome::Succeeded if s.mismatched_hits > 0 => Some(
                view! {
                    <p class="verdict disagree">
                        <strong>"A mismatched hit: "</strong>
                        "the client believes its payload B was applied, but the ledger holds payload A."
                    </p>
                }
                .into_any(),
            ),
            _ => None,
        }
    };
    view! {
        <section class="results" aria-labelledby="results-h">
            <h2 id="results-h">"Result of this run"</h2>
            <dl class="figures">
                <div class="figure">
                    <dt>"Committed counter"</dt>
                    <dd class="counter">{move || shown(summary().committed.to_string())}</dd>
                </div>
                <div class="figure">
                    <dt>"Client outcome"</dt>
                    <dd class="outcome">{move || shown(format!("{} at {}", summary().outcome.name(), summary().outcome_at))}</dd>
                </div>
                <div class="figure">
                    <dt>"Deduplication hits"</dt>
                    <dd class="hits">{move || shown(summary().dedup_hits.to_string())}</dd>
                </div>
                <div class="figure">
                    <dt>"Attempts"</dt>
                    <dd class="attempts">{move || shown(format!("{} of {}", summary().attempts, max_attempts()))}</dd>
                </div>
            </dl>
            {verdict}
        </section>
    }
}
