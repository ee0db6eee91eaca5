//! The lost-acknowledgement lab's page: reads the link, builds the state
//! ([`Ack`]), lays out the panels, and keeps the address bar in step with
//! the state. What every page has around its lab (the masthead, the Lab
//! switcher, the theme) is in `chrome`; what every lab's run B has, in
//! `compare`.

mod chart;
mod controls;
pub mod element;
mod experiments;
mod matrix;
mod panels;
mod present;
mod state;
mod three_ways;
mod timeline;
mod toolbar;

pub use chart::Chart;
pub use controls::Controls;
pub use experiments::Experiments;
pub use matrix::CrashMatrix;
pub use panels::{Mirror, RecentEvents, ResultsStrip, WhereItBroke};
pub use state::Ack;
pub use timeline::Timeline;

use leptos::html;
use leptos::prelude::*;

use crate::sim::ack::checks;
use crate::view::ack::ACK;
pub use crate::view::ack::AckLab;
use crate::view::explore::Explores;
use crate::view::glossary::ACK_TERMS;
use crate::view::url::{parse_query, read_lab, settings_params, to_query};

use super::chrome::{CurrentLab, after_first_paint, embed_footer, masthead, one_column, settings_column};
use super::compare::{Side, comparison, differences_while_open, fork_here};
use super::dom;
use super::element::Host;
use super::explore::ExplorePanel;
use super::glossary;
use super::keyboard::{self, ShortcutsDialog};
use super::lesson;
use super::mount::{Boot, on_leave, ready};
use super::notices::{LiveRegion, NoticeList};
use super::playback::playback;
use super::present::{checkpoint_prompt, checkpoints, present_bar};
use super::replayed::LabPage;
use super::share::share_url_at;
use present::Caption;
use toolbar::lab_toolbar;

/// The lost-acknowledgement lab, configured from its link.
#[component]
pub fn AckApp() -> impl IntoView {
    let link = parse_query(&Boot::current().query, ACK);
    lesson::follow(&link, ACK);
    let ack = Ack::new(read_lab(&link), link.state.page.clone());
    keep_address(ack);
    provide_context(CurrentLab(ACK, ack.look.theme));
    // Play answers from the first frame.
    ready();
    view! { <Workbench ack/> }
}

/// The address bar follows the run's settings and the playhead, but not
/// every frame of playback (browsers limit how often it may change); the
/// moment playback reached goes there when the lab is left.
fn keep_address(ack: Ack) {
    let write = move || {
        // The address bar stays clean at the start of a run; shared links
        // always say where the playhead is.
        let mut state = ack.link_state();
        state.page.at = state.page.at.filter(|t| t.ms() > 0);
        dom::replace_query(&to_query(&state));
    };
    on_leave(write);
    Effect::new(move |_| {
        ack.run.track();
        ack.player.playhead.track();
        ack.compare.open.track();
        ack.compare.changes.track();
        ack.compare.fork.track();
        ack.presenter.track();
        ack.look.theme.track();
        ack.look.layout.track();
        if !ack.player.playing.get() {
            write();
        }
    });
}

/// Everything below the address: mountable on its own (the browser tests
/// mount it with a state of their choosing).
#[component]
pub fn Workbench(ack: Ack) -> impl IntoView {
    let host = Host::current();
    ack.look.show_on(host);
    super::trace::TraceDesk::provide();
    let dialog = NodeRef::<html::Dialog>::new();
    keyboard::install(ack, dialog);
    let open_shortcuts = Callback::new(move |()| keyboard::open(dialog));
    if ack.embed {
        return embedded(ack, host, dialog).into_any();
    }
    let page = move || {
        if ack.presenter.present.get() {
            view! { <Presenting ack/> }.into_any()
        } else {
            working(ack, open_shortcuts).into_any()
        }
    };
    view! {
        {page}
        <LiveRegion announcer=ack.player.announcer/>
        <ShortcutsDialog dialog/>
    }
    .into_any()
}

/// The lesson's bar, when a lesson is being taught.
fn lesson_here(ack: Ack) -> impl IntoView {
    let say = Callback::new(move |text: String| ack.player.say(text));
    ack.presenter.lesson.get_value().map(|at| lesson::lesson_bar(at, move || ack.link_state().page, say))
}

/// Run B's diagram, while comparing.
fn run_b(ack: Ack) -> impl IntoView {
    move || ack.compare.showing().then(|| view! { <Timeline ack side=Side::B/> })
}

