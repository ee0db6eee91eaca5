//! The risk page's toolbar is the shared one (`share::toolbar`); this says
//! what it exports (the command line's JSON and the timeline) and what an
//! imported file does.

use leptos::prelude::*;

use crate::sim::params_file::Imported;
use crate::sim::risk::Settings;
use crate::view::risk::diagram::diagram;
use crate::view::risk::run_to_json;
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
        let mut json = self.run.with_untracked(|r| run_to_json(r));
        // The same bytes as the command line's `--format json`.
        json.push('\n');
        json
    }

    fn diagram_svg(&self) -> String {
        self.run.with_untracked(|r| diagram(r).to_svg(Some(self.player.playhead.get_untracked())))
    }

    /// This page does not compare runs: an exported comparison brings
    /// run A's settings.
    fn import(&self, file: Imported<Settings>) -> bool {
        self.question.set(None);
        self.apply(file.settings)
    }
}
