//! The storm lab's page.

use leptos::prelude::*;

use crate::sim::params::Group;
use crate::sim::storm::settings::{PARAMS, SEED, WORKLOAD, Workload};
use crate::view::linechart::LineChart;
use crate::view::storm::charts::{aws_chart, load_chart, run_pair, work_chart};
use crate::view::storm::presets::{AXES, Axes, Figure, PRESETS, heat, relevant};
use crate::view::storm::protocol::GridCell;
use crate::view::storm::report::{OverloadReport, StormDoc};
use crate::view::storm::totals::{Judgement, totals};
use crate::view::url::to_query;

use super::super::chrome::{masthead, one_column, settings_column};
use super::super::dom;
use super::super::form::FieldControl;
use super::super::lesson;
use super::super::notices::{Announcer, LiveRegion, NoticeList};
use super::super::plot::LineChartView;
use super::super::text_panels::diff_list;
use super::super::worker::progress_row;
use super::state::{Grid, Storm};

/// The lesson's bar, when a lesson is being taught, with PageDown and
/// PageUp (a clicker's keys), and the down and up arrows in presenter mode,
/// stepping through it: this lab has no replay for them to step otherwise.
fn lesson_here(storm: Storm) -> impl IntoView {
    let at = storm.lesson.get_value()?;
    let page = move || storm.link_state(storm.theme.get_untracked()).page;
    // At the first or last step, the keys and buttons say so here.
    let announcer = Announcer::new();
    let host = super::super::element::Host::current();
    // On a step that asks, PageDown shows the answer before it goes on.
    let shown = RwSignal::new(false);
    let handle = {
        let at = at.clone();
        window_event_listener(leptos::ev::keydown, move |e: web_sys::KeyboardEvent| {
            // As on the other labs' pages: nothing with a modifier, nothing
            // handled already, nothing while a field has the keys; the down
            // and up arrows only in presenter mode, as some clickers send
            // them.
            if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
                return;
            }
            let clicker = matches!(e.key().as_str(), "PageDown" | "PageUp") && dom::clicker_may_step(e.target());
            if dom::key_owner(e.target()) == dom::KeyOwner::Field && !clicker {
                return;
            }
            let by = match e.key().as_str() {
                "PageDown" => 1,
                "PageUp" => -1,
                "ArrowDown" if page().present => 1,
                "ArrowUp" if page().present => -1,
                _ => return,
            };
            e.prevent_default();
            if by > 0 && at.asking(shown.get_untracked()) {
                shown.set(true);
                return;
            }
            lesson::step_by(&at, &page(), host, by, |t| announcer.say(t));
        })
    };
    on_cleanup(move || handle.remove());
    let say = Callback::new(move |t: String| announcer.say(t));
    let reveal = Callback::new(move |()| shown.set(true));
    Some(view! {
        {lesson::lesson_bar(at, page, say, shown, reveal)}
        <LiveRegion announcer/>
    })
}

#[component]
pub fn StormWorkbench(storm: Storm) -> impl IntoView {
    // The address bar follows the settings (a custom element's page keeps
    // its own).
    let element = super::super::element::Host::current().is_element();
    Effect::new(move |_| {
        storm.settings.track();
        storm.b_open.track();
        storm.b_change.track();
        storm.present.track();
        let query = to_query(&storm.link_state(storm.theme.get()));
        if !element {
            dom::replace_query(&query);
        }
    });
    // The first run, once the page is up.
    request_animation_frame(move || {
        if storm.is_alive() {
            storm.run();
        }
    });
    if storm.embed {
        // Compact, for an 800 x 500 frame: the two charts side by side and
        // the totals below them; a link opens the full lab.
        let full = move || {
            let mut state = storm.link_state(storm.theme.get());
            state.page.embed = false;
            let base = super::super::element::Host::current().base();
            super::super::share::share_url_at(&base, &state)
        };
        return view! {
            <div class="app embed storms">
                <NoticeList notices=storm.notices/>
                <main class="stage">
                    <Progress storm/>
                    <Charts storm/>
                    <Totals storm/>
                </main>
                {super::super::chrome::embed_footer(full)}
            </div>
        }
        .into_any();
    }
    // Escape leaves presenter mode, as in the other labs.
    let escape = window_event_listener(leptos::ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" && storm.present.get_untracked() && !e.default_prevented() {
            storm.present.set(false);
        }
    });
    on_cleanup(move || escape.remove());
    (move || if storm.present.get() { presenting(storm).into_any() } else { working(storm).into_any() }).into_any()
}

