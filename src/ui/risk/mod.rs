//! The risk-review lab's page: the incident replayed with a naive server,
//! then with the patterns that make it safe, one switch at a time. Its
//! state is [`Risk`]; each panel is a component of its own that renders
//! what `view::risk` computes from the run and the playhead, so tests can
//! mount any of them.

mod checks;
mod controls;
mod incident;
mod load;
mod machine;
mod panels;
mod questions;
pub mod state;
mod table;
mod timeline;
mod trace;

pub use checks::ChecksPanel;
pub use controls::RiskControls;
pub use incident::Incident;
pub use load::Load;
pub use machine::StateMachine;
pub use panels::{RiskEvents, RiskFigures, RiskMirror, RiskWhereItBroke};
pub use questions::questions;
pub use state::Risk;
pub use table::DatabaseTable;
pub use timeline::RiskTimeline;
pub use trace::{Alerts, DeadlineBudget, Reconstruct};

use leptos::html;
use leptos::prelude::*;

use crate::sim::risk::Settings;
use crate::view::explore::Explores;
use crate::view::glossary::RISK_TERMS;
use crate::view::page::DEFAULT_QUESTION;
use crate::view::risk::sentences::caption;
use crate::view::risk::{RISK, RiskLab};
use crate::view::url::{parse_query, read_lab, settings_params, to_query};

use super::chrome::{CurrentLab, embed_footer, masthead, one_column, settings_column};
use super::compare::{Side, compare_button, comparison, differences_while_open, fork_here};
use super::dom;
use super::element::Host;
use super::explore::ExplorePanel;
use super::keyboard::{self, ShortcutsDialog};
use super::lesson;
use super::mount::{Boot, on_leave, ready};
use super::notices::{LiveRegion, NoticeList};
use super::playback::playback;
use super::present::{checkpoint_prompt, checkpoints, present_bar};
use super::replayed::LabPage;
use super::share::{share_url, toolbar};

/// The risk-review lab's page, configured from its link.
#[component]
pub fn RiskApp() -> impl IntoView {
    let link = parse_query(&Boot::current().query, RISK);
    // A custom element keeps its page's address alone.
    let element = Host::current().is_element();
    if !element {
        lesson::follow(&link, RISK);
    }
    let risk = Risk::new(read_lab::<Settings>(&link), &link.state.page);
    if !element {
        keep_address(risk);
    }
    provide_context(CurrentLab(RISK, risk.look.theme));
    // Play answers from the first frame.
    ready();
    view! { <RiskWorkbench risk/> }
}

/// Keeps the address bar in step with the lab.
fn keep_address(risk: Risk) {
    // The address bar follows the settings and the playhead, but not every
    // frame of playback (browsers limit how often it may change), and a
    // moment after a change rather than in the same frame: rewriting the
    // address costs the browser more than redrawing the panels.
    let write = move || {
        let mut state = risk.link_state();
        state.page.at = state.page.at.filter(|t| t.ms() > 0);
        dom::replace_query(&to_query(&state));
    };
    // Left while playing, or before the moment's rewrite: the moment now.
    on_leave(write);
    let pending = StoredValue::new(0u32);
    Effect::new(move |_| {
        risk.run.track();
        risk.player.playhead.track();
        risk.compare.open.track();
        risk.compare.changes.track();
        risk.compare.fork.track();
        risk.look.theme.track();
        risk.look.layout.track();
        risk.presenter.track();
        if risk.player.playing.get() {
            return;
        }
        let ticket = pending.get_value().wrapping_add(1);
        pending.set_value(ticket);
        set_timeout(
            move || {
                // (Gone if the lab was unmounted meanwhile.)
                if pending.try_get_value() == Some(ticket) {
                    write();
                }
            },
            std::time::Duration::from_millis(120),
        );
    });
}

/// Run B's diagram, while comparing.
fn risk_b(risk: Risk) -> impl IntoView {
    move || risk.compare.showing().then(|| view! { <RiskTimeline risk side=Side::B/> })
}