/// The compact embed: the controls and the diagram first, so both fit a
/// small frame without scrolling; the figures and the words are one
/// disclosure away.
fn embedded(ack: Ack, host: Host, dialog: NodeRef<html::Dialog>) -> impl IntoView {
    let stage = view! {
        {playback(ack, fork_here(ack.embed, move || ack.fork_here()))}
        {checkpoint_prompt(ack, ack.presenter)}
        <ResultsStrip ack/>
        <Timeline ack/>
        {run_b(ack)}
        <details class="embed-more">
            <summary>"Where it broke, recent events and the state as text"</summary>
            <WhereItBroke ack/>
            {differences_while_open(ack.run, ack.compare)}
            <div class="text-panels">
                <RecentEvents ack/>
                <Mirror ack/>
            </div>
        </details>
    };
    let full = move || {
        let mut state = ack.link_state();
        state.page.embed = false;
        share_url_at(&host.base(), &state)
    };
    view! {
        <div class="app embed" class:predicting=move || ack.answer_hidden()>
            <NoticeList notices=ack.notices/>
            <main class="stage">{stage}</main>
            {embed_footer(full)}
            <LiveRegion announcer=ack.player.announcer/>
            <ShortcutsDialog dialog/>
        </div>
    }
}

/// The full page: settings, the stage, the experiments.
fn working(ack: Ack, open_shortcuts: Callback<()>) -> impl IntoView {
    let one_column = one_column();
    // What starts below the first screen is built once that screen is
    // painted, a panel at a time.
    let [chart, matrix, explore, experiments, rest] = after_first_paint();
    let once = |stage: Signal<bool>, panel: fn(Ack) -> AnyView| move || stage.get().then(|| panel(ack));
    // Where it broke: above the timeline on a wide screen; on a narrow one
    // after the diagram and playback, so they start on the first screen.
    let broke = move |wide: bool| move || (one_column.get() != wide).then(|| view! { <WhereItBroke ack/> });
    let stage = view! {
        <super::trace::TracePanel/>
        {lesson_here(ack)}
        {move || ack.three_ways.get().then(|| view! { <three_ways::ThreeWays ack/> })}
        <ResultsStrip ack/>
        {broke(true)}
        <Timeline ack/>
        {run_b(ack)}
        {playback(ack, fork_here(ack.embed, move || ack.fork_here()))}
        {broke(false)}
        {checkpoint_prompt(ack, ack.presenter)}
        {comparison(ack.run, ack.compare)}
        <div class="text-panels">
            <RecentEvents ack/>
            <Mirror ack/>
        </div>
    };
    let controls = move || view! { <div class="area-controls"><Controls ack/></div> }.into_any();
    view! {
        <div
            class="app"
            class:predicting=move || ack.answer_hidden()
            on:dragover=super::trace::on_drag_over
            on:drop=super::trace::on_drop(ack.notices)
        >
            {masthead(
                crate::view::ack::opening::TAGLINE,
                ack.look.theme,
                lab_toolbar(ack, open_shortcuts),
            )}
            <NoticeList notices=ack.notices/>
            // Settings, then what they produce, then the guided experiments:
            // one column on phones; on wide screens the grid puts settings and
            // experiments side by side with the stage.
            <div class="workspace">
                {settings_column(true, one_column, controls)}
                <main class="stage">
                    {stage}
                    {once(chart, |ack| view! { <Chart ack/> }.into_any())}
                    {once(matrix, |ack| view! { <CrashMatrix ack/> }.into_any())}
                    {once(explore, |ack| {
                        view! { <ExplorePanel lab=ACK alphabet=AckLab::ALPHABET settings=explored_settings(ack) this_run=broken_now(ack)/> }
                            .into_any()
                    })}
                </main>
                {settings_column(false, one_column, controls)}
                <div class="area-experiments">
                    {once(experiments, |ack| view! { <Experiments ack/> }.into_any())}
                    {once(rest, |ack| {
                        view! {
                            {checkpoints(ack, ack.presenter, move || ack.suggested_question())}
                            {lesson::lessons_panel(move || ack.link_state().page)}
                            {glossary::words(ACK_TERMS)}
                        }
                            .into_any()
                    })}
                </div>
            </div>
        </div>
    }
}

/// Presenter mode, for a projector: the caption, the diagram twice as
/// large, playback and the results; no settings.
#[component]
fn Presenting(ack: Ack) -> impl IntoView {
    view! {
        <div class="app present">
            {present_bar(ack.presenter)}
            <NoticeList notices=ack.notices/>
            <main class="stage">
                {lesson_here(ack)}
                <Caption ack/>
                {checkpoint_prompt(ack, ack.presenter)}
                <Timeline ack/>
                {run_b(ack)}
                {playback(ack, fork_here(ack.embed, move || ack.fork_here()))}
                {differences_while_open(ack.run, ack.compare)}
                <ResultsStrip ack/>
                <WhereItBroke ack/>
                <div class="text-panels">
                    <RecentEvents ack/>
                    <Mirror ack/>
                </div>
            </main>
        </div>
    }
}

/// The settings on screen, as the link spells them, for the explorer.
fn explored_settings(ack: Ack) -> Signal<Vec<(String, String)>> {
    Signal::derive(move || ack.run.with(|r| settings_params(r.settings())))
}

/// The invariants the run on screen breaks, judged from its records once
/// per run (every row of the explorer's table reads it).
fn broken_now(ack: Ack) -> Memo<Vec<&'static str>> {
    Memo::new(move |_| ack.run.with(|r| checks::broken(r.records()).into_iter().map(|c| c.name()).collect()))
}
