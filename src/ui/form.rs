//! The settings form, the same for every lab: each parameter's state (what
//! its control shows and why a value was refused), the one control that
//! edits it, and what applying settings means for a lab whose settings
//! make a run: a refused value shows its message beside its control, a
//! run that fails leaves the last valid run on screen.

use std::fmt::Display;
use std::marker::PhantomData;

use leptos::prelude::*;

use crate::sim::params::Opt;
use crate::sim::{ParamDef, Schema};
use crate::view::fields::{self, Control};

use super::notices::Notices;

#[derive(Clone, Copy)]
pub struct FieldState {
    /// What the control shows: the user's own text while they type.
    pub text: RwSignal<String>,
    /// Why that text was refused, if it was.
    pub error: RwSignal<Option<String>>,
    /// The value the control held when the reader began to edit it (it took
    /// the focus, or its last change was committed): a refused text puts
    /// the run back on it, so no allowed prefix typed on the way ("1" of
    /// "1e9") stays on screen.
    kept: StoredValue<Option<u64>>,
}

impl FieldState {
    pub fn new(text: String) -> FieldState {
        FieldState { text: RwSignal::new(text), error: RwSignal::new(None), kept: StoredValue::new(None) }
    }

    /// The reader begins an edit (the control took the focus) or commits
    /// one (its change event): what it holds now, if allowed, is the value
    /// a refusal returns to.
    pub fn keep(&self, param: &'static ParamDef) {
        if let Ok(value) = param.parse_human(&self.text.get_untracked()) {
            self.kept.set_value(Some(value));
        }
    }

    /// Shows `param`'s `value`, with no message.
    pub fn show(&self, param: &'static ParamDef, value: u64) {
        self.text.set(param.format_human(value));
        self.error.set(None);
    }

    /// Keeps `text` as typed and reads it as a value of `param`; a refusal
    /// is shown beside the control and gives `None`.
    pub fn read(&self, param: &'static ParamDef, text: String) -> Option<u64> {
        let value = param.parse_human(&text);
        self.text.set(text);
        value.map_err(|e| self.error.set(Some(e.human_message(param.label)))).ok()
    }
}

/// One field per parameter of a lab's settings `S`, in `S::PARAMS` order.
pub struct Form<S> {
    fields: StoredValue<Vec<FieldState>>,
    settings: PhantomData<fn() -> S>,
}

impl<S> Clone for Form<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Form<S> {}

impl<S: Schema> Form<S> {
    /// The form showing `settings`.
    pub fn new(settings: &S) -> Form<S> {
        let fields = S::PARAMS.iter().map(|p| FieldState::new(fields::value(p, settings))).collect();
        Form { fields: StoredValue::new(fields), settings: PhantomData }
    }

    pub fn field(&self, param: &ParamDef) -> FieldState {
        self.fields.with_value(|f| f[S::index_of(param)])
    }

    /// Every field shows its value in `settings`, without a message.
    pub fn show(&self, settings: &S) {
        self.fields.with_value(|f| {
            for (param, state) in S::PARAMS.iter().zip(f) {
                state.text.set(fields::value(param, settings));
                state.error.set(None);
            }
        });
    }

    /// Every field but `edited`'s shows its value in `settings` (a choice
    /// that sets what other parameters mean); their messages stay.
    pub fn show_others(&self, settings: &S, edited: &ParamDef) {
        self.fields.with_value(|f| {
            for (param, state) in S::PARAMS.iter().zip(f).filter(|(p, _)| p.name != edited.name) {
                state.text.set(fields::value(param, settings));
            }
        });
    }

    /// One control changed to `text`: the field keeps the user's text;
    /// `take` is given the settings with it and says why it refuses them,
    /// if it does. A refused value never runs: the settings go back to the
    /// value the control held when the edit began (an allowed prefix typed
    /// on the way may have run meanwhile), and its message beside the
    /// control says which value the run uses.
    pub fn edit(
        &self,
        param: &'static ParamDef,
        text: String,
        current: &S,
        mut take: impl FnMut(S) -> Result<(), String>,
    ) {
        let state = self.field(param);
        state.text.set(text.clone());
        let Err(why) = fields::apply(param, current, &text, param.label).and_then(&mut take) else {
            state.error.set(None);
            return;
        };
        let now = current.get(param);
        let kept = state.kept.get_value().unwrap_or(now);
        let back = if kept == now { None } else { current.with(param, kept).ok() };
        let uses = if back.is_some_and(|back| take(back).is_ok()) { kept } else { now };
        let value = crate::sim::params::shorten(text.trim());
        let uses = fields::value_words(param, uses);
        state.error.set(Some(format!("Not allowed: {value}; the run uses {uses}. {why}")));
    }

    /// `edit` for a lab whose settings make a run: `simulate` makes it and
    /// `install` puts it on screen; a value whose run fails says so.
    pub fn edit_run<R, E: Display>(
        &self,
        param: &'static ParamDef,
        text: String,
        current: &S,
        simulate: impl Fn(&S) -> Result<R, E>,
        install: impl Fn(R),
    ) {
        self.edit(param, text, current, |settings| match simulate(&settings) {
            Ok(run) => {
                install(run);
                Ok(())
            }
            Err(e) => Err(format!("{}: this value cannot be simulated ({e}).", param.label)),
        });
    }

