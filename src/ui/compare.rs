//! Compare and fork, for every lab whose runs are computed on the page:
//! run B beside run A on one clock, the panel that says what B changes,
//! and the "Differences" region. Run B is run A with some settings
//! changed; it follows A when A's settings change. A lab plugs in by
//! saying, through `view::lab::LabModel`, how its runs are made and compared.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::{Millis, ParamDef, Schema};
use crate::view::compare::what_b_changes;
use crate::view::lab::LabModel;

use super::form::{FieldControl, FieldState};
use super::text_panels::diff_list;

/// Which run a diagram draws: the run on screen (A), or run B of a
/// comparison. Run B's diagram is the same component drawn a second time,
/// so its element ids are scoped here: every id a diagram makes goes
/// through [`Side::id`], and run A's stay plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

impl Side {
    /// A timeline's heading: run A's says so while run B is shown.
    pub(crate) fn heading(self, comparing: bool) -> &'static str {
        match self {
            Side::A if comparing => "Run A: timeline",
            Side::A => "Timeline",
            Side::B => "Run B: timeline",
        }
    }

    /// The accessible name of a timeline's scrolling diagram.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Side::A => "Timeline diagram, scrolls sideways",
            Side::B => "Run B's timeline diagram, scrolls sideways",
        }
    }

    /// Element ids within one page or element: A keeps the plain ones.
    pub(crate) fn id(self, name: &str) -> String {
        match self {
            Side::A => name.to_owned(),
            Side::B => format!("{name}-b"),
        }
    }
}

