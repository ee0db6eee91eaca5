//! Compare and fork, for every lab whose runs are computed on the page:
//! run B beside run A on one clock, the panel that says what B changes,
//! and the "Differences" region. Run B is run A with some settings
//! changed; it follows A when A's settings change. A lab plugs in by
//! saying, through [`Comparable`], how its runs are made and compared.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::{Millis, ParamDef, Schema};
use crate::view::compare::DiffLine;
#[cfg(not(feature = "lite"))]
use crate::view::compare::what_b_changes;
use crate::view::url::LinkCompare;

#[cfg(not(feature = "lite"))]
use super::form::{FieldControl, FieldState};
#[cfg(not(feature = "lite"))]
use super::text_panels::diff_list;

/// A lab's run, as a comparison needs it.
pub trait Comparable: Send + Sync + Sized + 'static {
    type Settings: Schema + Clone + Send + Sync + 'static;
    /// What differs between two runs.
    type Diff: Send + Sync + 'static;
    /// The setting the panel offers first.
    const FIRST: &'static ParamDef;
    fn simulate(settings: &Self::Settings) -> Result<Self, String>;
    fn settings(&self) -> &Self::Settings;
    fn compare(&self, b: &Self) -> Self::Diff;
    /// The "Differences" panel's lines; `fork` is when B was forked.
    fn differences(&self, b: &Self, diff: &Self::Diff, fork: Option<Millis>) -> Vec<DiffLine>;
}

impl Comparable for crate::sim::ack::Run {
    type Settings = crate::sim::ack::Settings;
    type Diff = crate::sim::ack::compare::Comparison;
    const FIRST: &'static ParamDef = crate::sim::ack::settings::DEDUP.def();
    fn simulate(settings: &Self::Settings) -> Result<Self, String> {
        Self::simulate(settings).map_err(|e| e.to_string())
    }
    fn settings(&self) -> &Self::Settings {
        self.settings()
    }
    fn compare(&self, b: &Self) -> Self::Diff {
        Self::Diff::of(self, b)
    }
    fn differences(&self, b: &Self, diff: &Self::Diff, fork: Option<Millis>) -> Vec<DiffLine> {
        crate::view::ack::compare::differences(self, b, diff, fork)
    }
}

impl Comparable for crate::sim::risk::Run {
    type Settings = crate::sim::risk::Settings;
    type Diff = crate::sim::risk::compare::Comparison;
    const FIRST: &'static ParamDef = crate::sim::risk::settings::IDEMPOTENT_CREATE.def();
    fn simulate(settings: &Self::Settings) -> Result<Self, String> {
        Self::simulate(settings).map_err(|e| e.to_string())
    }
    fn settings(&self) -> &Self::Settings {
        self.settings()
    }
    fn compare(&self, b: &Self) -> Self::Diff {
        Self::Diff::of(self, b)
    }
    fn differences(&self, b: &Self, diff: &Self::Diff, fork: Option<Millis>) -> Vec<DiffLine> {
        crate::view::risk::compare::differences(self, b, diff, fork)
    }
}

