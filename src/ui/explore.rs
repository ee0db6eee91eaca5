//! The Explore panel of the first lab and the risk lab: every schedule of
//! at most K aimed faults over the settings on screen, run in a Web Worker
//! (the page stays responsive), with progress, Cancel, what it teaches and,
//! per invariant, how many distinct schedules break it and the simplest of
//! them as a link that opens it as the lab's run. The current run's own
//! verdict sits beside each, so the opened run shows its failure.

use std::sync::Arc;

use leptos::prelude::*;

use crate::view::explore::{Answer, Found, Reply, Request};
use crate::view::labs::Lab;

use super::mount::Boot;
use super::worker::{Channel, progress_row};

const LOADER: &str = "explore-worker_loader.js";

#[derive(Clone, Copy)]
struct Explorer {
    channel: Channel,
    /// (done, total) while exploring; total 0 until the worker has said.
    busy: RwSignal<Option<(u64, u64)>>,
    found: RwSignal<Option<Arc<Found>>>,
    problem: RwSignal<Option<String>>,
    max_faults: RwSignal<usize>,
    /// The settings of the exploration under way or last found.
    explored: StoredValue<Vec<(String, String)>>,
}

impl Explorer {
    fn new() -> Explorer {
        let ready = Reply { id: 0, answer: Answer::Ready }.to_text();
        let ex = Explorer {
            channel: Channel::new(format!("{}{LOADER}", Boot::current().base), ready),
            busy: RwSignal::new(None),
            found: RwSignal::new(None),
            problem: RwSignal::new(None),
            max_faults: RwSignal::new(2),
            explored: StoredValue::new(Vec::new()),
        };
        ex.channel.listen(
            move |text| ex.on_reply(text),
            move || {
                let _ = ex.busy.try_set(None);
                let _ = ex.problem.try_set(Some("The explore worker failed; nothing was lost, try again.".to_owned()));
            },
        );
        ex
    }

    fn on_reply(&self, text: &str) {
        let Some(reply) = Reply::from_text(text) else { return };
        if !self.channel.is_current(reply.id) {
            return;
        }
        match reply.answer {
            Answer::Ready => {}
            Answer::Progress { done, total } => {
                let _ = self.busy.try_set(Some((done, total)));
            }
            Answer::Found(f) => {
                let _ = self.busy.try_set(None);
                let _ = self.found.try_set(Some(Arc::new(f)));
            }
            Answer::Error { message } => {
                let _ = self.busy.try_set(None);
                let _ = self.problem.try_set(Some(format!("{message}.")));
            }
        }
    }

    fn start(&self, lab: Lab, settings: Vec<(String, String)>) {
        // A newer exploration replaces the one under way; an idle worker
        // is kept for the next.
        if self.busy.get_untracked().is_some() {
            self.channel.stop();
        }
        self.found.set(None);
        self.problem.set(None);
        self.busy.set(Some((0, 0)));
        let max_faults = self.max_faults.get_untracked();
        self.explored.set_value(settings.clone());
        let request = |id| {
            let request = Request { id, lab: lab.id.to_owned(), settings, max_faults };
            request.to_text()
        };
        if self.channel.send(request).is_none() {
            self.busy.set(None);
            self.problem
                .set(Some("This browser could not start the explore worker; exploring needs Web Workers.".to_owned()));
        }
    }

    fn cancel(&self) {
        self.channel.stop();
        self.busy.set(None);
        self.problem.set(Some("Exploring was cancelled; nothing was changed.".to_owned()));
    }
}

