//! Compare and fork: run B beside run A on one clock, the panel that says
//! what B changes, and the "Differences" region. Run B is run A with some
//! settings changed; it follows A when A's settings change.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::ack::compare::Comparison;
use crate::sim::ack::settings::PARAMS;
use crate::sim::ack::{Run, Settings};
use crate::sim::{Millis, ParamDef, Schema};
use crate::view::ack::compare::{differences, what_b_changes};

use super::form::{FieldControl, FieldState};
use super::state::Lab;
use super::text_panels::diff_list;

/// Run B's settings: run A's with `changes` applied in order. A change a
/// cross-field check refuses is reported by the setting it conflicts with.
pub fn b_settings(a: &Settings, changes: &[(&'static ParamDef, u64)]) -> Result<Settings, String> {
    changes.iter().try_fold(a.clone(), |s, &(param, value)| {
        s.with(param, value).map_err(|e| format!("Run B cannot use this change: {}", e.human_message(e.param.label)))
    })
}

/// The comparison's state. Closed, it costs nothing: run B is simulated
/// only while someone looks at it.
#[derive(Clone, Copy)]
pub struct Compare {
    pub open: RwSignal<bool>,
    /// What B changes from A, at most one entry per parameter.
    pub changes: RwSignal<Vec<(&'static ParamDef, u64)>>,
    /// The model time B was forked at, if it was.
    pub fork: RwSignal<Option<Millis>>,
    /// The setting the panel's control edits.
    pub chosen: RwSignal<&'static ParamDef>,
    /// The panel control's text and message.
    pub field: FieldState,
    /// Run B, or why it cannot be run.
    b: Memo<Result<Arc<Run>, String>>,
    /// A against B, while B runs.
    diff: Memo<Option<Arc<Comparison>>>,
}

impl Compare {
    pub fn new(a: RwSignal<Arc<Run>>) -> Compare {
        let changes = RwSignal::new(Vec::new());
        #[cfg(not(feature = "lite"))]
        let (b, diff) = {
            let b = Memo::new(move |_| {
                let settings = a.with(|a| changes.with(|c| b_settings(a.settings(), c)))?;
                Run::simulate(&settings)
                    .map(Arc::new)
                    .map_err(|e| format!("Run B could not be simulated: {e}. Run A stays on screen."))
            });
            let diff = Memo::new(move |_| {
                let b = b.get().ok()?;
                Some(Arc::new(a.with(|a| Comparison::of(a, &b))))
            });
            (b, diff)
        };
        #[cfg(feature = "lite")]
        let (b, diff) = {
            let _ = a;
            (Memo::new(|_| Err(String::new())), Memo::new(|_| None))
        };
        Compare {
            open: RwSignal::new(false),
            changes,
            fork: RwSignal::new(None),
            chosen: RwSignal::new(&crate::sim::ack::settings::DEDUP),
            field: FieldState::new(String::new()),
            b,
            diff,
        }
    }

    // The opening page's build never shows run B (the whole lab does), so
    // there these say so at once, and what draws run B is left out.

    /// Whether run B is on screen (the comparison is open and B runs).
    pub fn showing(&self) -> bool {
        !cfg!(feature = "lite") && self.open.get() && self.b.with(|b| b.is_ok())
    }

    /// Run B while it is on screen.
    pub fn run_b(&self) -> Option<Arc<Run>> {
        if cfg!(feature = "lite") || !self.open.get() { None } else { self.b.get().ok() }
    }

    /// Run B when it is on screen (untracked).
    pub fn b_untracked(&self) -> Option<Arc<Run>> {
        untrack(|| self.run_b())
    }

    /// Why run B cannot be run, if it cannot (untracked).
    pub fn b_error(&self) -> Option<String> {
        if cfg!(feature = "lite") { None } else { self.b.get_untracked().err() }
    }

    /// A against B while run B is on screen.
    pub fn diff(&self) -> Option<Arc<Comparison>> {
        if cfg!(feature = "lite") || !self.open.get() { None } else { self.diff.get() }
    }

    /// Opens the comparison with `changes` (from a link or a file), or
    /// keeps what it had when `changes` is `None`.
    pub fn open_with(&self, changes: Option<Vec<(&'static ParamDef, u64)>>, fork: Option<Millis>) {
        if let Some(changes) = changes {
            if let Some(&(first, _)) = changes.first() {
                self.chosen.set(first);
            }
            self.changes.set(changes);
        }
        self.fork.set(fork);
        self.open.set(true);
    }

    /// B's value of `param` given A's settings.
    fn b_value(&self, a: &Settings, param: &'static ParamDef) -> u64 {
        self.changes
            .with_untracked(|c| c.iter().find(|(p, _)| p.name == param.name).map(|&(_, v)| v))
            .unwrap_or_else(|| a.get(param))
    }

    /// Shows `param`'s value for B in the panel's control.
    pub fn choose(&self, a: &Settings, param: &'static ParamDef) {
        self.chosen.set(param);
        self.field.show(param, self.b_value(a, param));
    }

    /// The panel's control changed: B takes `text` for the chosen setting
    /// (a value equal to A's removes the change).
    pub fn edit(&self, a: &Settings, text: String) {
        let param = self.chosen.get_untracked();
        let Some(value) = self.field.read(param, text) else { return };
        let mut next = self.changes.get_untracked();
        next.retain(|(p, _)| p.name != param.name);
        if value != a.get(param) {
            next.push((param, value));
        }
        // Refuse a combination that cannot run, keeping the last good B.
        match b_settings(a, &next).and_then(|s| Run::simulate(&s).map(|_| ()).map_err(|e| e.to_string())) {
            Ok(()) => {
                self.field.error.set(None);
                self.changes.set(next);
            }
            Err(message) => self.field.error.set(Some(message)),
        }
    }

    pub fn close(&self) {
        self.open.set(false);
        self.fork.set(None);
    }
}

/// The panel that says what run B is and changes one of its settings.
/// "Fork here", among the playback buttons (not in an embed): compare
/// with a run B from the playhead on.
pub fn fork_here(lab: Lab) -> impl IntoView {
    (!lab.embed).then(|| {
        view! {
            <button
                type="button"
                title="Compare with a run B that changes one setting, checked from the playhead back"
                on:click=move |_| lab.fork_here()
            >
                "Fork here"
            </button>
        }
    })
}

#[component]
pub fn ComparePanel(lab: Lab) -> impl IntoView {
    let c = lab.compare;
    let a_settings = move || lab.run.with(|r| r.settings().clone());
    // Show B's value of the chosen setting whenever the panel opens.
    Effect::new(move |_| {
        if c.open.get() {
            let a = lab.run.with_untracked(|r| r.settings().clone());
            c.choose(&a, c.chosen.get_untracked());
        }
    });
    let summary = move || {
        let a = lab.run.get();
        match c.b.get() {
            Ok(b) => format!("Run B is run A with {}.", what_b_changes(&a, &b)),
            Err(message) => message,
        }
    };
    let fork_note = move || {
        c.fork.get().map(|at| {
            view! {
                <p class="fork-note">
                    {format!("Forked at {at}: run B changes one setting and is compared with run A from the start.")}
                </p>
            }
        })
    };
    let on_edit = Callback::new(move |text: String| c.edit(&a_settings(), text));
    // The panel appears when the comparison opens: the focus goes to its
    // first control.
    let select = NodeRef::<leptos::html::Select>::new();
    request_animation_frame(move || {
        if let Some(el) = select.get_untracked() {
            let _ = el.focus();
        }
    });
    let control = move || {
        let param = c.chosen.get();
        view! { <FieldControl param state=c.field on_edit prefix="b-"/> }
    };
    view! {
        <section class="panel compare-setup" id="compare-panel" aria-labelledby="compare-h">
            <h2 id="compare-h">"Run B"</h2>
            <p class="compare-summary" role="status">{summary}</p>
            {fork_note}
            <div class="fields">
                <div class="field">
                    <label for="b-setting">"Setting to change in run B"</label>
                    <select
                        id="b-setting"
                        node_ref=select
                        on:change:target=move |ev| {
                            let name = ev.target().value();
                            if let Some(param) = PARAMS.iter().copied().find(|p| p.name == name) {
                                c.choose(&a_settings(), param);
                            }
                        }
                    >
                        {PARAMS
                            .iter()
                            .copied()
                            .map(|p| {
                                view! {
                                    <option value=p.name prop:selected=move || c.chosen.get().name == p.name>
                                        {p.label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                {control}
            </div>
            <button type="button" class="close-compare" on:click=move |_| c.close()>
                "Close comparison"
            </button>
        </section>
    }
}

/// The "Differences" region: counters, outcomes, the first divergence,
/// the ledger entries one run has and the other not, and the fork check.
#[component]
pub fn Differences(lab: Lab) -> impl IntoView {
    let c = lab.compare;
    let lines = move || {
        let diff = c.diff.get()?;
        let b = c.b.get().ok()?;
        let a = lab.run.get();
        Some(differences(&a, &b, &diff, c.fork.get()))
    };
    view! {
        <section class="panel differences" aria-labelledby="differences-h">
            <h2 id="differences-h">"Differences"</h2>
            {move || match lines() {
                Some(lines) => diff_list(lines.into_iter().map(|l| (l.label.to_owned(), l.text))).into_any(),
                None => view! { <p>"Run B is not running; see the message above."</p> }.into_any(),
            }}
        </section>
    }
}