/// The full page: the presets first, then what the run gives (on a wide
/// screen the totals, where a preset's question sits beside the figures it
/// asks about, then the charts; on a narrow one the charts first, so the
/// picture starts on the first screen), the heat map and the settings.
fn working(storm: Storm) -> impl IntoView {
    let one_column = one_column();
    let figures = move |wide: bool| move || (one_column.get() != wide).then(|| view! { <Totals storm/> <RunB storm/> });
    let controls = move || view! { <div class="area-controls"><StormControls storm/></div> }.into_any();
    let link = move || storm.link_state(storm.theme.get_untracked());
    let toolbar = view! {
        <div class="storm-toolbar">
            {super::super::share::embed_button(link, "Idempotency Lab: retry storms")}
            <button type="button" on:click=move |_| storm.present.set(true)>
                "Present"
            </button>
        </div>
    };
    view! {
        <div class="app storms">
            {masthead(
                crate::view::storm::opening::TAGLINE,
                storm.theme,
                toolbar,
            )}
            <NoticeList notices=storm.notices/>
            <div class="workspace">
                {settings_column(true, one_column, controls)}
                <main class="stage">
                    {lesson_here(storm)}
                    <Presets storm/>
                    <Progress storm/>
                    {figures(true)}
                    <Charts storm/>
                    {figures(false)}
                    <HeatMap storm/>
                </main>
                {settings_column(false, one_column, controls)}
            </div>
        </div>
    }
}

/// Presenter mode, for a projector: the preset's question as the caption
/// (or its title, or what the charts show), the charts and the totals;
/// no settings.
fn presenting(storm: Storm) -> impl IntoView {
    let caption = move || match storm.preset.get().map(|p| PRESETS[p.which]) {
        Some(p) => p.question.map_or(p.title, |q| q.text()).to_owned(),
        None => "A retry storm: the load on the server and the work it does, over the run.".to_owned(),
    };
    view! {
        <div class="app storms present">
            {super::super::present::present_header(move || storm.present.set(false))}
            <NoticeList notices=storm.notices/>
            <main class="stage">
                {lesson_here(storm)}
                <p class="caption">{caption}</p>
                <Progress storm/>
                <Charts storm/>
                <Totals storm/>
            </main>
        </div>
    }
}

#[component]
fn StormControls(storm: Storm) -> impl IntoView {
    let workload = move || storm.settings.with(|s| s.workload);
    let control = move |param: &'static crate::sim::ParamDef| {
        let state = storm.form.field(param);
        let on_edit = Callback::new(move |text: String| {
            storm.preset.set(None);
            storm.edit(param, text);
        });
        view! { <FieldControl param state on_edit/> }
    };
    let group = move |group: Group| {
        move || {
            let w = workload();
            PARAMS
                .iter()
                .copied()
                .filter(|p| p.group == group && p.name != WORKLOAD.name && p.name != SEED.name && relevant(p, w))
                .map(control)
                .collect_view()
        }
    };
    view! {
        <section class="panel controls" aria-labelledby="storm-controls-h">
            <h2 id="storm-controls-h">"Settings"</h2>
            <div class="fields">
                {control(&WORKLOAD)}
                {control(&SEED)}
                {group(Group::Basics)}
            </div>
            <details class="advanced faults">
                <summary>"Keys and retry budgets"</summary>
                <div class="fields">{group(Group::Faults)}</div>
            </details>
            <details class="advanced">
                <summary>"Advanced"</summary>
                <div class="fields">{group(Group::Advanced)}</div>
            </details>
            <div class="run-buttons">
                <button type="button" on:click=move |_| storm.run_sweep()>
                    "Run sweep"
                </button>
                <button type="button" disabled=move || storm.busy.with(|b| b.is_none()) on:click=move |_| storm.cancel()>
                    "Cancel"
                </button>
                <button type="button" on:click=move |_| export(storm)>
                    "Export run (JSON)"
                </button>
                <button
                    type="button"
                    aria-controls="compare-panel"
                    aria-expanded=move || storm.b_open.get().to_string()
                    on:click=move |_| {
                        if storm.b_open.get_untracked() { storm.close_b() } else { storm.open_b() }
                    }
                >
                    "Compare with…"
                </button>
            </div>
            <p class="hint">
                {move || match workload() {
                    Workload::Occ => "Run sweep: the AWS experiment, clients 10 to 190 and the five algorithms, 100 runs each.",
                    Workload::Overload => "Run sweep: the heat map below, over the two settings it names.",
                }}
            </p>
        </section>
    }
}