/// Run B's settings: run A's with `changes` applied in order. A change a
/// cross-field check refuses is reported by the setting it conflicts with.
pub fn b_settings<S: Schema>(a: &S, changes: &[(&'static ParamDef, u64)]) -> Result<S, String> {
    changes.iter().try_fold(a.clone(), |s, &(param, value)| {
        s.with(param, value).map_err(|e| format!("Run B cannot use this change: {}", e.human_message(e.param.label)))
    })
}

/// Whether run B changed: memos here are rebuilt only when their inputs
/// change, so comparing by pointer spares a deep comparison.
fn changed<T>(old: Option<&Result<Arc<T>, String>>, new: Option<&Result<Arc<T>, String>>) -> bool {
    match (old, new) {
        (Some(Ok(x)), Some(Ok(y))) => !Arc::ptr_eq(x, y),
        (Some(Err(x)), Some(Err(y))) => x != y,
        _ => true,
    }
}

/// Run B and A against B.
pub type Pair<L> = (Arc<<L as LabModel>::Run>, Arc<<L as LabModel>::Diff>);

/// The comparison's state. Closed, it costs nothing: run B is simulated
/// only while someone looks at it.
pub struct Compare<L: LabModel> {
    pub open: RwSignal<bool>,
    /// What B changes from A, at most one entry per parameter.
    pub changes: RwSignal<Vec<(&'static ParamDef, u64)>>,
    /// The model time B was forked at, if it was.
    pub fork: RwSignal<Option<Millis>>,
    /// The setting the panel's control edits.
    chosen: RwSignal<&'static ParamDef>,
    /// The panel control's text and message.
    field: FieldState,
    /// Run B, or why it cannot be run.
    b: Memo<Result<Arc<L::Run>, String>>,
    /// A against B, while B runs.
    diff: Memo<Option<Arc<L::Diff>>>,
    /// Run A, which a fork point is checked against.
    a: RwSignal<Arc<L::Run>>,
}

impl<L: LabModel> Clone for Compare<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: LabModel> Copy for Compare<L> {}

impl<L: LabModel> Compare<L> {
    pub fn new(a: RwSignal<Arc<L::Run>>) -> Compare<L> {
        let changes = RwSignal::new(Vec::new());
        let b = Memo::new_with_compare(
            move |_| {
                let settings = a.with(|a| changes.with(|c| b_settings(L::settings(a), c)))?;
                L::simulate(&settings)
                    .map(Arc::new)
                    .map_err(|e| format!("Run B could not be simulated: {e}. Run A stays on screen."))
            },
            changed,
        );
        let diff = Memo::new_with_compare(
            move |_| {
                let b = b.get().ok()?;
                Some(Arc::new(a.with(|a| L::compare(a, &b))))
            },
            |_, _| true,
        );
        Compare {
            open: RwSignal::new(false),
            changes,
            fork: RwSignal::new(None),
            chosen: RwSignal::new(L::FIRST_CHANGE),
            field: FieldState::new(String::new()),
            b,
            diff,
            a,
        }
    }

    /// Whether run B is on screen (the comparison is open and B runs).
    pub fn showing(&self) -> bool {
        self.open.get() && self.b.with(|b| b.is_ok())
    }

    /// Run B while it is on screen.
    pub fn run_b(&self) -> Option<Arc<L::Run>> {
        if !self.open.get() { None } else { self.b.get().ok() }
    }

    /// Run B when it is on screen (untracked).
    pub fn b_untracked(&self) -> Option<Arc<L::Run>> {
        untrack(|| self.run_b())
    }

    /// Why run B cannot be run, if it cannot (untracked).
    pub fn b_error(&self) -> Option<String> {
        self.b.get_untracked().err()
    }

    /// A against B while run B is on screen.
    pub fn diff(&self) -> Option<Arc<L::Diff>> {
        if !self.open.get() { None } else { self.diff.get() }
    }

    /// B's value of `param` given A's settings.
    fn b_value(&self, a: &L::Settings, param: &'static ParamDef) -> u64 {
        self.changes
            .with_untracked(|c| c.iter().find(|(p, _)| p.name == param.name).map(|&(_, v)| v))
            .unwrap_or_else(|| a.get(param))
    }

    /// Shows `param`'s value for B in the panel's control.
    pub fn choose(&self, a: &L::Settings, param: &'static ParamDef) {
        self.chosen.set(param);
        self.field.show(param, self.b_value(a, param));
    }

    /// The panel's control changed: B takes `text` for the chosen setting
    /// (a value equal to A's removes the change).
    pub fn edit(&self, a: &L::Settings, text: String) {
        let param = self.chosen.get_untracked();
        let Some(value) = self.field.read(param, text) else { return };
        let mut next = self.changes.get_untracked();
        next.retain(|(p, _)| p.name != param.name);
        if value != a.get(param) {
            next.push((param, value));
        }
        // Refuse a combination that cannot run, keeping the last good B.
        match b_settings(a, &next).and_then(|s| L::simulate(&s).map(|_| ())) {
            Ok(()) => {
                self.field.error.set(None);
                self.changes.set(next);
            }
            Err(message) => self.field.error.set(Some(message)),
        }
    }
}

impl<L: LabModel> Compare<L> {
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

    pub fn close(&self) {
        self.open.set(false);
        self.fork.set(None);
    }

    /// Opens the comparison, or closes it.
    pub fn toggle(&self) {
        if self.open.get_untracked() {
            self.close();
        } else {
            self.open_with(None, None);
        }
    }

    /// Opens the comparison with run B's settings `b` (from a file): every
    /// setting where B differs from A's `a` is B's change. What was refused
    /// on the way is said as `open_checked` says it.
    pub fn open_as(&self, a: &L::Settings, b: &L::Settings, fork: Option<Millis>) -> Vec<String> {
        self.open_checked(changes_between(a, b), fork)
    }

    /// Opens the comparison with `changes` and the fork point (from a link
    /// or a file), and says what it refused: a fork after run A's end
    /// (B opens without it), or why run B cannot be run so (it stays
    /// closed).
    pub fn open_checked(&self, changes: Vec<(&'static ParamDef, u64)>, fork: Option<Millis>) -> Vec<String> {
        let end = self.a.with_untracked(|a| L::last_moment(a));
        let mut said = Vec::new();
        let fork = fork.and_then(|f| crate::view::compare::fork_within(f, end).map_err(|m| said.push(m)).ok());
        self.open_with(Some(changes), fork);
        if let Some(message) = self.b_error() {
            self.close();
            said.push(format!("{message} The second run was not opened."));
        }
        said
    }

    /// Run B's changes, while the comparison is open (for its link).
    pub fn link(&self) -> Option<Vec<(&'static ParamDef, u64)>> {
        self.open.get_untracked().then(|| self.changes.get_untracked())
    }

    /// Run B and A against B, while run B is on screen (untracked).
    pub fn pair_untracked(&self) -> Option<Pair<L>> {
        untrack(|| self.pair())
    }

    /// Run B and A against B, while run B is on screen.
    pub fn pair(&self) -> Option<Pair<L>> {
        Some((self.run_b()?, self.diff()?))
    }
}

/// Every setting where `b` differs from `a`, with `b`'s value: run B's
/// changes when B is given whole (by a file).
pub fn changes_between<S: Schema>(a: &S, b: &S) -> Vec<(&'static ParamDef, u64)> {
    S::PARAMS.iter().copied().filter(|&p| b.get(p) != a.get(p)).map(|p| (p, b.get(p))).collect()
}

/// "Compare with…", which opens the comparison or closes it.
pub fn compare_button<L: LabModel>(c: Compare<L>, toggle: impl Fn() + Send + Sync + 'static) -> impl IntoView {
    view! {
        <button
            type="button"
            aria-controls=move || c.open.get().then_some("compare-panel")
            aria-expanded=move || if c.open.get() { "true" } else { "false" }
            on:click=move |_| toggle()
        >
            "Compare with…"
        </button>
    }
}

/// "Fork here", among the playback buttons (not in an embed): compare
/// with a run B from the playhead on.
pub fn fork_here(embed: bool, fork: impl Fn() + Send + Sync + 'static) -> impl IntoView {
    (!embed).then(|| {
        view! {
            <button
                type="button"
                title="Compare with a run B that changes one setting, checked from the playhead back"
                on:click=move |_| fork()
            >
                "Fork here"
            </button>
        }
    })
}

/// The panel that says what run B is and changes one of its settings.
pub fn compare_panel<L: LabModel>(a: RwSignal<Arc<L::Run>>, c: Compare<L>) -> impl IntoView {
    let a_settings = move || a.with(|r| L::settings(r).clone());
    // Show B's value of the chosen setting whenever the panel opens.
    Effect::new(move |_| {
        if c.open.get() {
            let a = a.with_untracked(|r| L::settings(r).clone());
            c.choose(&a, c.chosen.get_untracked());
        }
    });
    let summary = move || {
        let a = a.get();
        match c.b.get() {
            Ok(b) => format!("Run B is run A with {}.", what_b_changes(L::settings(&a), L::settings(&b))),
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
        if let Some(el) = select.try_get_untracked().flatten() {
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
                            if let Some(param) = <L::Settings as Schema>::PARAMS.iter().copied().find(|p| p.name == name) {
                                c.choose(&a_settings(), param);
                            }
                        }
                    >
                        {<L::Settings as Schema>::PARAMS
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
pub fn differences<L: LabModel>(a: RwSignal<Arc<L::Run>>, c: Compare<L>) -> impl IntoView {
    let lines = move || {
        let diff = c.diff.get()?;
        let b = c.b.get().ok()?;
        let a = a.get();
        Some(L::differences(&a, &b, &diff, c.fork.get()))
    };
    view! {
        <section class="panel differences" aria-labelledby="differences-h">
            <h2 id="differences-h">"Differences"</h2>
            {move || match lines() {
                Some(lines) => diff_list(lines.into_iter().map(|l| (l.label, l.text))).into_any(),
                None => view! { <p>"Run B is not running; see the message above."</p> }.into_any(),
            }}
        </section>
    }
}

/// Run B's panel and the differences, side by side, while comparing.
pub fn comparison<L: LabModel>(a: RwSignal<Arc<L::Run>>, c: Compare<L>) -> impl IntoView {
    move || {
        c.open.get().then(|| {
            view! {
                <div class="comparison">
                    {compare_panel(a, c)}
                    {differences(a, c)}
                </div>
            }
        })
    }
}

/// The differences alone, while comparing (in an embed, which has no
/// settings).
pub fn differences_while_open<L: LabModel>(a: RwSignal<Arc<L::Run>>, c: Compare<L>) -> impl IntoView {
    move || c.open.get().then(|| differences(a, c))
}