    /// Replaces every setting at once with `settings`, whose run is `run`:
    /// the form shows them and `install` puts the run on screen. Returns
    /// false, leaving everything as it was with a notice, if the run failed.
    pub fn apply<R, E: Display>(
        &self,
        settings: &S,
        run: Result<R, E>,
        notices: Notices,
        install: impl FnOnce(R),
    ) -> bool {
        match run {
            Ok(run) => {
                self.show(settings);
                install(run);
                true
            }
            Err(e) => {
                notices.notify(format!("These settings could not be simulated: {e}. The last run stays on screen."));
                false
            }
        }
    }
}

/// The run `settings` make, or, if they cannot be run, the opening
/// settings and their run, with a notice saying why.
pub fn run_or_opening<S: Schema, R, E: Display>(
    settings: S,
    simulate: impl Fn(&S) -> Result<R, E>,
    notices: &mut Vec<String>,
) -> (S, R) {
    match simulate(&settings) {
        Ok(run) => (settings, run),
        Err(e) => {
            notices.push(format!("These settings could not be simulated ({e}); the opening settings are shown."));
            let opening = S::opening();
            let Ok(run) = simulate(&opening) else { panic!("the opening settings simulate") };
            (opening, run)
        }
    }
}

/// One parameter's control with its label, hint and message, for any lab:
/// `on_edit` hears every change as the control's text. `prefix` keeps the
/// ids of a second form for the same parameters (run B's) apart.
#[component]
pub fn FieldControl(
    param: &'static ParamDef,
    state: FieldState,
    on_edit: Callback<String>,
    #[prop(optional)] prefix: &'static str,
) -> impl IntoView {
    let id = format!("{prefix}{}", fields::element_id(param));
    match fields::control(param) {
        Control::Select(options) => select_field(param, state, on_edit, id, options).into_any(),
        Control::Checkbox { on, off } => checkbox_field(param, state, on_edit, id, on, off).into_any(),
        Control::Seconds | Control::Count | Control::Text => text_field(param, state, on_edit, id).into_any(),
    }
}

/// The message beside the control with id `id`, while its text is refused.
fn field_error(state: FieldState, id: &str) -> impl IntoView + use<> {
    let error_id = format!("{id}-error");
    move || {
        state.error.get().map(|message| {
            view! {
                <p class="field-error" id=error_id.clone()>
                    {message}
                </p>
            }
        })
    }
}

/// Whether the control's text is refused, as `aria-invalid` says it.
fn invalid(state: FieldState) -> impl Fn() -> Option<&'static str> + Copy {
    move || state.error.with(|e| e.is_some()).then_some("true")
}

/// The id of the message beside the control with id `id`: controls point
/// at the message only while there is one.
fn error_reference(state: FieldState, id: &str) -> impl Fn() -> Option<String> + Clone + use<> {
    let error_id = format!("{id}-error");
    move || state.error.with(|e| e.is_some()).then(|| error_id.clone())
}

/// A choice: a select over the parameter's options.
fn select_field(
    param: &'static ParamDef,
    state: FieldState,
    on_edit: Callback<String>,
    id: String,
    options: &'static [Opt],
) -> impl IntoView {
    let describe_error = error_reference(state, &id);
    let error = field_error(state, &id);
    view! {
        <div class="field">
            <label for=id.clone()>{param.label}</label>
            <select
                id=id
                aria-invalid=invalid(state)
                aria-describedby=describe_error
                on:change:target=move |ev| on_edit.run(ev.target().value())
            >
                {options
                    .iter()
                    .map(|o| {
                        let value = o.value;
                        view! {
                            <option value=value prop:selected=move || state.text.with(|t| t == value)>
                                {o.label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            {error}
        </div>
    }
}

/// A switch: a checkbox, ticked for `on`.
fn checkbox_field(
    param: &'static ParamDef,
    state: FieldState,
    on_edit: Callback<String>,
    id: String,
    on: &'static str,
    off: &'static str,
) -> impl IntoView {
    let describe_error = error_reference(state, &id);
    let error = field_error(state, &id);
    view! {
        <div class="field check">
            <input
                type="checkbox"
                id=id.clone()
                aria-describedby=describe_error
                prop:checked=move || state.text.with(|t| t == on)
                on:change:target=move |ev| {
                    let value = if ev.target().checked() { on } else { off };
                    on_edit.run(value.to_owned())
                }
            />
            <label for=id>{param.label}</label>
            {error}
        </div>
    }
}

/// Seconds or a count: a text input, described by its hint and, while the
/// text is refused, its message.
fn text_field(param: &'static ParamDef, state: FieldState, on_edit: Callback<String>, id: String) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let hint = fields::hint(param);
    let described = {
        let hint_id = hint_id.clone();
        let describe_error = error_reference(state, &id);
        move || match describe_error() {
            Some(error_id) => format!("{hint_id} {error_id}"),
            None => hint_id.clone(),
        }
    };
    let error = field_error(state, &id);
    let mode = fields::input_mode(param);
    view! {
        <div class="field">
            <label for=id.clone()>{param.label}</label>
            <input
                type="text"
                id=id
                inputmode=mode
                autocomplete="off"
                spellcheck="false"
                aria-invalid=invalid(state)
                aria-describedby=described
                prop:value=move || state.text.get()
                on:focus=move |_| state.keep(param)
                on:change=move |_| state.keep(param)
                on:input:target=move |ev| on_edit.run(ev.target().value())
            />
            <span class="hint" id=hint_id>{hint}</span>
            {error}
        </div>
    }
}
