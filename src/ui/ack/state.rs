//! The app's state in one place. Components read signals and call these
//! methods; nothing here computes model behaviour: runs come from the core,
//! everything shown is derived from the current run and the playhead.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::ack::{Run, Settings};
use crate::sim::params_file::parse_settings_json;
use crate::sim::{Millis, ParamDef, Schema};
use crate::view::ack::AckLab;
use crate::view::ack::experiments::EXPERIMENTS;
use crate::view::page::Page;
use crate::view::playback::playhead_within;
use crate::view::url::LabLink;

use super::super::chrome::Look;
use super::super::compare::Compare;
use super::super::dom;
use super::super::element::Host;
use super::super::form::{Form, run_or_opening};
use super::super::notices::Notices;
use super::super::playback::{Player, Replay};
use super::super::predict::{Asked, ask_on_replay, reveal, waiting};
use super::super::present::Presenter;
use super::super::replayed::LabPage;

use crate::view::ack::opening::SAVED_SETTINGS_KEY as STORAGE_KEY;

/// The lost-acknowledgement lab's state.
#[derive(Clone, Copy)]
pub struct Ack {
    pub run: RwSignal<Arc<Run>>,
    /// The playhead, playback and the live region.
    pub player: Player,
    /// The settings form's fields.
    pub form: Form<Settings>,
    pub notices: Notices,
    /// The guided experiment in progress (its index in `EXPERIMENTS`).
    pub experiment: Asked<usize>,
    pub embed: bool,
    pub look: Look,
    /// Run B beside this run, when comparing.
    pub compare: Compare<AckLab>,
    /// Presenter mode, checkpoints, the future hidden, the lesson.
    pub presenter: Presenter,
    /// "Break it three ways" is open.
    pub three_ways: RwSignal<bool>,
    /// Whether this app remembers its settings for the next visit (the full
    /// page does; embeds and custom elements do not).
    remember: bool,
}

impl Ack {
    /// Builds the state from what a link said (`read` for the lab, `page`
    /// for the page), with notices for anything refused along the way.
    /// Only a bare address (`is_link` false) in the full page uses the
    /// settings remembered from last time: a link names its run exactly,
    /// and an embedded widget shows what its host chose.
    pub fn new(read: LabLink<Settings>, page: Page) -> Ack {
        let LabLink { mut settings, b, mut notices, is_link } = read;
        let remember = !page.embed && !Host::current().is_element();
        let mut saved_settings = None;
        if !is_link
            && remember
            && let Some(saved) = dom::storage_get(STORAGE_KEY)
        {
            match parse_settings_json::<Settings>(&saved) {
                Ok(s) => {
                    saved_settings = Some(s.clone());
                    settings = s;
                }
                Err(e) => {
                    notices
                        .push(format!("Your saved settings could not be used ({e}); the opening settings are shown."));
                    // Said once: the next visit starts clean.
                    dom::storage_remove(STORAGE_KEY);
                }
            }
        }
        let (settings, run) = run_or_opening(settings, Run::simulate, &mut notices);
        if saved_settings.is_some_and(|saved| saved != settings) {
            // Saved settings that could not be run were said so too.
            dom::storage_remove(STORAGE_KEY);
        }
        let form = Form::new(&settings);
        let run = RwSignal::new(Arc::new(run));
        let compare: Compare<AckLab> = Compare::new(run);
        if let Some(changes) = b {
            notices.extend(compare.open_checked(changes, page.fork));
        }
        // The playhead and the checkpoints live on the shared clock.
        let a_end = run.with_untracked(|r| r.end());
        let end = compare.b_untracked().map_or(a_end, |b| a_end.max(b.end()));
        let (playhead, past_end) = playhead_within(page.at.unwrap_or(Millis::ZERO), end);
        notices.extend(past_end);
        let look = Look::new(&page);
        let presenter = Presenter::new(&page, look, end, &mut notices);
        let ack = Ack {
            run,
            player: Player::new(playhead),
            form,
            notices: Notices::new(),
            experiment: RwSignal::new(None),
            embed: page.embed,
            look,
            compare,
            presenter,
            three_ways: RwSignal::new(false),
            remember,
        };
        for n in notices {
            ack.notices.notify(n);
        }
        ack.sync_inspection();
        ack
    }