/// Saves run A's document, or with run B open the comparison's.
fn export(storm: Storm) {
    let json = storm
        .compared
        .with_untracked(|c| c.as_ref().map(|c| c.export.clone()))
        .unwrap_or_else(|| storm.doc_json.get_value());
    if json.is_empty() {
        storm.notices.notify("There is no finished run to export yet.".to_owned());
        return;
    }
    if let Err(e) = dom::download("idempotency-lab-storm.json", "application/json", &json) {
        storm.notices.notify(format!("The export failed: {e}."));
    }
}

#[component]
fn Progress(storm: Storm) -> impl IntoView {
    move || {
        storm.busy.get().map(|b| {
            let text =
                if b.total > 0 { format!("{}: {} of {}", b.label, b.done, b.total) } else { format!("{}…", b.label) };
            progress_row("Progress", u64::from(b.done), u64::from(b.total), text)
        })
    }
}

fn overload(doc: &StormDoc) -> Option<&OverloadReport> {
    match doc {
        StormDoc::Overload { runs, .. } => runs.first(),
        StormDoc::Occ { .. } => None,
    }
}

fn figure(name: &'static str, value: String) -> impl IntoView {
    view! {
        <div class="figure">
            <dt>{name}</dt>
            <dd>{value}</dd>
        </div>
    }
}

/// A figure with its judgement against the run without retries: the
/// word, coloured by its class, and the ratio.
fn judged_figure(
    name: &'static str,
    value: String,
    against: Option<(Judgement, String)>,
    asked: bool,
) -> impl IntoView {
    let judged = against.as_ref().map_or("", |(j, _)| j.class());
    let class = format!("figure {judged}{}", if asked { " asked" } else { "" });
    view! {
        <div class=class>
            <dt>{name}</dt>
            <dd>{value}</dd>
            {against.map(|(_, words)| view! { <dd class="against">{words}</dd> })}
        </div>
    }
}

