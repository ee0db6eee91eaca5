//! The risk page's state in one place: the run on screen, the playhead,
//! the form's fields, notices, the live region, the question in progress
//! and the call being reconstructed. Nothing here decides model
//! behaviour: runs come from the core, and what the page shows is derived
//! from the run and the playhead by `view::risk`.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::risk::facts::CallId;
use crate::sim::risk::settings::{MODE, PRESET};
use crate::sim::risk::{Check, Mode, Pattern, Preset, Run, Settings, Snapshot};
use crate::sim::{Millis, ParamDef, Schema};
use crate::view::page::Page;
use crate::view::playback::playhead_within;
use crate::view::risk::RiskLab;
use crate::view::risk::broke::{Broke, broke};
use crate::view::risk::diagram::end_of;
use crate::view::risk::names;
use crate::view::risk::patterns;
use crate::view::risk::trace::interesting_call;
use crate::view::url::LabLink;

use super::super::chrome::Look;
use super::super::compare::Compare;
use super::super::form::{Form, run_or_opening};
use super::super::notices::Notices;
use super::super::playback::{Player, Replay};
use super::super::predict::{Asked, ask_on_replay, reveal, waiting};
use super::super::present::Presenter;
use super::super::replayed::LabPage;

/// Whether a memo's new value differs from its old one, for values that
/// are only ever rebuilt when their inputs change.
pub fn changed<T>(old: Option<&Arc<T>>, new: Option<&Arc<T>>) -> bool {
    match (old, new) {
        (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
        _ => true,
    }
}

#[derive(Clone, Copy)]
pub struct Risk {
    pub run: RwSignal<Arc<Run>>,
    /// The playhead, playback and the live region.
    pub player: Player,
    /// The settings form's fields.
    pub form: Form<Settings>,
    pub notices: Notices,
    /// The preset whose question is in progress.
    pub question: Asked<Preset>,
    /// The tool call being reconstructed.
    pub selected: RwSignal<Option<CallId>>,
    /// Every actor's state at the playhead (computed once for all panels).
    pub snapshot: Memo<Arc<Snapshot>>,
    /// The fourteen checks at the playhead.
    pub checks: Memo<Arc<Vec<Check>>>,
    /// Run B and the comparison, while open.
    pub compare: Compare<RiskLab>,
    pub embed: bool,
    pub look: Look,
    /// Presenter mode, checkpoints, the future hidden, the lesson.
    pub presenter: Presenter,
    /// What the last "Show me" showed: the switch, and what its run says.
    pub shown_me: RwSignal<Option<(Pattern, String)>>,
    /// The run's first second review, and what let it happen.
    pub broke: Memo<Option<Broke>>,
}

/// Every actor's state and the checks, at the playhead of `run`. Each is
/// recomputed only when the run or the playhead moves, so a new value is a
/// change: comparing by pointer spares the page a deep comparison (and its
/// code). A snapshot replays the run up to the playhead, so while `run` is
/// the run of `shared` (the page's own state), its snapshot is that one,
/// not computed twice.
fn at_playhead(
    run: RwSignal<Arc<Run>>,
    playhead: RwSignal<Millis>,
    shared: Option<Risk>,
) -> (Memo<Arc<Snapshot>>, Memo<Arc<Vec<Check>>>) {
    let snapshot = Memo::new_with_compare(
        move |_| {
            let t = playhead.get();
            run.with(|r| match shared {
                Some(page) if page.run.with_untracked(|o| Arc::ptr_eq(o, r)) => page.snapshot.get_untracked(),
                _ => Arc::new(r.snapshot_at(t)),
            })
        },
        changed,
    );
    let checks = Memo::new_with_compare(
        move |_| {
            let t = playhead.get();
            run.with(|r| Arc::new(r.checks_at(t)))
        },
        changed,
    );
    (snapshot, checks)
}

impl Risk {
    /// The state as the panels below the timeline see it. While none of
    /// them is in view (`first`, the first of them, starts below the
    /// window), a new run reaches them after the frame that draws it above,
    /// so a switch's frame does only the work the reader sees; any panel in
    /// view takes it in the same frame. The copy is for reading: what those
    /// panels change (the playhead, the chosen call) is shared with the
    /// rest of the page, and a panel that acts on the run (moves the
    /// playhead by an event, changes settings) is given the page's own
    /// state for that. The chosen call and a clamped playhead reach the
    /// copy at once, so for that one frame a panel out of view may show
    /// the old run at them.
    pub fn below(self, first: NodeRef<leptos::html::Div>) -> Risk {
        let run = RwSignal::new(self.run.get_untracked());
        let (snapshot, checks) = at_playhead(run, self.player.playhead, Some(self));
        Effect::new(move |_| {
            let new = self.run.get();
            if run.with_untracked(|old| Arc::ptr_eq(old, &new)) {
                return;
            }
            // Where the panels are is read in the frame, which lays the
            // page out anyway (the timeline reads its scroll position
            // there too).
            request_animation_frame(move || {
                // (Gone if the lab was handed over to its whole build.)
                let catch_up = move || {
                    let Some(new) = self.run.try_get_untracked() else { return };
                    if run.try_with_untracked(|old| !Arc::ptr_eq(old, &new)) == Some(true) {
                        run.set(new);
                    }
                };
                let hidden = first.try_get_untracked().flatten().is_some_and(|el| {
                    let shown = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
                    el.get_bounding_client_rect().top() >= shown
                });
                if hidden {
                    set_timeout(catch_up, std::time::Duration::ZERO);
                } else {
                    catch_up();
                }
            });
        });
        Risk { run, snapshot, checks, ..self }
    }

    /// The state for what a link said (`read` for the lab, `page` for the
    /// page: playhead, embed, theme, look), with notices for anything
    /// refused on the way.
    pub fn new(read: LabLink<Settings>, page: &Page) -> Risk {
        let LabLink { settings, b, mut notices, .. } = read;
        let (settings, run) = run_or_opening(settings, Run::simulate, &mut notices);
        let a_end = end_of(&run);
        let selected = RwSignal::new(interesting_call(&run));
        let run = RwSignal::new(Arc::new(run));
        let compare = Compare::new(run);
        if let Some(changes) = b {
            notices.extend(compare.open_checked(changes, page.fork));
        }
        // The playhead lives on the shared clock.
        let end = compare.b_untracked().map_or(a_end, |b| a_end.max(end_of(&b)));
        let (playhead, past_end) = playhead_within(page.at.unwrap_or(Millis::ZERO), end);
        notices.extend(past_end);
        let player = Player::new(playhead);
        let playhead = player.playhead;
        let form = Form::new(&settings);
        let (snapshot, checks) = at_playhead(run, playhead, None);
        let broke = Memo::new(move |_| run.with(|r| broke(r)));
        let look = Look::new(page);
        let presenter = Presenter::new(page, look, end, &mut notices);
        let risk = Risk {
            run,
            player,
            form,
            notices: Notices::new(),
            question: RwSignal::new(None),
            selected,
            snapshot,
            checks,
            compare,
            embed: page.embed,
            look,
            presenter,
            shown_me: RwSignal::new(None),
            broke,
        };
        for n in notices {
            risk.notices.notify(n);
        }
        risk.sync_inspection();
        risk
    }

    /// Replaces every setting at once (a preset's question, an import, the
    /// mode, a switch). Returns false, leaving everything as it was, if the
    /// run fails.
    pub fn apply(&self, settings: Settings) -> bool {
        self.form.apply(&settings, Run::simulate(&settings), self.notices, |run| self.install(run))
    }

    /// One control changed. A refused value shows its message beside the
    /// control and leaves the last valid run on screen.
    pub fn edit(&self, param: &'static ParamDef, text: String) {
        self.form.edit_run(param, text, &self.settings(), Run::simulate, |run| {
            // A preset or mode sets the switches' meaning: show them anew.
            self.form.show_others(run.settings(), param);
            self.install(run);
        });
    }

    /// All patterns on (patterns) or all off (naive): every switch follows
    /// the mode again.
    pub fn set_mode(&self, mode: Mode) {
        let mut settings = self.settings();
        let value = match mode {
            Mode::Naive => 0,
            Mode::Patterns => 1,
        };
        let mut pairs: Vec<(&'static ParamDef, u64)> = vec![(&MODE, value)];
        pairs.extend(Pattern::ALL.iter().map(|p| (p.param(), 0)));
        for (param, value) in pairs {
            match settings.with(param, value) {
                Ok(s) => settings = s,
                Err(e) => {
                    self.notices.notify(e.human_message(param.label));
                    return;
                }
            }
        }
        self.apply(settings);
    }

    /// One pattern switched on or off. A switch that agrees with the mode
    /// goes back to following it, so links stay short.
    pub fn set_switch(&self, pattern: Pattern, on: bool) {
        let settings = self.settings();
        let follows = (settings.mode == Mode::Patterns) == on;
        let value = if follows {
            0
        } else if on {
            1
        } else {
            2
        };
        match settings.with(pattern.param(), value) {
            Ok(s) => {
                self.apply(s);
            }
            Err(e) => self.notices.notify(e.human_message(pattern.param().label)),
        }
    }

    fn install(&self, run: Run) {
        let end = end_of(&run);
        let keep = self.selected.get_untracked().filter(|c| {
            run.records().iter().any(|r| matches!(r.what, crate::sim::risk::What::ToolCall { call, .. } if call == *c))
        });
        if keep.is_none() {
            self.selected.set(interesting_call(&run));
        }
        // A playhead at the end stays at the end of the new run.
        let at_end = self.player.playhead.get_untracked() >= self.end();
        self.run.set(Arc::new(run));
        // Elsewhere, keep the playhead's model time, clamped to the new end
        // (of both runs while comparing).
        let end = end.max(self.compare.b_untracked().map_or(Millis::ZERO, |b| end_of(&b)));
        if at_end || self.player.playhead.get_untracked() > end {
            self.player.playhead.set(end);
        }
        self.sync_inspection();
    }

    /// "Show me" for `pattern`: the run in which it alone keeps the check
    /// it protects holding, and what that run and the same run with the
    /// switch off say of that check.
    pub fn show_me(&self, pattern: Pattern) {
        let Ok(on) = Settings::from_pairs(patterns::show_me(pattern)) else { return };
        let Ok(off) = on.with(pattern.param(), 2) else { return };
        let (Ok(run_on), Ok(run_off)) = (Run::simulate(&on), Run::simulate(&off)) else { return };
        let both = patterns::row(pattern)
            .absorbed
            .and_then(|a| off.with(a.by.param(), 2).ok())
            .and_then(|s| Run::simulate(&s).ok());
        self.question.set(None);
        if self.apply(on) {
            let words = patterns::show_me_words(pattern, &run_on, &run_off, both.as_ref());
            self.player.say(words.clone());
            self.shown_me.set(Some((pattern, words)));
        }
    }

    /// "Turn it off": the run on screen with `pattern` off, and what the
    /// check it protects says of it now.
    pub fn turn_off(&self, pattern: Pattern) {
        let Ok(off) = self.settings().with(pattern.param(), 2) else { return };
        self.question.set(None);
        if self.apply(off) {
            let words = self.run.with_untracked(|run| patterns::turned_off_words(pattern, run));
            self.player.say(words.clone());
            self.shown_me.set(Some((pattern, words)));
        }
    }

    /// Starts a preset's question: its preset in the current mode, the
    /// playhead at 0, and the answer hidden until the reader predicts.
    /// A question is about one run: it closes the comparison, whose
    /// differences would give the answer away.
    pub fn start_question(&self, preset: Preset) {
        self.compare.close();
        ask_on_replay(*self, self.question, preset, || {
            self.settings().set(&PRESET, preset).is_ok_and(|settings| self.apply(settings))
        });
    }

    /// The reader predicts (or asks to be shown): the run plays to its end.
    pub fn predict(&self, prediction: String) {
        reveal(*self, self.question, prediction);
    }

    /// True while a question waits for a prediction: the answer is hidden.
    /// (The opening build asks none: its whole build does.)
    pub fn answer_hidden(&self) -> bool {
        waiting(self.question).is_some()
    }

    /// Opens the comparison (or closes it).
    pub fn toggle_compare(&self) {
        self.compare.toggle();
    }

    /// Opens the comparison forked at the playhead.
    pub fn fork_here(&self) {
        self.player.playing.set(false);
        let at = self.player.playhead.get_untracked();
        self.compare.open_with(None, Some(at));
        self.player.say(format!("Forked at {}: choose the setting run B changes.", names::when(at)));
    }
}

impl LabPage for Risk {
    type Lab = RiskLab;
    const FILES: &'static str = "idempotency-lab-risk";
    const EMBED: &'static str = "Idempotency Lab: the risk-review incident";

    fn run(&self) -> RwSignal<Arc<Run>> {
        self.run
    }
    fn player(&self) -> Player {
        self.player
    }
    fn compare(&self) -> Compare<RiskLab> {
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
        Risk::apply(self, settings)
    }
    fn forget_question(&self) {
        self.question.set(None);
    }
    fn answer_hidden(&self) -> bool {
        Risk::answer_hidden(self)
    }
}
