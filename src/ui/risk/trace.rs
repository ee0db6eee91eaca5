//! Observability: reconstruct any tool call from the run's records, the
//! alerts the run raises by the playhead, and the deadline budget with a
//! call's actual spend.

use leptos::prelude::*;

use crate::view::risk::series::Series;

use crate::sim::risk::facts::CallId;
use crate::view::risk::alerts::alerts;
use crate::view::risk::html::{alert_items, budget_html, call_options, trace_details};
use crate::view::risk::trace::{budget, calls, spend, trace};

use super::super::plot::PlotSvg;
use super::state::Risk;

#[component]
pub fn Reconstruct(risk: Risk) -> impl IntoView {
    let entries = Memo::new(move |_| risk.run.with(|r| calls(r)));
    // A burst makes hundreds of calls: the menu lists them all only once
    // the reader reaches for it, and until then only the chosen one, so a
    // new run does not rebuild a long menu nobody opened.
    let opened = RwSignal::new(false);
    Effect::new(move |_| {
        entries.track();
        opened.set(false);
    });
    let options = move || {
        let selected = risk.selected.get().map(|c| c.0);
        entries.with(|e| {
            if opened.get() {
                call_options(e, selected)
            } else {
                let chosen: Vec<_> = e.iter().filter(|c| Some(c.call.0) == selected).cloned().collect();
                call_options(&chosen, selected)
            }
        })
    };
    let details = move || {
        let t = risk.player.playhead.get();
        let call = risk.selected.get()?;
        risk.run.with(|r| trace(r, call, t)).map(|t| trace_details(&t))
    };
    view! {
        <section class="panel reconstruct" aria-labelledby="reconstruct-h">
            <h2 id="reconstruct-h">"Reconstruct a tool call"</h2>
            <p class="hint">"Everything below comes from the run's records up to the playhead, as a log would give it."</p>
            <div class="field">
                <label for="trace-call">"Tool call"</label>
                <select
                    id="trace-call"
                    inner_html=options
                    on:focus=move |_| opened.set(true)
                    on:pointerdown=move |_| opened.set(true)
                    on:change:target=move |ev| {
                        if let Ok(n) = ev.target().value().parse::<u32>() {
                            risk.selected.set(Some(CallId(n)));
                        }
                    }
                ></select>
            </div>
            <div inner_html=move || details().unwrap_or_default()></div>
        </section>
    }
}

#[component]
pub fn Alerts(risk: Risk) -> impl IntoView {
    let items = move || {
        let t = risk.player.playhead.get();
        risk.run.with(|r| alert_items(&alerts(r, t)))
    };
    view! {
        <section class="panel alerts" aria-labelledby="alerts-h">
            <h2 id="alerts-h">"Alerts"</h2>
            <p class="hint">
                "Raised from the run itself: UNKNOWN stalling past the client deadline, a queue saturated, claims lost."
            </p>
            <ul class="alert-list" inner_html=items></ul>
        </section>
    }
}

#[component]
pub fn DeadlineBudget(risk: Risk) -> impl IntoView {
    let markup = move || {
        let t = risk.player.playhead.get();
        let call = risk.selected.get();
        risk.run.with(|r| {
            let s = call.and_then(|c| spend(r, c, t));
            budget_html(&budget(r.settings()), r.settings().agent.deadline, s.as_ref())
        })
    };
    let deadline = move || risk.run.with(|r| r.settings().agent.deadline);
    // Little's law over time: the run's windows, once per run.
    let series = Memo::new(move |_| risk.run.with(|r| Series::of(r)));
    view! {
        <section class="panel budget" aria-labelledby="budget-h">
            <h2 id="budget-h">"Deadline budget"</h2>
            <p class="hint">
                {move || {
                    format!(
                        "Each tool call must be answered within {} of being made. The budget, then the chosen call's actual spend (choose the call under \"Reconstruct a tool call\").",
                        deadline(),
                    )
                }}
            </p>
            <div inner_html=markup></div>
            <figure class="series-chart">
                <PlotSvg
                    plot=Signal::derive(move || series.with(|s| s.plot(600.0)))
                    label=Signal::derive(move || series.with(|s| s.describe()))
                    class="series"
                />
                <ul class="budget-legend series-legend">
                    <li>
                        <span class="swatch replicas"></span>
                        "Calls in flight at the replicas"
                    </li>
                    <li>
                        <span class="swatch api"></span>
                        "Calls at the Risk API"
                    </li>
                </ul>
                <figcaption class="series-said">{move || series.with(|s| s.describe())}</figcaption>
            </figure>
        </section>
    }
}