#[component]
fn Totals(storm: Storm) -> impl IntoView {
    let body = move || {
        let hidden = storm.answer_hidden();
        let shown = move |s: String| if hidden { "?".to_owned() } else { s };
        storm.doc.get().map(|doc| match doc.as_ref() {
            StormDoc::Occ { runs, .. } => {
                let r = runs.first().cloned();
                let r = r.as_ref();
                view! {
                    <dl class="figures">
                        {figure("Write calls", shown(r.map_or_else(String::new, |r| r.calls.to_string())))}
                        {figure("Failed writes", shown(r.map_or_else(String::new, |r| r.failed_writes.to_string())))}
                        {figure("Completion time", shown(r.map_or_else(String::new, |r| format!("{:.1} ms", r.time_ms))))}
                    </dl>
                }
                .into_any()
            }
            StormDoc::Overload { runs, .. } => {
                let Some(r) = runs.first() else { return ().into_any() };
                let law = &r.littles_law;
                let base = storm.baseline.get();
                let asked: &[&str] =
                    storm.preset.with(|p| p.as_ref().and_then(|p| PRESETS[p.which].question).map_or(&[][..], |q| q.about()));
                let judged = totals(r, base.as_deref())
                    .into_iter()
                    .map(|t| {
                        // Intents are what the run was given, not a result.
                        let value = if t.name == "Intents" { t.value } else { shown(t.value) };
                        let against = t.against.filter(|_| !hidden);
                        judged_figure(t.name, value, against, asked.contains(&t.name))
                    })
                    .collect_view();
                view! {
                    <div class="totals-grid">
                        <p class="hint">{crate::view::storm::totals::TOTALS_HINT}</p>
                        <dl class="figures">{judged}</dl>
                        <div class="littles-law">
                            <h3>"Little's law"</h3>
                            <p>
                                {shown(crate::view::storm::totals::littles_law_words(law))}
                            </p>
                        </div>
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="panel totals" aria-labelledby="totals-h">
            <h2 id="totals-h">"Totals"</h2>
            {preset_card(storm)}
            {move || if storm.doc.with(|d| d.is_none()) { Some(view! { <p class="hint">"No run yet."</p> }) } else { None }}
            {body}
        </section>
    }
}

/// Run B beside run A, on one clock and the same seed: the one setting it
/// changes, and the "Differences" region the worker's comparison fills.
#[component]
fn RunB(storm: Storm) -> impl IntoView {
    move || {
        storm.b_open.get().then(|| {
            let choices = move || {
                let w = storm.settings.with(|s| s.workload);
                PARAMS
                    .iter()
                    .copied()
                    .filter(|p| p.name != WORKLOAD.name && relevant(p, w))
                    .map(|p| {
                        view! {
                            <option value=p.name prop:selected=move || storm.b_chosen.get().name == p.name>
                                {p.label}
                            </option>
                        }
                    })
                    .collect_view()
            };
            let on_edit = Callback::new(move |text: String| storm.edit_b(text));
            let control = move || {
                let param = storm.b_chosen.get();
                view! { <FieldControl param state=storm.b_field on_edit prefix="b-"/> }
            };
            let lines = move || {
                if storm.answer_hidden() {
                    return view! { <p class="hint">"The differences appear once you make your prediction."</p> }
                        .into_any();
                }
                match storm.compared.get() {
                    Some(c) => diff_list(c.differences.iter().map(|l| (l.label.clone(), l.text.clone()))).into_any(),
                    None if storm.b_field.error.with(Option::is_some) => {
                        view! { <p class="hint">"Run B cannot run with this change; run A is shown alone."</p> }
                            .into_any()
                    }
                    None => view! { <p class="hint">"Comparing…"</p> }.into_any(),
                }
            };
            view! {
                <section class="panel compare-setup" id="compare-panel" aria-labelledby="compare-h">
                    <h2 id="compare-h">"Run B"</h2>
                    <p class="hint">
                        "Run B is run A, same seed, with one setting changed. Both runs are walked side by side, event by event, to the first one they handle differently."
                    </p>
                    <div class="fields">
                        <div class="field">
                            <label for="b-setting">"Setting to change in run B"</label>
                            <select
                                id="b-setting"
                                on:change:target=move |ev| {
                                    let name = ev.target().value();
                                    if let Some(param) = PARAMS.iter().copied().find(|p| p.name == name) {
                                        storm.choose_b(param);
                                    }
                                }
                            >
                                {choices}
                            </select>
                        </div>
                        {control}
                    </div>
                    <button type="button" class="close-compare" on:click=move |_| storm.close_b()>
                        "Close comparison"
                    </button>
                </section>
                <section class="panel differences" aria-labelledby="differences-h">
                    <h2 id="differences-h">"Differences"</h2>
                    {lines}
                </section>
            }
        })
    }
}

#[component]
fn Charts(storm: Storm) -> impl IntoView {
    let visible = move || !storm.answer_hidden();
    // Run A's chart of a kind (`which` 0), or run B's (1) while run B is
    // open; then both are titled by run and share their axes.
    let pick = move |f: fn(&OverloadReport) -> LineChart, which: usize| {
        Signal::derive(move || {
            if !visible() {
                return None;
            }
            storm.doc.with(|a| {
                let a = a.as_ref().and_then(|d| overload(d))?;
                storm.compared.with(|c| match c.as_ref().and_then(|c| overload(&c.b)) {
                    Some(b) => run_pair(f, a, b).into_iter().nth(which),
                    None => (which == 0).then(|| f(a)),
                })
            })
        })
    };
    let aws = move |time: bool| {
        Signal::derive(move || {
            let occ = storm.settings.with(|s| s.workload == Workload::Occ);
            if !occ {
                return None;
            }
            storm.sweep.with(|s| s.as_ref().map(|s| aws_chart(&s.0, &s.1, time)))
        })
    };
    view! {
        <section class="panel storm-charts" aria-labelledby="storm-charts-h">
            <h2 id="storm-charts-h">"Charts"</h2>
            {move || (!visible()).then(|| view! { <p class="hint">"The charts appear once you make your prediction."</p> })}
            <LineChartView chart=pick(load_chart, 0) id="chart-load" present=storm.present/>
            <LineChartView chart=pick(work_chart, 0) id="chart-work" present=storm.present/>
            <LineChartView chart=pick(load_chart, 1) id="chart-load-b" present=storm.present/>
            <LineChartView chart=pick(work_chart, 1) id="chart-work-b" present=storm.present/>
            <LineChartView chart=aws(false) id="chart-aws-work" present=storm.present/>
            <LineChartView chart=aws(true) id="chart-aws-time" present=storm.present/>
        </section>
    }
}

#[component]
fn HeatMap(storm: Storm) -> impl IntoView {
    let overload_only = move || storm.settings.with(|s| s.workload == Workload::Overload);
    let cells = move || {
        let figure = storm.figure.get();
        storm.grid.get().map(|grid| heat_table(storm, &grid, figure))
    };
    view! {
        <section class="panel heat" aria-labelledby="heat-h" hidden=move || !overload_only()>
            <h2 id="heat-h">"Sweep heat map"</h2>
            {heat_controls(storm)}
            <p class="hint">"Run sweep fills the map, one run per cell; choose a cell to open its run."</p>
            {cells}
        </section>
    }
}

/// Which pair of settings the map sweeps, and which figure colours it.
fn heat_controls(storm: Storm) -> impl IntoView {
    view! {
        <div class="heat-controls">
            <label for="heat-axes">"Sweep"</label>
            <select id="heat-axes" on:change:target=move |ev| {
                if let Ok(i) = ev.target().value().parse::<usize>() {
                    storm.axes.set(i.min(AXES.len() - 1));
                }
            }>
                {AXES
                    .iter()
                    .enumerate()
                    .map(|(i, a)| view! { <option value=i.to_string() prop:selected=move || storm.axes.get() == i>{a.label}</option> })
                    .collect_view()}
            </select>
            <label for="heat-figure">"Colour by"</label>
            <select id="heat-figure" on:change:target=move |ev| {
                if let Some(f) = Figure::ALL.into_iter().find(|f| f.label() == ev.target().value()) {
                    storm.figure.set(f);
                }
            }>
                {Figure::ALL
                    .into_iter()
                    .map(|f| view! { <option value=f.label() prop:selected=move || storm.figure.get() == f>{f.label()}</option> })
                    .collect_view()}
            </select>
        </div>
    }
}

/// The finished sweep as a table: a row per value of the y setting, a
/// column per value of the x setting, each cell coloured by `figure`
/// between the map's lowest and highest values.
fn heat_table(storm: Storm, grid: &Grid, figure: Figure) -> impl IntoView + use<> {
    let axes = AXES[grid.axes];
    let values: Vec<f64> = grid.cells.iter().map(|c| figure.of(c)).collect();
    let range = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    let head =
        axes.x.1.iter().map(|v| view! { <th scope="col">{format!("{} {v}", axes.x.0.link)}</th> }).collect_view();
    let rows = axes
        .y
        .1
        .iter()
        .map(|yv| {
            let row = grid
                .cells
                .iter()
                .filter(|c| c.y == *yv)
                .map(|c| heat_cell(storm, axes, c, figure, range))
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{format!("{} {yv}", axes.y.0.link)}</th>
                    {row}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="heat-map">
            <caption class="visually-hidden">{format!("{}, coloured by {}", axes.label, figure.label())}</caption>
            <thead>
                <tr>
                    <td></td>
                    {head}
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// One cell of the map: its figure, coloured within `(low, high)`, as a
/// button that opens the cell's run.
fn heat_cell(storm: Storm, axes: Axes, c: &GridCell, figure: Figure, (low, high): (f64, f64)) -> impl IntoView + use<> {
    let value = figure.of(c);
    let text = if figure == Figure::Wasted { format!("{value:.2}") } else { format!("{value:.0}") };
    let label = format!("{} {}, {} {}: {} {}", axes.x.0.label, c.x, axes.y.0.label, c.y, figure.label(), text);
    let (x, y) = (c.x.clone(), c.y.clone());
    let class = format!("heat heat-{}", heat(value, low, high));
    view! {
        <td>
            <button
                type="button"
                class=class
                aria-label=label
                on:click=move |_| open_cell(storm, axes, &x, &y)
            >
                {text}
            </button>
        </td>
    }
}

/// Applies the settings of the cell at `x` and `y` on the map's axes, if
/// the current settings take them.
fn open_cell(storm: Storm, axes: Axes, x: &str, y: &str) {
    let s = storm.settings.get_untracked();
    let cell = axes
        .x
        .0
        .parse_human(x)
        .and_then(|v| crate::sim::Schema::with(&s, axes.x.0, v))
        .and_then(|s| axes.y.0.parse_human(y).and_then(|v| crate::sim::Schema::with(&s, axes.y.0, v)));
    if let Ok(s) = cell {
        storm.preset.set(None);
        storm.apply(s);
    }
}

/// The presets, first in the stage: each sets up a run and asks a question
/// (its card sits in the totals, beside the figures it asks about).
#[component]
fn Presets(storm: Storm) -> impl IntoView {
    let active = move || storm.preset.with(|p| p.as_ref().map(|p| p.which));
    view! {
        <section class="panel presets" aria-labelledby="presets-h">
            <h2 id="presets-h">"Presets"</h2>
            <p class="hint">{crate::view::storm::presets::PRESETS_HINT}</p>
            <ul class="preset-list">
                {PRESETS
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        view! {
                            <li>
                                <button
                                    type="button"
                                    aria-pressed=move || (active() == Some(i)).to_string()
                                    on:click=move |_| {
                                        storm.start_preset(i);
                                        request_animation_frame(|| {
                                            dom::focus_by_id("preset-title");
                                        });
                                    }
                                >
                                    {p.title}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// The preset in progress: its question and choices, then the answer and
/// why, in the figures of the run.
fn preset_card(storm: Storm) -> impl IntoView {
    move || {
        storm.preset.get().map(|state| {
            let p = PRESETS[state.which];
            let answer = move || {
                let timeout_ms = storm.settings.with(|s| s.client.timeout_us as f64 / 1000.0);
                storm.doc.with(|d| d.as_ref().and_then(|d| overload(d)).map(|r| (p.question.map(|q| q.answer(r, timeout_ms)), p.explain(r))))
            };
            let body = match (p.question, state.prediction.clone()) {
                (Some(q), None) => view! {
                    <p class="question" id="preset-question">"Predict: "{q.text()}</p>
                    <div class="choices" role="group" aria-labelledby="preset-question">
                        {q
                            .choices()
                            .iter()
                            .map(|c| view! { <button type="button" on:click=move |_| storm.predict((*c).to_owned())>{*c}</button> })
                            .collect_view()}
                        <button type="button" class="link" on:click=move |_| storm.predict(String::new())>
                            "Just show me"
                        </button>
                    </div>
                }
                .into_any(),
                (_, prediction) => view! {
                    <p class="answer">
                        {move || {
                            answer().and_then(|(right, _)| right).map(|right| match prediction.as_deref() {
                                Some(p) if p == right => format!("Right: {right}."),
                                Some(p) if !p.is_empty() => format!("Not quite: you said {p}, the run shows {right}."),
                                _ => format!("Answer: {right}."),
                            })
                        }}
                    </p>
                    <p class="explanation">{move || answer().map(|(_, why)| why).unwrap_or_else(|| p.why.to_owned())}</p>
                }
                .into_any(),
            };
            view! {
                <div class="experiment-card" role="group" aria-labelledby="preset-title">
                    <h3 id="preset-title" tabindex="-1">{p.title}</h3>
                    {body}
                </div>
            }
        })
    }
}
