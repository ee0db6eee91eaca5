//! The first lab's page: reads the link, builds the state, lays out the
//! panels, and keeps the address bar and the theme in step with the state.
//! What every page has around its lab (the masthead, the Lab switcher, the
//! theme) is in `chrome`.

use leptos::html;
use leptos::prelude::*;

use crate::view::url::{LabKind, parse_query, to_query};

use super::chart::Chart;
use super::chrome::{CurrentLab, embed_footer, masthead, pass_on, shown_again};
use super::compare::{ComparePanel, Differences, fork_here};
use super::controls::Controls;
use super::dom;
use super::element::Host;
use super::experiments::Experiments;
use super::keyboard::{self, ShortcutsDialog};
use super::matrix::CrashMatrix;
use super::notices::{LiveRegion, NoticeList};
use super::panels::{Mirror, RecentEvents, ResultsStrip};
use super::playback::playback;
use super::present::{Caption, CheckpointPrompt, Checkpoints};
use super::share::share_url_at;
use super::state::Lab;
use super::timeline::{Side, Timeline};
use super::toolbar::lab_toolbar;

/// The lost-acknowledgement lab (the opening page's), configured from its
/// address. The other labs are bundles of their own, so this one carries
/// none of their code; the page that hosts every lab loads another lab's
/// bundle when the reader turns to it.
#[component]
pub fn App() -> impl IntoView {
    let link = parse_query(&dom::lab_query(LabKind::Ack));
    pass_on(link.state.lab, LabKind::Ack);
    let lab = Lab::new(link.state.clone(), link.is_link, link.notices);
    let shown = shown_again(LabKind::Ack, lab.look.theme);

    // The address bar follows the run's settings and the playhead, but not
    // every frame of playback (browsers limit how often it may change).
    Effect::new(move |_| {
        lab.run.track();
        lab.player.playhead.track();
        lab.compare.open.track();
        lab.compare.changes.track();
        lab.compare.fork.track();
        lab.present.track();
        lab.pins.track();
        shown.track();
        if !lab.player.playing.get() {
            // The address bar stays clean at the start of a run; shared links
            // always say where the playhead is.
            let mut state = lab.link_state();
            state.at = state.at.filter(|t| t.ms() > 0);
            dom::replace_query(LabKind::Ack, &to_query(&state));
        }
    });
    provide_context(CurrentLab(LabKind::Ack, lab.look.theme));
    view! { <Workbench lab/> }
}

/// Everything below the address: mountable on its own (the browser tests
/// mount it with a state of their choosing).
#[component]
pub fn Workbench(lab: Lab) -> impl IntoView {
    let host = Host::current();
    lab.look.show_on(host);
    let dialog = NodeRef::<html::Dialog>::new();
    keyboard::install(lab, dialog);
    let open_shortcuts = Callback::new(move |()| keyboard::open(dialog));
    let timeline_b = move || lab.compare.showing().then(|| view! { <Timeline lab side=Side::B/> });
    let differences = move || lab.compare.open.get().then(|| view! { <Differences lab/> });

    if lab.embed {
        // Compact: the controls and the diagram first, so both fit a small
        // frame without scrolling; the figures and the words are one
        // disclosure away.
        let stage = view! {
            {playback(lab, fork_here(lab))}
            <CheckpointPrompt lab/>
            <Timeline lab/>
            {timeline_b}
            <details class="embed-more">
                <summary>"Results, recent events and the state as text"</summary>
                <ResultsStrip lab/>
                {differences}
                <div class="text-panels">
                    <RecentEvents lab/>
                    <Mirror lab/>
                </div>
            </details>
        };
        let full = move || {
            let mut state = lab.link_state();
            state.embed = false;
            share_url_at(&host.base(), &state)
        };
        return view! {
            <div class="app embed" class:predicting=move || lab.answer_hidden()>
                <NoticeList notices=lab.notices/>
                <main class="stage">{stage}</main>
                {embed_footer(full)}
                <LiveRegion announcer=lab.player.announcer/>
                <ShortcutsDialog dialog/>
            </div>
        }
        .into_any();
    }

    let page = move || {
        if lab.present.get() { presenting(lab).into_any() } else { working(lab, open_shortcuts).into_any() }
    };
    view! {
        {page}
        <LiveRegion announcer=lab.player.announcer/>
        <ShortcutsDialog dialog/>
    }
    .into_any()
}

/// The full page: settings, the stage, the experiments.
fn working(lab: Lab, open_shortcuts: Callback<()>) -> impl IntoView {
    let timeline_b = move || lab.compare.showing().then(|| view! { <Timeline lab side=Side::B/> });
    let comparison = move || {
        lab.compare.open.get().then(|| {
            view! {
                <div class="comparison">
                    <ComparePanel lab/>
                    <Differences lab/>
                </div>
            }
        })
    };
    let stage = view! {
        <ResultsStrip lab/>
        <Timeline lab/>
        {timeline_b}
        {playback(lab, fork_here(lab))}
        <CheckpointPrompt lab/>
        {comparison}
        <div class="text-panels">
            <RecentEvents lab/>
            <Mirror lab/>
        </div>
    };
    view! {
        <div class="app" class:predicting=move || lab.answer_hidden()>
            {masthead(
                "A client that reports one success can leave two increments in the ledger. Lose an acknowledgement, retry, and see why.",
                lab.look.theme,
                lab_toolbar(lab, open_shortcuts),
            )}
            <NoticeList notices=lab.notices/>
            // Settings, then what they produce, then the guided experiments:
            // one column on phones; on wide screens the grid puts settings and
            // experiments side by side with the stage.
            <div class="workspace">
                <div class="area-controls">
                    <Controls lab/>
                </div>
                <main class="stage">
                    {stage}
                    <Chart lab/>
                    <CrashMatrix lab/>
                </main>
                <div class="area-experiments">
                    <Experiments lab/>
                    <Checkpoints lab/>
                </div>
            </div>
        </div>
    }
}

/// Presenter mode, for a projector: the caption, the diagram twice as
/// large, playback and the results; no settings.
fn presenting(lab: Lab) -> impl IntoView {
    let timeline_b = move || lab.compare.showing().then(|| view! { <Timeline lab side=Side::B/> });
    let differences = move || lab.compare.open.get().then(|| view! { <Differences lab/> });
    view! {
        <div class="app present">
            <header class="present-bar">
                <p class="present-title">"Idempotency Lab"</p>
                <button type="button" aria-keyshortcuts="Escape" on:click=move |_| lab.present.set(false)>
                    "Exit presentation"
                </button>
            </header>
            <NoticeList notices=lab.notices/>
            <main class="stage">
                <Caption lab/>
                <CheckpointPrompt lab/>
                <Timeline lab/>
                {timeline_b}
                {playback(lab, fork_here(lab))}
                {differences}
                <ResultsStrip lab/>
                <div class="text-panels">
                    <RecentEvents lab/>
                    <Mirror lab/>
                </div>
            </main>
        </div>
    }
}