/// Run B's settings and the differences, while comparing; an embed, which
/// has no settings, shows the differences alone.
fn risk_comparison(risk: Risk) -> impl IntoView {
    if risk.embed {
        differences_while_open(risk.run, risk.compare).into_any()
    } else {
        comparison(risk.run, risk.compare).into_any()
    }
}

/// Everything below the address: mountable on its own.
#[component]
pub fn RiskWorkbench(risk: Risk) -> impl IntoView {
    risk.look.show_on(Host::current());
    super::trace::TraceDesk::provide();
    let dialog = NodeRef::<html::Dialog>::new();
    keyboard::install(risk, dialog);
    let open_shortcuts = Callback::new(move |()| keyboard::open(dialog));
    let page = move || {
        if risk.embed {
            embedded(risk).into_any()
        } else if risk.presenter.present.get() {
            presenting(risk).into_any()
        } else {
            working(risk, open_shortcuts).into_any()
        }
    };
    view! {
        {page}
        <LiveRegion announcer=risk.player.announcer/>
        <ShortcutsDialog dialog/>
    }
}

/// The lesson's bar, when a lesson is being taught.
fn lesson_here(risk: Risk) -> impl IntoView {
    let say = Callback::new(move |text: String| risk.player.say(text));
    let reveal = Callback::new(move |()| risk.presenter.reveal(risk));
    let shown = risk.presenter.answered;
    risk.presenter
        .lesson
        .get_value()
        .map(|at| lesson::lesson_bar(at, move || risk.link_state().page, say, shown, reveal))
}

/// Presenter mode, for a projector: the caption, the timeline twice as
/// large, playback, the figures and the checks; no settings.
fn presenting(risk: Risk) -> impl IntoView {
    let caption = move || {
        let t = risk.player.playhead.get();
        risk.run.with(|r| caption(r.records(), t))
    };
    view! {
        <div class="app risk present">
            {present_bar(risk.presenter)}
            <NoticeList notices=risk.notices/>
            <main class="stage">
                <p class="caption">{caption}</p>
                {checkpoint_prompt(risk, risk.presenter)}
                <div class="present-grid">
                    <div class="present-run">
                        <RiskTimeline risk/>
                        {risk_b(risk)}
                    </div>
                    <div class="present-side">
                        {playback(risk, ())}
                        {lesson_here(risk)}
                        <RiskFigures risk/>
                        <RiskWhereItBroke risk/>
                        {differences_while_open(risk.run, risk.compare)}
                    </div>
                </div>
                <ChecksPanel risk/>
            </main>
        </div>
    }
}

/// The link to this run and moment in the full lab (an embed's way out).
fn full_lab(risk: Risk) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || {
        risk.player.playhead.track();
        risk.run.track();
        let mut state = risk.link_state();
        state.page.embed = false;
        share_url(&state)
    }
}

/// The compact embed, for an 800 x 500 frame: playback, the figures and
/// the whole timeline (drawn to fit the room the frame leaves it) first;
/// where it broke, the checks and the words one disclosure away; a link to
/// the full lab.
fn embedded(risk: Risk) -> impl IntoView {
    let full = full_lab(risk);
    let first_below = NodeRef::<html::Div>::new();
    let below = risk.below(first_below);
    view! {
        <div class="app risk embed" class:predicting=move || risk.answer_hidden()>
            <NoticeList notices=risk.notices/>
            <main class="stage">
                {playback(risk, ())}
                {checkpoint_prompt(risk, risk.presenter)}
                <RiskFigures risk/>
                <RiskTimeline risk/>
                {risk_b(risk)}
                <details class="embed-more">
                    <summary>"Where it broke, the checks and the state as text"</summary>
                    <div class="embed-more-body">
                        <RiskWhereItBroke risk/>
                        {differences_while_open(risk.run, risk.compare)}
                        <div class="risk-grid" node_ref=first_below>
                            <ChecksPanel risk=below/>
                        </div>
                        <div class="text-panels">
                            <RiskEvents risk=below live=risk/>
                            <RiskMirror risk=below/>
                        </div>
                    </div>
                </details>
            </main>
            {embed_footer(full)}
        </div>
    }
}