/// The panel. `alphabet` says what the lab's schedules are made of (its
/// `view::explore::Explores::ALPHABET`); `settings` are the settings on
/// screen as the link spells them; `this_run` the names of the invariants
/// the run on screen breaks.
#[component]
pub fn ExplorePanel(
    lab: Lab,
    alphabet: &'static str,
    #[prop(into)] settings: Signal<Vec<(String, String)>>,
    #[prop(into)] this_run: Signal<Vec<&'static str>>,
) -> impl IntoView {
    let ex = Explorer::new();
    on_cleanup(move || ex.channel.stop());
    // Results belong to the settings they were found for: other settings
    // on screen end an exploration under way and hide its results (a rerun
    // of the same settings keeps them).
    Effect::new(move |_| {
        let differ = settings.with(|now| ex.explored.with_value(|then| now != then));
        if differ && ex.busy.get_untracked().is_some() {
            ex.channel.stop();
            ex.busy.set(None);
        }
    });
    let choose = move |ev| {
        if let Ok(k) = event_target_value(&ev).parse::<usize>() {
            ex.max_faults.set(k);
        }
    };
    view! {
        <section class="panel explore" aria-labelledby="explore-h">
            <h2 id="explore-h">"Explore every schedule"</h2>
            <p class="hint">
                {format!(
                    "Runs these settings under every placement of at most a few aimed faults ({}) and counts, for each \
                     invariant, the distinct schedules that break it.",
                    alphabet,
                )}
            </p>
            <div class="explore-controls">
                <label>
                    "Faults per schedule, at most "
                    <select on:change=choose prop:value=move || ex.max_faults.get().to_string()>
                        <option value="1">"1"</option>
                        <option value="2">"2"</option>
                        <option value="3">"3"</option>
                    </select>
                </label>
                <button type="button" on:click=move |_| ex.start(lab, settings.get_untracked())>"Explore"</button>
                <button type="button" disabled=move || ex.busy.with(Option::is_none) on:click=move |_| ex.cancel()>
                    "Cancel"
                </button>
            </div>
            {move || ex.busy.get().map(progress)}
            {move || ex.problem.get().map(|p| view! { <p class="hint" role="status">{p}</p> })}
            {move || {
                let same = settings.with(|now| ex.explored.with_value(|then| now == then));
                ex.found.get().filter(|_| same).map(|f| results(f, this_run))
            }}
        </section>
    }
}

fn progress((done, total): (u64, u64)) -> impl IntoView {
    let text = if total > 0 { format!("{done} of {total} schedules explored") } else { "Starting…".to_owned() };
    progress_row("Exploring", done, total, text)
}

fn results(found: Arc<Found>, this_run: Signal<Vec<&'static str>>) -> impl IntoView {
    let host = super::element::Host::current();
    let rows = found
        .rows
        .iter()
        .map(|r| {
            let name = r.name.clone();
            let now = move || if this_run.with(|b| b.contains(&name.as_str())) { "broken" } else { "holds" };
            let simplest = match &r.shortest {
                None => view! { <span>"none breaks it"</span> }.into_any(),
                Some(s) => {
                    let text = if s.faults.is_empty() { "no aimed fault".to_owned() } else { s.faults.join(" + ") };
                    let text = match &s.worker_order {
                        Some(order) => format!("{text} ({order})"),
                        None => text,
                    };
                    // In a custom element the run opens in the element.
                    let query = s.link.trim_start_matches('?').to_owned();
                    let here = move |ev: leptos::ev::MouseEvent| {
                        if host.open_here(&query) {
                            ev.prevent_default();
                        }
                    };
                    view! { <a href=s.link.clone() on:click=here>{text}</a> }.into_any()
                }
            };
            let broken = r.broken > 0;
            view! {
                <tr class:broken=broken>
                    <th scope="row">{r.title.clone()}</th>
                    <td class="num">{r.broken}</td>
                    <td>{simplest}</td>
                    <td class="this-run">{now}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="explore-lesson">{found.lesson()}</p>
        <div class="explore-scroll">
        <table class="explore-table">
            <caption>
                {format!("{} schedules explored, {} distinct", found.explored, found.distinct)}
            </caption>
            <thead>
                <tr>
                    <th scope="col">"Invariant"</th>
                    <th scope="col">"Schedules that break it"</th>
                    <th scope="col">"The simplest (opens it as a run)"</th>
                    <th scope="col">"This run"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
    }
}