/// Run B's settings: run A's with `changes` applied in order. A change a
/// cross-field check refuses is reported by the setting it conflicts with.
#[cfg(not(feature = "lite"))]
pub fn b_settings<S: Schema>(a: &S, changes: &[(&'static ParamDef, u64)]) -> Result<S, String> {
    changes.iter().try_fold(a.clone(), |s, &(param, value)| {
        s.with(param, value).map_err(|e| format!("Run B cannot use this change: {}", e.human_message(e.param.label)))
    })
}

/// Whether run B changed: memos here are rebuilt only when their inputs
/// change, so comparing by pointer spares a deep comparison.
#[cfg(not(feature = "lite"))]
fn changed<T>(old: Option<&Result<Arc<T>, String>>, new: Option<&Result<Arc<T>, String>>) -> bool {
    match (old, new) {
        (Some(Ok(x)), Some(Ok(y))) => !Arc::ptr_eq(x, y),
        (Some(Err(x)), Some(Err(y))) => x != y,
        _ => true,
    }
}

/// The comparison's state. Closed, it costs nothing: run B is simulated
/// only while someone looks at it.
///
/// An opening build (feature `lite`) never shows run B: its whole build
/// does. There the state is only whether the comparison was asked for and
/// with what (for the link the whole build starts from), the accessors
/// say at once that run B is not shown, and what runs, compares and draws
/// run B is left out.
pub struct Compare<R: Comparable> {
    pub open: RwSignal<bool>,
    /// What B changes from A, at most one entry per parameter.
    pub changes: RwSignal<Vec<(&'static ParamDef, u64)>>,
    /// The model time B was forked at, if it was.
    pub fork: RwSignal<Option<Millis>>,
    #[cfg(not(feature = "lite"))]
    whole: Whole<R>,
    #[cfg(feature = "lite")]
    run: std::marker::PhantomData<fn() -> R>,
}

/// What only the whole build keeps of a comparison.
#[cfg(not(feature = "lite"))]
struct Whole<R: Comparable> {
    /// The setting the panel's control edits.
    chosen: RwSignal<&'static ParamDef>,
    /// The panel control's text and message.
    field: FieldState,
    /// Run B, or why it cannot be run.
    b: Memo<Result<Arc<R>, String>>,
    /// A against B, while B runs.
    diff: Memo<Option<Arc<R::Diff>>>,
}

#[cfg(not(feature = "lite"))]
impl<R: Comparable> Clone for Whole<R> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(not(feature = "lite"))]
impl<R: Comparable> Copy for Whole<R> {}

impl<R: Comparable> Clone for Compare<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Comparable> Copy for Compare<R> {}

#[cfg(feature = "lite")]
impl<R: Comparable> Compare<R> {
    pub fn new(_a: RwSignal<Arc<R>>) -> Compare<R> {
        Compare {
            open: RwSignal::new(false),
            changes: RwSignal::new(Vec::new()),
            fork: RwSignal::new(None),
            run: std::marker::PhantomData,
        }
    }

    pub fn showing(&self) -> bool {
        false
    }

    pub fn run_b(&self) -> Option<Arc<R>> {
        None
    }

    pub fn b_untracked(&self) -> Option<Arc<R>> {
        None
    }

    pub fn b_error(&self) -> Option<String> {
        None
    }

    pub fn diff(&self) -> Option<Arc<R::Diff>> {
        None
    }
}

#[cfg(not(feature = "lite"))]
impl<R: Comparable> Compare<R> {
    pub fn new(a: RwSignal<Arc<R>>) -> Compare<R> {
        let changes = RwSignal::new(Vec::new());
        let b = Memo::new_with_compare(
            move |_| {
                let settings = a.with(|a| changes.with(|c| b_settings(a.settings(), c)))?;
                R::simulate(&settings)
                    .map(Arc::new)
                    .map_err(|e| format!("Run B could not be simulated: {e}. Run A stays on screen."))
            },
            changed,
        );
        let diff = Memo::new_with_compare(
            move |_| {
                let b = b.get().ok()?;
                Some(Arc::new(a.with(|a| a.compare(&b))))
            },
            |_, _| true,
        );
        Compare {
            open: RwSignal::new(false),
            changes,
            fork: RwSignal::new(None),
            whole: Whole { chosen: RwSignal::new(R::FIRST), field: FieldState::new(String::new()), b, diff },
        }
    }

    /// Whether run B is on screen (the comparison is open and B runs).
    pub fn showing(&self) -> bool {
        self.open.get() && self.whole.b.with(|b| b.is_ok())
    }

    /// Run B while it is on screen.
    pub fn run_b(&self) -> Option<Arc<R>> {
        if !self.open.get() { None } else { self.whole.b.get().ok() }
    }

    /// Run B when it is on screen (untracked).
    pub fn b_untracked(&self) -> Option<Arc<R>> {
        untrack(|| self.run_b())
    }

    /// Why run B cannot be run, if it cannot (untracked).
    pub fn b_error(&self) -> Option<String> {
        self.whole.b.get_untracked().err()
    }

    /// A against B while run B is on screen.
    pub fn diff(&self) -> Option<Arc<R::Diff>> {
        if !self.open.get() { None } else { self.whole.diff.get() }
    }

    /// B's value of `param` given A's settings.
    fn b_value(&self, a: &R::Settings, param: &'static ParamDef) -> u64 {
        self.changes
            .with_untracked(|c| c.iter().find(|(p, _)| p.name == param.name).map(|&(_, v)| v))
            .unwrap_or_else(|| a.get(param))
    }

    /// Shows `param`'s value for B in the panel's control.
    pub fn choose(&self, a: &R::Settings, param: &'static ParamDef) {
        self.whole.chosen.set(param);
        self.whole.field.show(param, self.b_value(a, param));
    }

    /// The panel's control changed: B takes `text` for the chosen setting
    /// (a value equal to A's removes the change).
    pub fn edit(&self, a: &R::Settings, text: String) {
        let param = self.whole.chosen.get_untracked();
        let Some(value) = self.whole.field.read(param, text) else { return };
        let mut next = self.changes.get_untracked();
        next.retain(|(p, _)| p.name != param.name);
        if value != a.get(param) {
            next.push((param, value));
        }
        // Refuse a combination that cannot run, keeping the last good B.
        match b_settings(a, &next).and_then(|s| R::simulate(&s).map(|_| ())) {
            Ok(()) => {
                self.whole.field.error.set(None);
                self.changes.set(next);
            }
            Err(message) => self.whole.field.error.set(Some(message)),
        }
    }
}

impl<R: Comparable> Compare<R> {
    /// Opens the comparison with `changes` (from a link or a file), or
    /// keeps what it had when `changes` is `None`.
    pub fn open_with(&self, changes: Option<Vec<(&'static ParamDef, u64)>>, fork: Option<Millis>) {
        if let Some(changes) = changes {
            #[cfg(not(feature = "lite"))]
            if let Some(&(first, _)) = changes.first() {
                self.whole.chosen.set(first);
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
    /// setting where B differs from A's `a` is B's change. If B cannot be
    /// run so, the comparison stays closed and this says why.
    pub fn open_as(&self, a: &R::Settings, b: &R::Settings, fork: Option<Millis>) -> Result<(), String> {
        self.open_checked(changes_between(a, b), fork)
    }

    /// Opens the comparison with `changes` (from a link or a file); if run
    /// B cannot be run so, it stays closed and this says why.
    pub fn open_checked(&self, changes: Vec<(&'static ParamDef, u64)>, fork: Option<Millis>) -> Result<(), String> {
        self.open_with(Some(changes), fork);
        match self.b_error() {
            Some(message) => {
                self.close();
                Err(format!("{message} The second run was not opened."))
            }
            None => Ok(()),
        }
    }

    /// Run B as a link says it, while the comparison is open.
    pub fn link(&self) -> Option<LinkCompare> {
        self.open
            .get_untracked()
            .then(|| LinkCompare { changes: self.changes.get_untracked(), fork: self.fork.get_untracked() })
    }

    /// Run B and A against B, while run B is on screen (untracked).
    pub fn pair_untracked(&self) -> Option<(Arc<R>, Arc<R::Diff>)> {
        untrack(|| self.pair())
    }

    /// Run B and A against B, while run B is on screen.
    pub fn pair(&self) -> Option<(Arc<R>, Arc<R::Diff>)> {
        Some((self.run_b()?, self.diff()?))
    }
}

/// Every setting where `b` differs from `a`, with `b`'s value: run B's
/// changes when B is given whole (by a file).
pub fn changes_between<S: Schema>(a: &S, b: &S) -> Vec<(&'static ParamDef, u64)> {
    S::PARAMS.iter().copied().filter(|&p| b.get(p) != a.get(p)).map(|p| (p, b.get(p))).collect()
}

/// "Compare with…", which opens the comparison or closes it.
#[cfg(not(feature = "lite"))]
pub fn compare_button<R: Comparable>(c: Compare<R>, toggle: impl Fn() + Send + Sync + 'static) -> impl IntoView {
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

/// "Compare with…" in an opening build, where the comparison is never on
/// screen: opening it hands the lab over to its whole build.
#[cfg(feature = "lite")]
pub fn compare_button<R: Comparable>(_: Compare<R>, toggle: impl Fn() + Send + Sync + 'static) -> impl IntoView {
    view! {
        <button type="button" aria-expanded="false" on:click=move |_| toggle()>
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
#[cfg(not(feature = "lite"))]
pub fn compare_panel<R: Comparable>(a: RwSignal<Arc<R>>, c: Compare<R>) -> impl IntoView {
    let a_settings = move || a.with(|r| r.settings().clone());
    // Show B's value of the chosen setting whenever the panel opens.
    Effect::new(move |_| {
        if c.open.get() {
            let a = a.with_untracked(|r| r.settings().clone());
            c.choose(&a, c.whole.chosen.get_untracked());
        }
    });
    let summary = move || {
        let a = a.get();
        match c.whole.b.get() {
            Ok(b) => format!("Run B is run A with {}.", what_b_changes(a.settings(), b.settings())),
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
        let param = c.whole.chosen.get();
        view! { <FieldControl param state=c.whole.field on_edit prefix="b-"/> }
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
                            if let Some(param) = <R::Settings as Schema>::PARAMS.iter().copied().find(|p| p.name == name) {
                                c.choose(&a_settings(), param);
                            }
                        }
                    >
                        {<R::Settings as Schema>::PARAMS
                            .iter()
                            .copied()
                            .map(|p| {
                                view! {
                                    <option value=p.name prop:selected=move || c.whole.chosen.get().name == p.name>
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
#[cfg(not(feature = "lite"))]
pub fn differences<R: Comparable>(a: RwSignal<Arc<R>>, c: Compare<R>) -> impl IntoView {
    let lines = move || {
        let diff = c.whole.diff.get()?;
        let b = c.whole.b.get().ok()?;
        let a = a.get();
        Some(a.differences(&b, &diff, c.fork.get()))
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

/// Run B's panel and the differences, side by side, while comparing.
#[cfg(not(feature = "lite"))]
pub fn comparison<R: Comparable>(a: RwSignal<Arc<R>>, c: Compare<R>) -> impl IntoView {
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
#[cfg(not(feature = "lite"))]
pub fn differences_while_open<R: Comparable>(a: RwSignal<Arc<R>>, c: Compare<R>) -> impl IntoView {
    move || c.open.get().then(|| differences(a, c))
}