/// The full page.
fn working(risk: Risk, open_shortcuts: Callback<()>) -> impl IntoView {
    let predicting = move || risk.answer_hidden();
    // The embed is the same page without its chrome: no masthead, settings,
    // questions or observability panels, and the playback controls and the
    // timeline first (risk.css orders them). One view serves both, so the
    // bundle carries the page's panels once.
    let embed = risk.embed;
    // Built only on the full page, so the embed runs none of their work.
    let chrome = move |make: &dyn Fn() -> AnyView| if embed { ().into_any() } else { make() };
    let full = full_lab(risk);
    let first_below = NodeRef::<html::Div>::new();
    let below = risk.below(first_below);
    let one_column = one_column();
    // The lab's words come before the settings, whose patterns are the
    // first to use them.
    let controls = move || {
        view! {
            <div class="area-controls">
                {super::glossary::words(RISK_TERMS)}
                <RiskControls risk/>
            </div>
        }
        .into_any()
    };
    view! {
        <div
            class="app risk"
            class:embed=embed
            class:predicting=predicting
            on:dragover=super::trace::on_drag_over
            on:drop=super::trace::on_drop(risk.notices)
        >
            {chrome(&|| {
                masthead(
                    crate::view::risk::opening::TAGLINE,
                    risk.look.theme,
                    toolbar(
                        risk,
                        open_shortcuts,
                        view! {
                            {compare_button(risk.compare, move || risk.toggle_compare())}
                            <button type="button" on:click=move |_| risk.presenter.set_present(true)>
                                "Present"
                            </button>
                        },
                    ),
                )
                .into_any()
            })}
            <NoticeList notices=risk.notices/>
            <div class="workspace">
                {(!embed).then(|| settings_column(true, one_column, controls))}
                <main class="stage">
                    <super::trace::TracePanel/>
                    {chrome(&|| lesson_here(risk).into_any())}
                    {checkpoint_prompt(risk, risk.presenter)}
                    <RiskFigures risk/>
                    <RiskTimeline risk/>
                    {risk_b(risk)}
                    {playback(risk, fork_here(embed, move || risk.fork_here()))}
                    <RiskWhereItBroke risk/>
                    {risk_comparison(risk)}
                    {chrome(&|| view! { <Incident risk/> }.into_any())}
                    <div class="risk-grid" node_ref=first_below>
                        <DatabaseTable risk=below/>
                        <StateMachine risk=below/>
                        <ChecksPanel risk=below/>
                        {chrome(&|| view! { <Alerts risk=below/> }.into_any())}
                    </div>
                    {chrome(&|| {
                        view! {
                            <div class="risk-grid">
                                <Reconstruct risk=below/>
                                <DeadlineBudget risk=below/>
                            </div>
                            <Load risk=below/>
                            <ExplorePanel lab=RISK alphabet=RiskLab::ALPHABET settings=explored_settings(risk) this_run=broken_now(risk)/>
                        }
                            .into_any()
                    })}
                    <div class="text-panels">
                        <RiskEvents risk=below live=risk/>
                        <RiskMirror risk=below/>
                    </div>
                </main>
                {(!embed).then(|| settings_column(false, one_column, controls))}
                {chrome(&|| {
                    view! {
                        <div class="area-experiments">
                            {questions(risk)}
                            {checkpoints(risk, risk.presenter, || DEFAULT_QUESTION.to_owned())}
                        </div>
                    }
                        .into_any()
                })}
            </div>
            {embed.then(|| embed_footer(full))}
        </div>
    }
}

/// The settings on screen, as the link spells them, for the explorer.
fn explored_settings(risk: Risk) -> Signal<Vec<(String, String)>> {
    Signal::derive(move || risk.run.with(|r| settings_params(r.settings())))
}

/// The checks the run on screen breaks, by name, judged once per run
/// (every row of the explorer's table reads it).
fn broken_now(risk: Risk) -> Memo<Vec<&'static str>> {
    Memo::new(move |_| {
        risk.run.with(|r| r.checks().into_iter().filter(|c| c.holds == Some(false)).map(|c| c.name.name()).collect())
    })
}
