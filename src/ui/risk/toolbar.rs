//! The risk page's toolbar is the shared one (`share::toolbar`); this says
//! what it exports (the command line's JSON and the timeline, or with run
//! B open both runs and their differences) and what an imported file does.

use leptos::prelude::*;

use crate::sim::params_file::Imported;
use crate::sim::risk::Settings;
use crate::ui::dom;
use crate::view::risk::diagram::diagram_in;
use crate::view::risk::report::compare_to_json;
use crate::view::risk::run_to_json;
use crate::view::timeline::Frame;
use crate::view::url::LinkState;

use super::super::notices::Notices;
use super::super::share::Share;
use super::state::Risk;

impl Share for Risk {
    type Settings = Settings;
    const FILES: &'static str = "idempotency-lab-risk";
    const EMBED: (&'static str, u32) = ("Idempotency Lab: the risk-review incident", 900);

    fn notices(&self) -> Notices {
        self.notices
    }

    fn link(&self) -> LinkState {
        self.link_state()
    }

    fn run_json(&self) -> String {
        let c = self.compare;
        let mut json = match c.pair_untracked() {
            Some((b, diff)) => self.run.with_untracked(|a| compare_to_json(a, &b, &diff, c.fork.get_untracked())),
            None => self.run.with_untracked(|r| run_to_json(r)),
        };
        // The same bytes as the command line's `--format json`.
        json.push('\n');
        json
    }

    fn trace_otlp(&self) -> String {
        self.run.with_untracked(|r| crate::view::risk::otlp::run_to_otlp(r))
    }

    fn diagram_svg(&self) -> String {
        // The layout on screen, at its natural size.
        let frame = Frame::export(self.look.layout.get_untracked().downward(dom::viewport_width()));
        self.run.with_untracked(|r| diagram_in(r, frame).to_svg(Some(self.player.playhead.get_untracked())))
    }

    /// An exported comparison opens run B again, with the settings it
    /// changed and the moment it was forked at.
    fn import(&self, file: Imported<Settings>) -> bool {
        self.question.set(None);
        if !self.apply(file.settings) {
            return false;
        }
        if let Some(b) = file.b {
            self.open_b_as(&b, file.fork);
        }
        true
    }
}
