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
mod toolbar;
mod trace;

pub use checks::ChecksPanel;
pub use controls::RiskControls;
pub use incident::Incident;
pub use load::Load;
pub use machine::StateMachine;
pub use panels::{RiskEvents, RiskFigures, RiskMirror};
pub use questions::questions;
pub use state::Risk;
pub use table::DatabaseTable;
pub use timeline::RiskTimeline;
pub use trace::{Alerts, DeadlineBudget, Reconstruct};

use leptos::html;
use leptos::prelude::*;

use crate::sim::risk::Settings;
use crate::view::url::{LabKind, asks_lab_b, decode_settings, parse_query_on, to_query};

use super::chrome::{CurrentLab, embed_footer, masthead, pass_on, shown_again};
use super::compare::{compare_button, fork_here};
use super::dom;
use super::element::Host;
use super::keyboard::{self, ShortcutsDialog};
use super::notices::{LiveRegion, NoticeList};
use super::playback::playback;
use super::share::{share_url, toolbar};

/// The risk-review lab's page, configured from its address.
#[component]
pub fn RiskApp() -> impl IntoView {
    let query = dom::lab_query(LabKind::Risk);
    let link = parse_query_on(&query, LabKind::Risk);
    pass_on(link.state.lab, LabKind::Risk);
    let (settings, refused) = decode_settings::<Settings>(&link.state.lab_params);
    let notices = link.notices.into_iter().chain(refused).collect();
    let asks_b = asks_lab_b(&link.state.lab_params);
    let risk = Risk::new(settings, &link.state, notices);
    if parts::risk_started(risk, &query, asks_b) {
        // Handed over to the whole build before it is drawn here.
        return ().into_any();
    }
    keep_address(risk);
    view! { <RiskWorkbench risk/> }.into_any()
}

/// Keeps the address bar and the Lab switcher in step with the lab.
fn keep_address(risk: Risk) {
    let shown = shown_again(LabKind::Risk, risk.look.theme);
    // The address bar follows the settings and the playhead, but not every
    // frame of playback (browsers limit how often it may change), and a
    // moment after a change rather than in the same frame: rewriting the
    // address costs the browser more than redrawing the panels.
    let pending = StoredValue::new(0u32);
    Effect::new(move |_| {
        risk.run.track();
        risk.player.playhead.track();
        // (An opening build hands run B over instead.)
        #[cfg(not(feature = "lite"))]
        {
            risk.compare.open.track();
            risk.compare.changes.track();
            risk.compare.fork.track();
        }
        risk.look.theme.track();
        shown.track();
        if risk.player.playing.get() {
            return;
        }
        let ticket = pending.get_value().wrapping_add(1);
        pending.set_value(ticket);
        set_timeout(
            move || {
                // (Gone if the lab was handed over to its whole build.)
                if pending.try_get_value() == Some(ticket) {
                    let mut state = risk.link_state();
                    state.at = state.at.filter(|t| t.ms() > 0);
                    dom::replace_query(LabKind::Risk, &to_query(&state));
                }
            },
            std::time::Duration::from_millis(120),
        );
    });
    provide_context(CurrentLab(LabKind::Risk, risk.look.theme));
}

// The risk page's opening build (feature `lite`) leaves out run B and its
// differences: its whole build, which the page loads when the reader first
// compares, takes its place.
#[cfg(feature = "lite")]
use super::lite as parts;

/// Run B and its differences (`super::lite` stands in for them in the
/// opening build).
#[cfg(not(feature = "lite"))]
mod parts {
    use leptos::prelude::*;

    use super::super::compare::{comparison, differences_while_open};
    use super::super::dom;
    use super::super::notices::show_handed;
    use super::super::timeline::Side;
    use super::{Risk, RiskTimeline};
    use crate::view::url::LabKind;

    /// Shows the notices the opening build had and asks the question it
    /// handed over, if any; the lab is drawn here.
    pub fn risk_started(risk: Risk, _query: &str, _asks_b: bool) -> bool {
        show_handed(LabKind::Risk, risk.notices);
        super::questions::ask_handed(risk, &dom::lab_handed(LabKind::Risk, "data-intent"));
        false
    }

    /// Run B's diagram, while comparing.
    pub fn risk_b(risk: Risk) -> impl IntoView {
        move || risk.compare.showing().then(|| view! { <RiskTimeline risk side=Side::B/> })
    }

    /// Run B's settings and the differences, while comparing; an embed,
    /// which has no settings, shows the differences alone.
    pub fn risk_comparison(risk: Risk) -> impl IntoView {
        if risk.embed {
            differences_while_open(risk.run, risk.compare).into_any()
        } else {
            comparison(risk.run, risk.compare).into_any()
        }
    }
}

/// Everything below the address: mountable on its own.
#[component]
pub fn RiskWorkbench(risk: Risk) -> impl IntoView {
    risk.look.show_on(Host::PAGE);
    let dialog = NodeRef::<html::Dialog>::new();
    keyboard::install(risk, dialog);
    let open_shortcuts = Callback::new(move |()| keyboard::open(dialog));
    let predicting = move || risk.answer_hidden();
    // The embed is the same page without its chrome: no masthead, settings,
    // questions or observability panels, and the playback controls and the
    // timeline first (risk.css orders them). One view serves both, so the
    // bundle carries the page's panels once.
    let embed = risk.embed;
    // Built only on the full page, so the embed runs none of their work.
    let chrome = move |make: &dyn Fn() -> AnyView| if embed { ().into_any() } else { make() };
    let full = move || {
        risk.player.playhead.track();
        risk.run.track();
        let mut state = risk.link_state();
        state.embed = false;
        share_url(&state)
    };
    let first_below = NodeRef::<html::Div>::new();
    let below = risk.below(first_below);
    view! {
        <div class="app risk" class:embed=embed class:predicting=predicting>
            {chrome(&|| {
                masthead(
                    "One timeout once created two risk reviews for one order. Replay it with a naive tool server, then turn the patterns on one by one and see which invariant each one protects.",
                    risk.look.theme,
                    toolbar(risk, open_shortcuts, compare_button(risk.compare, move || risk.toggle_compare())),
                )
                .into_any()
            })}
            <NoticeList notices=risk.notices/>
            <div class="workspace">
                {chrome(&|| {
                    view! {
                        <div class="area-controls">
                            <RiskControls risk/>
                        </div>
                    }
                        .into_any()
                })}
                <main class="stage">
                    <RiskFigures risk/>
                    <RiskTimeline risk/>
                    {parts::risk_b(risk)}
                    {playback(risk, fork_here(embed, move || risk.fork_here()))}
                    {parts::risk_comparison(risk)}
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
                        }
                            .into_any()
                    })}
                    <div class="text-panels">
                        <RiskEvents risk=below live=risk/>
                        <RiskMirror risk=below/>
                    </div>
                </main>
                {chrome(&|| {
                    view! {
                        <div class="area-experiments">
                            {questions(risk)}
                        </div>
                    }
                        .into_any()
                })}
            </div>
            {embed.then(|| embed_footer(full))}
            <LiveRegion announcer=risk.player.announcer/>
            <ShortcutsDialog dialog/>
        </div>
    }
}
