//! The first lab's page: reads the link, builds the state, lays out the
//! panels, and keeps the address bar and the theme in step with the state.
//! What every page has around its lab (the masthead, the Lab switcher, the
//! theme) is in `chrome`.

use leptos::html;
use leptos::prelude::*;

use crate::view::url::{LabKind, parse_query, to_query};

use super::chart::Chart;
use super::chrome::{CurrentLab, embed_footer, masthead, pass_on, shown_again};
use super::compare::fork_here;
use super::controls::Controls;
use super::dom;
use super::element::Host;
use super::keyboard::{self, ShortcutsDialog};
use super::notices::{LiveRegion, NoticeList};
use super::panels::{Mirror, RecentEvents, ResultsStrip};
use super::playback::playback;
use super::share::share_url_at;
use super::state::Lab;
use super::timeline::Timeline;
use super::toolbar::lab_toolbar;

// The opening page's bundle (feature `lite`) carries what that page shows
// at first; what the reader reaches for later (run B and its differences,
// presenter mode, the guided experiments, the crash matrix) is in the
// whole lab, which the page loads then and puts in this one's place.
#[cfg(feature = "lite")]
use super::lite as parts;
#[cfg(not(feature = "lite"))]
use parts::Presenting;

/// The lost-acknowledgement lab (the opening page's), configured from its
/// address. The other labs are bundles of their own, so this one carries
/// none of their code; the page that hosts every lab loads another lab's
/// bundle when the reader turns to it.
#[component]
pub fn App() -> impl IntoView {
    let query = dom::lab_query(LabKind::Ack);
    let link = parse_query(&query);
    pass_on(link.state.lab, LabKind::Ack);
    let lab = Lab::new(link.state.clone(), link.is_link, link.notices);
    if parts::started(lab, &query) {
        // Handed over to the whole lab before it is drawn here.
        return ().into_any();
    }
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
    view! { <Workbench lab/> }.into_any()
}

/// What the reader asked of the opening page's bundle that its link does
/// not say, for the whole lab to carry out once it is in place (the host
/// keeps it as `data-intent` on the whole lab's root).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Start the experiment with this id.
    Experiment(&'static str),
    /// Go to the crash matrix.
    Matrix,
    /// Go to the field for a checkpoint's question.
    Pin,
}

impl Intent {
    const EXPERIMENT: &'static str = "experiment=";

    pub fn to_attribute(self) -> String {
        match self {
            Intent::Experiment(id) => format!("{}{id}", Intent::EXPERIMENT),
            Intent::Matrix => "matrix".to_owned(),
            Intent::Pin => "pin".to_owned(),
        }
    }

    /// The intent `text` names, with the experiment's index.
    #[cfg(not(feature = "lite"))]
    fn read(text: &str) -> Option<(Intent, Option<usize>)> {
        use crate::view::ack::experiments::EXPERIMENTS;
        match text {
            "matrix" => Some((Intent::Matrix, None)),
            "pin" => Some((Intent::Pin, None)),
            _ => {
                let id = text.strip_prefix(Intent::EXPERIMENT)?;
                let i = EXPERIMENTS.iter().position(|e| e.id == id)?;
                Some((Intent::Experiment(EXPERIMENTS[i].id), Some(i)))
            }
        }
    }
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

    if lab.embed {
        // Compact: the controls and the diagram first, so both fit a small
        // frame without scrolling; the figures and the words are one
        // disclosure away.
        let stage = view! {
            {playback(lab, fork_here(lab.embed, move || lab.fork_here()))}
            {parts::checkpoint_prompt(lab)}
            <Timeline lab/>
            {parts::run_b(lab)}
            <details class="embed-more">
                <summary>"Results, recent events and the state as text"</summary>
                <ResultsStrip lab/>
                {parts::differences(lab)}
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
        #[cfg(not(feature = "lite"))]
        if lab.present.get() {
            return view! { <Presenting lab/> }.into_any();
        }
        working(lab, open_shortcuts).into_any()
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
    let stage = view! {
        <ResultsStrip lab/>
        <Timeline lab/>
        {parts::run_b(lab)}
        {playback(lab, fork_here(lab.embed, move || lab.fork_here()))}
        {parts::checkpoint_prompt(lab)}
        {parts::comparison(lab)}
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
                    {parts::crash_matrix(lab)}
                </main>
                <div class="area-experiments">
                    {parts::experiments(lab)}
                    {parts::checkpoints(lab)}
                </div>
            </div>
        </div>
    }
}

/// The parts of the whole lab that the opening page's bundle leaves out
/// (`super::lite` stands in for them there).
#[cfg(not(feature = "lite"))]
mod parts {
    use leptos::prelude::*;

    use super::super::compare::{differences_while_open, fork_here};
    use super::super::dom;
    use super::super::element::Host;
    use super::super::experiments::Experiments;
    use super::super::matrix::CrashMatrix;
    use super::super::notices::{NoticeList, show_handed};
    use super::super::panels::{Mirror, RecentEvents, ResultsStrip};
    use super::super::playback::playback;
    use super::super::present::{Caption, CheckpointPrompt, Checkpoints};
    use super::super::state::Lab;
    use super::super::timeline::{Side, Timeline};
    use super::Intent;
    use crate::view::url::LabKind;

    /// Shows the notices the opening page's bundle had, and does what the
    /// reader asked of it that made the host load this one: start an experiment, or
    /// go to the crash matrix or the checkpoints. Everything else came in
    /// the link. The lab is then drawn here (false).
    pub fn started(lab: Lab, _query: &str) -> bool {
        show_handed(LabKind::Ack, lab.notices);
        let Some((intent, experiment)) = Intent::read(&dom::lab_handed(LabKind::Ack, "data-intent")) else {
            return false;
        };
        if let Some(i) = experiment {
            lab.start_experiment(i);
        }
        let target = match intent {
            Intent::Experiment(_) => "experiment-title",
            Intent::Matrix => "matrix-h",
            Intent::Pin => "pin-question",
        };
        let host = Host::current();
        request_animation_frame(move || host.focus_by_id(target));
        false
    }

    /// Run B's diagram, while comparing.
    pub fn run_b(lab: Lab) -> impl IntoView {
        move || lab.compare.showing().then(|| view! { <Timeline lab side=Side::B/> })
    }

    pub fn differences(lab: Lab) -> impl IntoView {
        differences_while_open(lab.run, lab.compare)
    }

    /// Run B's settings and the differences, while comparing.
    pub fn comparison(lab: Lab) -> impl IntoView {
        super::super::compare::comparison(lab.run, lab.compare)
    }

    pub fn checkpoint_prompt(lab: Lab) -> impl IntoView {
        view! { <CheckpointPrompt lab/> }
    }

    pub fn experiments(lab: Lab) -> impl IntoView {
        view! { <Experiments lab/> }
    }

    pub fn crash_matrix(lab: Lab) -> impl IntoView {
        view! { <CrashMatrix lab/> }
    }

    pub fn checkpoints(lab: Lab) -> impl IntoView {
        view! { <Checkpoints lab/> }
    }

    /// Presenter mode, for a projector: the caption, the diagram twice as
    /// large, playback and the results; no settings.
    #[component]
    pub fn Presenting(lab: Lab) -> impl IntoView {
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
                    {run_b(lab)}
                    {playback(lab, fork_here(lab.embed, move || lab.fork_here()))}
                    {differences(lab)}
                    <ResultsStrip lab/>
                    <div class="text-panels">
                        <RecentEvents lab/>
                        <Mirror lab/>
                    </div>
                </main>
            </div>
        }
    }
}
