//! What every lab's page that replays a run shares, written once: its
//! playback ([`Replay`]: the shared clock of run A and run B, stepping,
//! what the live region says), its sharing and files ([`Share`]: the link,
//! the run's JSON, the diagram's SVG, an imported file) and its link. A
//! page plugs in through [`LabPage`]: where its state is; what its lab
//! replays comes from the lab's `view::lab::Replayed`.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::Millis;
use crate::sim::params_file::Imported;
use crate::view::lab::{LabModel, Replayed};
use crate::view::page::Page;
use crate::view::playback::moment_words;
use crate::view::timeline::Frame;
use crate::view::url::LinkState;

use super::chrome::Look;
use super::compare::Compare;
use super::dom;
use super::notices::Notices;
use super::playback::{Player, Replay};
use super::present::Presenter;
use super::share::Share;

/// Settings of a page's lab.
pub type SettingsOf<P> = <<P as LabPage>::Lab as LabModel>::Settings;
/// A run of a page's lab.
pub type RunOf<P> = <<P as LabPage>::Lab as LabModel>::Run;

/// A lab's page that replays its run, as the shared parts see it.
pub trait LabPage: Copy + Send + Sync + 'static {
    type Lab: Replayed;
    /// Exported files are called `{FILES}-run.json` and `{FILES}-timeline.svg`.
    const FILES: &'static str;
    /// The embed snippet's title and height (pixels).
    const EMBED: (&'static str, u32);

    /// The run on screen (run A).
    fn run(&self) -> RwSignal<Arc<RunOf<Self>>>;
    fn player(&self) -> Player;
    fn compare(&self) -> Compare<Self::Lab>;
    fn notices(&self) -> Notices;
    fn look(&self) -> Look;
    fn presenter(&self) -> Presenter;
    /// Whether the page is the compact embed.
    fn embed(&self) -> bool;
    /// Replaces every setting at once; false, leaving everything as it
    /// was, if the run fails (a notice says why).
    fn apply(&self, settings: SettingsOf<Self>) -> bool;
    /// Another run was chosen (a file imported): the question in progress
    /// goes.
    fn forget_question(&self);

    /// The settings of the run on screen (a run carries the settings it
    /// was made from, so there is no second copy to keep in step).
    fn settings(&self) -> SettingsOf<Self> {
        self.run().with_untracked(|r| Self::Lab::settings(r).clone())
    }

    /// The link to this run and moment.
    fn link_state(&self) -> LinkState {
        let compare = self.compare();
        let mut page = Page {
            at: Some(self.player().playhead.get_untracked()),
            embed: self.embed(),
            fork: compare.fork.get_untracked(),
            ..Page::default()
        };
        self.look().keep_in(&mut page);
        self.presenter().keep_in(&mut page);
        LinkState::of(Self::Lab::LAB, &self.settings(), compare.link().as_deref(), page)
    }

    /// Opens the comparison with run B's settings `b` (from a file): every
    /// setting where B differs from this run is B's change. If B cannot be
    /// run so, a notice says why and the comparison stays closed.
    fn open_b_as(&self, b: &SettingsOf<Self>, fork: Option<Millis>) {
        for message in self.compare().open_as(&self.settings(), b, fork) {
            self.notices().notify(message);
        }
        self.sync_inspection();
    }
}

/// The run on screen and run B (while it is shown), each with `f`.
fn both<P: LabPage, T>(page: &P, f: impl Fn(&RunOf<P>) -> T) -> (T, Option<T>) {
    let a = page.run().with_untracked(|r| f(r));
    (a, page.compare().b_untracked().map(|b| f(&b)))
}

impl<P: LabPage> Replay for P {
    fn player(&self) -> Player {
        LabPage::player(self)
    }

    fn presenter(&self) -> Option<Presenter> {
        Some(LabPage::presenter(self))
    }

    /// The end of the shared clock: run A's end, or the later of A's and
    /// B's while comparing.
    fn end(&self) -> Millis {
        let (a, b) = both(self, P::Lab::end);
        b.map_or(a, |b| a.max(b))
    }

    fn end_tracked(&self) -> Millis {
        let a = self.run().with(|r| P::Lab::end(r));
        self.compare().run_b().map_or(a, |b| a.max(P::Lab::end(&b)))
    }

    /// The next event time after `t` in either run on screen.
    fn next_event_time(&self, t: Millis) -> Option<Millis> {
        let (a, b) = both(self, |r| P::Lab::next_event_time(r, t));
        a.into_iter().chain(b.flatten()).min()
    }

    fn previous_event_time(&self, t: Millis) -> Option<Millis> {
        let (a, b) = both(self, |r| P::Lab::previous_event_time(r, t));
        a.into_iter().chain(b.flatten()).max()
    }

    /// What happens at `t`, in each run on screen.
    fn announce_at(&self, t: Millis) {
        let (a, b) = both(self, |r| P::Lab::said_at(r, t));
        LabPage::player(self).say(moment_words(&P::Lab::when(t), a, b, P::Lab::quiet_at(t)));
    }

    fn wall_clock(t: Millis) -> Option<String> {
        P::Lab::wall_clock(t)
    }
}

impl<P: LabPage> Share for P {
    type Settings = SettingsOf<P>;
    const FILES: &'static str = P::FILES;
    const EMBED: (&'static str, u32) = P::EMBED;

    fn notices(&self) -> Notices {
        LabPage::notices(self)
    }

    fn link(&self) -> LinkState {
        self.link_state()
    }

    /// The command line's document for the run on screen, or, while run B
    /// is open, both runs and their differences.
    fn run_json(&self) -> String {
        let compare = self.compare();
        match compare.pair_untracked() {
            Some((b, diff)) => {
                self.run().with_untracked(|a| P::Lab::comparison_document(a, &b, &diff, compare.fork.get_untracked()))
            }
            None => self.run().with_untracked(|r| P::Lab::document(r)),
        }
    }

    /// The layout on screen, at its natural size.
    fn diagram_svg(&self) -> String {
        let frame = Frame::export(self.look().layout.get_untracked().downward(dom::viewport_width()));
        let at = LabPage::player(self).playhead.get_untracked();
        self.run().with_untracked(|r| P::Lab::diagram_svg(r, frame, at))
    }

    /// The run on screen as an OpenTelemetry trace (OTLP/JSON).
    fn trace_otlp(&self) -> String {
        self.run().with_untracked(|r| P::Lab::otlp(r).unwrap_or_default())
    }

    /// An exported comparison opens run B again, with the settings it
    /// changed and the moment it was forked at.
    fn import(&self, file: Imported<SettingsOf<P>>) -> bool {
        self.forget_question();
        if !self.apply(file.settings) {
            return false;
        }
        if let Some(b) = file.b {
            self.open_b_as(&b, file.fork);
        }
        true
    }
}
