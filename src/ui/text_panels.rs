//! The text panels every lab's page shows below its stage: the recent
//! events, each a button to its moment, and the state as text. A lab gives
//! them its words: the events' markup (`view::markup::event_items` with
//! its own lines) and its text mirror. Also the list a comparison's
//! "Differences" region shows, and the "Where it broke" region.

use leptos::prelude::*;

use crate::view::markup::events_cut;

use super::markup::chosen_moment;
use super::playback::Replay;

/// Recent events, newest first up to the playhead. `count` says how many
/// records are at or before the playhead (tracked) and `items` writes the
/// list for that many, at most `limit` of them; past the limit the hint
/// says how many the list leaves out.
pub fn recent_events<R: Replay>(
    lab: R,
    limit: usize,
    count: impl Fn() -> usize + Send + Sync + 'static,
    items: impl Fn(usize) -> String + Send + Sync + 'static,
) -> impl IntoView {
    let count = Memo::new(move |_| count());
    let more = move || events_cut(count.get(), limit).map(|cut| format!(" {cut}"));
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(t) = chosen_moment(&ev) {
            lab.seek(t, true);
        }
    };
    view! {
        <section class="panel events" aria-labelledby="events-h">
            <h2 id="events-h">"Recent events"</h2>
            <p class="hint">"Newest first, up to the playhead. Choose one to move the playhead there."{more}</p>
            <ol class="event-list" on:click=on_click inner_html=move || items(count.get())></ol>
        </section>
    }
}

/// The state at the playhead as text.
pub fn state_as_text(text: Memo<String>) -> impl IntoView {
    view! {
        <section class="panel mirror" aria-labelledby="mirror-h">
            <h2 id="mirror-h">"State as text"</h2>
            <pre class="mirror-text">{text}</pre>
        </section>
    }
}

/// The lines of a comparison's differences, each a label and what it says.
pub fn diff_list(lines: impl IntoIterator<Item = (String, String)>) -> impl IntoView {
    view! {
        <dl class="diff-lines">
            {lines
                .into_iter()
                .map(|(label, text)| {
                    view! {
                        <div class="diff-line">
                            <dt>{label}</dt>
                            <dd>{text}</dd>
                        </div>
                    }
                })
                .collect_view()}
        </dl>
    }
}

/// The "Where it broke" region, headed `heading_id`: each line its words,
/// after the run it speaks of ("Run A", "Run B") when comparing; and
/// "Go there", which moves `lab`'s playhead to the moment the region
/// speaks of (`moment`, the lab's, when there is one to go to and the
/// playhead is elsewhere).
pub fn where_it_broke<R: Replay>(
    lab: R,
    heading_id: &'static str,
    lines: impl Fn() -> Vec<(&'static str, String)> + Send + Sync + 'static,
    moment: impl Fn() -> Option<crate::sim::Millis> + Send + Sync + 'static,
) -> impl IntoView {
    let playhead = lab.player().playhead;
    let go = move || {
        moment().filter(|&t| t != playhead.get()).map(|t| {
            view! {
                <button type="button" class="go-there" on:click=move |_| lab.seek(t, true)>
                    "Go there"
                </button>
            }
        })
    };
    view! {
        <section class="panel where-it-broke" aria-labelledby=heading_id>
            <h2 id=heading_id>"Where it broke"</h2>
            {go}
            {move || {
                lines()
                    .into_iter()
                    .map(|(run, text)| {
                        view! {
                            <p>
                                {(!run.is_empty()).then(|| view! { <strong>{format!("{run}: ")}</strong> })}
                                {text}
                            </p>
                        }
                    })
                    .collect_view()
            }}
        </section>
    }
}
