//! The first lab's toolbar: the shared one (`share::toolbar`) with what
//! this lab exports (a comparison exports both runs and their
//! differences), and its own two buttons, Compare with… and Present.

use leptos::prelude::*;

use crate::sim::ack::Settings;
use crate::sim::params_file::Imported;
use crate::ui::dom;
use crate::view::ack::diagram::diagram_in;
use crate::view::ack::report::compare_to_json;
use crate::view::ack::run_to_json;
use crate::view::timeline::Frame;
use crate::view::url::LinkState;

use super::super::compare::compare_button;
use super::super::notices::Notices;
use super::super::share::{Share, toolbar};
use super::state::Ack;

impl Share for Ack {
    type Settings = Settings;
    const FILES: &'static str = "idempotency-lab";
    const EMBED: (&'static str, u32) = ("Idempotency Lab: retries and lost acknowledgements", 500);

    fn notices(&self) -> Notices {
        self.notices
    }

    fn link(&self) -> LinkState {
        self.link_state()
    }

    fn run_json(&self) -> String {
        let c = self.compare;
        match c.pair_untracked() {
            Some((b, diff)) => self.run.with_untracked(|a| compare_to_json(a, &b, &diff, c.fork.get_untracked())),
            None => self.run.with_untracked(|r| run_to_json(r)),
        }
    }

    fn diagram_svg(&self) -> String {
        // The layout on screen, at its natural size.
        let frame = Frame::export(self.look.layout.get_untracked().downward(dom::viewport_width()));
        self.run.with_untracked(|r| diagram_in(r, frame).to_svg(Some(self.player.playhead.get_untracked())))
    }

    fn trace_otlp(&self) -> String {
        self.run.with_untracked(|r| crate::view::ack::otlp::run_to_otlp(r))
    }

    /// An exported comparison opens run B again, with the settings it
    /// changed and the moment it was forked at.
    fn import(&self, file: Imported<Settings>) -> bool {
        self.experiment.set(None);
        if !self.apply(file.settings) {
            return false;
        }
        if let Some(b) = file.b {
            self.open_b_as(&b, file.fork);
        }
        true
    }
}

/// The shared toolbar with this lab's Compare with… and Present.
pub fn lab_toolbar(ack: Ack, on_shortcuts: Callback<()>) -> impl IntoView {
    let extra = view! {
        {compare_button(ack.compare, move || ack.toggle_compare())}
        <button type="button" on:click=move |_| ack.presenter.present.set(true)>
            "Present"
        </button>
    };
    toolbar(ack, on_shortcuts, extra)
}