    /// Replaces every setting at once (an experiment, an import, a reset).
    /// Returns false, leaving everything as it was, if the run fails.
    pub fn apply(&self, settings: Settings) -> bool {
        self.form.apply(&settings, Run::simulate(&settings), self.notices, |run| self.install(run))
    }

    /// One control changed. A refused value shows its message beside the
    /// control and leaves the last valid run on screen.
    pub fn edit(&self, param: &'static ParamDef, text: String) {
        self.form.edit_run(param, text, &self.settings(), Run::simulate, |run| self.install(run));
    }

    fn install(&self, run: Run) {
        // A playhead at the end stays at the end: the reader was looking
        // at how the run ended, and the new run ends elsewhere.
        let at_end = self.player.playhead.get_untracked() >= self.end();
        // An embedded widget leaves the full page's memory alone.
        if self.remember {
            dom::storage_set(STORAGE_KEY, &run.settings().to_json().pretty());
        }
        self.run.set(Arc::new(run));
        // Elsewhere, keep the playhead's model time, clamped to the new end
        // (of the shared clock, when comparing).
        let end = self.end();
        if at_end || self.player.playhead.get_untracked() > end {
            self.player.playhead.set(end);
        }
        self.sync_inspection();
    }

    /// Starts a guided experiment: its settings, the playhead at 0, and the
    /// answer hidden until the reader predicts.
    pub fn start_experiment(&self, index: usize) {
        let Some(e) = EXPERIMENTS.get(index) else {
            return;
        };
        // An experiment is about one run: the comparison's differences
        // would give the answer away.
        self.compare.close();
        ask_on_replay(*self, self.experiment, index, || self.apply(e.settings()));
    }

    /// The reader predicts (or asks to be shown): the run plays out to its end.
    pub fn predict(&self, prediction: String) {
        reveal(*self, self.experiment, prediction);
    }

    /// True while an experiment waits for a prediction: the answer is hidden.
    pub fn answer_hidden(&self) -> bool {
        waiting(self.experiment).is_some()
    }

    /// Opens the comparison forked at the playhead.
    pub fn fork_here(&self) {
        self.player.playing.set(false);
        let at = self.player.playhead.get_untracked();
        self.compare.open_with(None, Some(at));
        self.player.say(format!("Forked at {at}: choose the setting run B changes."));
    }

    /// Opens or closes the comparison.
    pub fn toggle_compare(&self) {
        self.compare.toggle();
        self.sync_inspection();
    }

    /// The question a new checkpoint suggests: the current experiment's.
    pub fn suggested_question(&self) -> String {
        self.experiment
            .with(|e| e.as_ref().and_then(|e| EXPERIMENTS.get(e.which)).map(|e| e.question.text().to_owned()))
            .unwrap_or_else(|| crate::view::page::DEFAULT_QUESTION.to_owned())
    }
}

impl LabPage for Ack {
    type Lab = AckLab;
    const FILES: &'static str = "idempotency-lab";
    const EMBED: &'static str = "Idempotency Lab: retries and lost acknowledgements";

    fn run(&self) -> RwSignal<Arc<Run>> {
        self.run
    }
    fn player(&self) -> Player {
        self.player
    }
    fn compare(&self) -> Compare<AckLab> {
        self.compare
    }
    fn notices(&self) -> Notices {
        self.notices
    }
    fn look(&self) -> Look {
        self.look
    }
    fn presenter(&self) -> Presenter {
        self.presenter
    }
    fn embed(&self) -> bool {
        self.embed
    }
    fn apply(&self, settings: Settings) -> bool {
        Ack::apply(self, settings)
    }
    fn forget_question(&self) {
        self.experiment.set(None);
    }

    fn answer_hidden(&self) -> bool {
        Ack::answer_hidden(self)
    }
}
