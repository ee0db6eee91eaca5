//! The text regions: recent events, the state as text and the results
//! strip. Each is the core's own words, rendered as text.

use leptos::prelude::*;

use crate::sim::ack::Outcome;
use crate::sim::ack::Status;
use crate::view::ack::compare::compare_mirror;
use crate::view::ack::sentences::outcome_reason;
use crate::view::ack::{increments, sentence, text_mirror};

use super::playback::Replay;
use super::state::Lab;

#[component]
pub fn RecentEvents(lab: Lab) -> impl IntoView {
    let visible = Memo::new(move |_| {
        let t = lab.playhead.get();
        lab.run.with(|r| r.records_until(t).len())
    });
    let rows = move || {
        let count = visible.get();
        lab.run.with(|run| {
            run.records()[..count]
                .iter()
                .rev()
                .map(|r| {
                    let t = r.t;
                    view! {
                        <li class=format!("event {}", r.kind())>
                            <button type="button" on:click=move |_| lab.seek(t, true)>
                                <span class="event-time">{t.to_string()}</span>
                                " "
                                <span class="event-text">{sentence(r)}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="panel events" aria-labelledby="events-h">
            <h2 id="events-h">"Recent events"</h2>
            <p class="hint">"Newest first, up to the playhead. Choose one to move the playhead there."</p>
            <ol class="event-list">{rows}</ol>
        </section>
    }
}

#[component]
pub fn Mirror(lab: Lab) -> impl IntoView {
    let text = Memo::new(move |_| {
        let t = lab.playhead.get();
        let c = lab.compare;
        let both = if c.showing() { c.diff.get().zip(c.b.get().ok()) } else { None };
        match both {
            Some((diff, b)) => lab.run.with(|a| compare_mirror(a, &b, &diff, c.fork.get(), t)),
            None => lab.run.with(|r| text_mirror(r, t)),
        }
    });
    view! {
        <section class="panel mirror" aria-labelledby="mirror-h">
            <h2 id="mirror-h">"State as text"</h2>
            <pre class="mirror-text">{text}</pre>
        </section>
    }
}

#[component]
pub fn ResultsStrip(lab: Lab) -> impl IntoView {
    let summary = move || lab.run.with(|r| *r.summary());
    let max_attempts = move || lab.run.with(|r| r.settings().max_attempts());
    let hidden = move || lab.answer_hidden();
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
