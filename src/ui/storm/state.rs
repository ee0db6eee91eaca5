//! The storm lab's state in the browser: its settings, what the worker last
//! reported, and the worker itself. Runs and sweeps happen in the worker
//! (its own wasm, fetched on first use), so the page stays responsive; a
//! newer request or "Cancel" ends the worker and starts a fresh one.

use std::sync::Arc;

use leptos::prelude::*;

use crate::sim::storm::StormSettings;
use crate::sim::storm::settings::{WORKLOAD, Workload};
use crate::sim::{ParamDef, Schema};
use crate::view::lesson::LessonAt;
use crate::view::page::{Page, Theme};
use crate::view::storm::STORMS;
use crate::view::storm::compare::Difference;
use crate::view::storm::presets::{AXES, Figure, PRESETS, relevant};
use crate::view::storm::protocol::{Answer, Axis, GridCell, Job, Reply, Request, SweepCell};
use crate::view::storm::report::{StormDoc, settings_value};
use crate::view::url::LinkState;

use super::super::form::{FieldState, Form};
use super::super::notices::Notices;
use super::super::predict::{Asked, ask, predict, waiting};
use super::super::worker::Channel;

/// The worker's loader, next to the lab's other files.
const WORKER_LOADER: &str = "storm-worker_loader.js";

/// A long job under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    pub label: &'static str,
    pub done: u32,
    pub total: u32,
}

/// The AWS sweep's cells and the reference means beside them.
pub type Sweep = (Vec<SweepCell>, Vec<SweepCell>);

/// A heat map: which axes it swept and its cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub axes: usize,
    pub cells: Vec<GridCell>,
}

/// Run B as the worker last reported it: its report, the lines of the
/// differences, and the comparison's export (both runs and the lines).
pub struct Compared {
    pub b: StormDoc,
    pub differences: Vec<Difference>,
    pub export: String,
}

#[derive(Clone, Copy)]
pub struct Storm {
    pub settings: RwSignal<StormSettings>,
    /// The settings form's fields.
    pub form: Form<StormSettings>,
    pub doc: RwSignal<Option<Arc<StormDoc>>>,
    /// The last run A's document as the worker wrote it, for export.
    pub doc_json: StoredValue<String>,
    /// Run A without retries, which its totals are judged against.
    pub baseline: RwSignal<Option<Arc<crate::view::storm::report::OverloadReport>>>,
    /// What the worker last said of run B while it is open.
    pub compared: RwSignal<Option<Arc<Compared>>>,
    pub sweep: RwSignal<Option<Arc<Sweep>>>,
    pub grid: RwSignal<Option<Arc<Grid>>>,
    pub busy: RwSignal<Option<Busy>>,
    pub notices: Notices,
    /// The preset in progress (its index in `PRESETS`).
    pub preset: Asked<usize>,
    pub axes: RwSignal<usize>,
    pub figure: RwSignal<Figure>,
    pub embed: bool,
    pub theme: RwSignal<Theme>,
    /// Run B beside run A: open or not, the one setting it changes (none
    /// yet: B is A), the setting its control edits, and the differences the
    /// worker last reported.
    pub b_open: RwSignal<bool>,
    pub b_change: RwSignal<Option<(&'static ParamDef, u64)>>,
    pub b_chosen: RwSignal<&'static ParamDef>,
    pub b_field: FieldState,
    /// The storm worker, started on first use.
    channel: Channel,
    /// The settings each workload had when the reader left it.
    by_workload: StoredValue<[Option<StormSettings>; 2]>,
    /// The lesson being taught, at the step on screen, and whether it is
    /// being presented (both carry to the lesson's next step).
    pub lesson: StoredValue<Option<LessonAt>>,
    pub present: RwSignal<bool>,
}

impl Storm {
    /// The state for `settings` on `page` (embedded or not, its lesson);
    /// the lab's files (its worker) are at `base`.
    pub fn new(settings: StormSettings, page: &Page, theme: RwSignal<Theme>, base: String) -> Storm {
        let form = Form::new(&settings);
        let storm = Storm {
            settings: RwSignal::new(settings),
            form,
            doc: RwSignal::new(None),
            doc_json: StoredValue::new(String::new()),
            baseline: RwSignal::new(None),
            compared: RwSignal::new(None),
            sweep: RwSignal::new(None),
            grid: RwSignal::new(None),
            busy: RwSignal::new(None),
            notices: Notices::new(),
            preset: RwSignal::new(None),
            axes: RwSignal::new(0),
            figure: RwSignal::new(Figure::Wasted),
            embed: page.embed,
            theme,
            b_open: RwSignal::new(false),
            b_change: RwSignal::new(None),
            b_chosen: RwSignal::new(crate::sim::storm::settings::MAX_ATTEMPTS.def()),
            b_field: FieldState::new(String::new()),
            channel: Channel::new(format!("{base}{WORKER_LOADER}"), ready_text()),
            by_workload: StoredValue::new([None, None]),
            lesson: StoredValue::new(page.lesson.clone()),
            present: RwSignal::new(page.present),
        };
        storm.channel.listen(
            move |text| {
                if storm.is_alive() {
                    storm.on_reply(text);
                }
            },
            move || {
                if storm.is_alive() {
                    storm.busy.set(None);
                    storm.notices.notify("The storm worker failed; the last results stay on screen.".to_owned());
                }
            },
        );
        storm
    }

    /// The link to these settings (and run B's change, while it is open).
    pub fn link_state(&self, theme: Theme) -> LinkState {
        let change = self.b_change.get_untracked();
        let b = self.b_open.get_untracked().then(|| change.into_iter().collect::<Vec<_>>());
        let page = Page {
            embed: self.embed,
            theme,
            present: self.present.get_untracked(),
            lesson: self.lesson.get_value(),
            ..Page::default()
        };
        LinkState::of(STORMS, &self.settings.get_untracked(), b.as_deref(), page)
    }

    /// Whether the lab is still mounted: a frame or a worker's answer may
    /// come after it was unmounted, and then finds nothing to update.
    pub fn is_alive(&self) -> bool {
        self.settings.try_get_untracked().is_some()
    }

    /// Ends the worker when the lab is unmounted: a storm under way stops
    /// with it.
    pub fn end(&self) {
        self.channel.stop();
    }

    /// One control changed: a refused value shows its message beside the
    /// control and leaves the last valid settings in place.
    pub fn edit(&self, param: &'static ParamDef, text: String) {
        if param.name == WORKLOAD.def().name
            && let Ok(value) = param.parse_human(&text)
        {
            return self.switch_workload(<Workload as crate::sim::params::Value>::from_raw(value));
        }
        self.form.edit(param, text, &self.settings.get_untracked(), |settings| {
            self.install(settings);
            Ok(())
        });
    }

    /// Each workload keeps its own values: the one left is remembered, the
    /// one chosen comes back as the reader left it, or with its defaults.
    fn switch_workload(&self, workload: Workload) {
        let now = self.settings.get_untracked();
        if now.workload == workload {
            return;
        }
        let next = self.by_workload.with_value(|kept| kept[workload as usize].clone());
        let left = now.workload as usize;
        self.by_workload.update_value(|kept| kept[left] = Some(now));
        let next = next.unwrap_or_else(|| StormSettings::opening_of(workload));
        // Run B keeps its change only where the workload has that setting
        // and the value fits; its control offers one the workload has.
        let change = self.b_change.get_untracked().filter(|&(p, v)| relevant(p, workload) && next.with(p, v).is_ok());
        self.b_change.set(change);
        self.apply(next);
        if self.b_open.get_untracked() {
            self.open_b_with(change);
        }
    }

    /// Replaces every setting (a preset, a heat-map cell) and runs it.
    pub fn apply(&self, settings: StormSettings) {
        self.form.show(&settings);
        self.install(settings);
    }

    fn install(&self, settings: StormSettings) {
        let changed_workload = settings.workload != self.settings.get_untracked().workload;
        self.settings.set(settings);
        if changed_workload {
            self.sweep.set(None);
            self.grid.set(None);
        }
        self.run();
    }

    /// Runs the current settings in the worker; with run B open, both
    /// runs and their differences.
    pub fn run(&self) {
        let a = self.settings.get_untracked();
        if self.b_open.get_untracked() {
            match self.b_settings(&a) {
                Ok(b) => self.ask(Job::Compare { a: settings_value(&a), b: settings_value(&b) }, "Comparing"),
                Err(message) => {
                    self.b_field.error.set(Some(message));
                    self.ask(Job::Run { settings: settings_value(&a) }, "Running");
                }
            }
        } else {
            self.ask(Job::Run { settings: settings_value(&a) }, "Running");
        }
    }

    /// Run B's settings: run A's with B's one change, if A's other
    /// settings allow it.
    fn b_settings(&self, a: &StormSettings) -> Result<StormSettings, String> {
        match self.b_change.get_untracked() {
            None => Ok(a.clone()),
            Some((param, value)) => a
                .with(param, value)
                .map_err(|e| format!("Run B cannot use this change: {}", e.human_message(e.param.label))),
        }
    }

    /// B's value of `param`, given run A's settings.
    fn b_value(&self, a: &StormSettings, param: &'static ParamDef) -> u64 {
        match self.b_change.get_untracked() {
            Some((p, v)) if p.name == param.name => v,
            _ => a.get(param),
        }
    }

    /// Opens run B (as run A until a setting is changed) and compares.
    pub fn open_b(&self) {
        self.open_b_with(None);
        self.run();
    }

    /// Opens run B with `change` (from a link), without running yet. With
    /// no change, the control offers the setting it offered last, if the
    /// workload has it, else the workload's first.
    pub fn open_b_with(&self, change: Option<(&'static ParamDef, u64)>) {
        self.b_open.set(true);
        self.b_change.set(change);
        let workload = self.settings.with_untracked(|s| s.workload);
        let chosen = match change {
            Some((param, _)) => param,
            None => {
                let last = self.b_chosen.get_untracked();
                if relevant(last, workload) {
                    last
                } else {
                    crate::sim::storm::settings::PARAMS
                        .iter()
                        .copied()
                        .find(|p| p.name != crate::sim::storm::settings::WORKLOAD.name && relevant(p, workload))
                        .unwrap_or(last)
                }
            }
        };
        self.choose_b(chosen);
    }

    /// Closes run B; run A stays as it is.
    pub fn close_b(&self) {
        self.b_open.set(false);
        self.b_change.set(None);
        self.compared.set(None);
    }

    /// Shows B's value of `param` in run B's control.
    pub fn choose_b(&self, param: &'static ParamDef) {
        let a = self.settings.get_untracked();
        self.b_chosen.set(param);
        self.b_field.show(param, self.b_value(&a, param));
    }

    /// Run B's control changed: B takes `text` for the chosen setting
    /// (replacing any other change; a value equal to A's is no change).
    pub fn edit_b(&self, text: String) {
        let param = self.b_chosen.get_untracked();
        let Some(value) = self.b_field.read(param, text) else { return };
        let a = self.settings.get_untracked();
        if let Err(e) = a.with(param, value) {
            self.b_field.error.set(Some(e.human_message(e.param.label)));
            return;
        }
        self.b_field.error.set(None);
        self.b_change.set((value != a.get(param)).then_some((param, value)));
        self.run();
    }

    /// The AWS sweep (contention workload) or the heat map (overload).
    pub fn run_sweep(&self) {
        let settings = self.settings.get_untracked();
        match settings.workload {
            crate::sim::storm::settings::Workload::Occ => {
                self.ask(Job::AwsSweep { seed: settings.seed, reps: 100 }, "Sweeping")
            }
            crate::sim::storm::settings::Workload::Overload => {
                let axes = AXES[self.axes.get_untracked()];
                let axis = |(param, values): (&'static ParamDef, &'static [&'static str])| Axis {
                    param: param.link.to_owned(),
                    values: values.iter().map(|v| (*v).to_owned()).collect(),
                };
                self.grid.set(None);
                self.ask(
                    Job::Grid { settings: settings_value(&settings), x: axis(axes.x), y: axis(axes.y) },
                    "Sweeping",
                );
            }
        }
    }

    /// Stops whatever the worker is doing.
    pub fn cancel(&self) {
        self.channel.stop();
        self.busy.set(None);
    }

    fn ask(&self, job: Job, label: &'static str) {
        // A newer request replaces the one under way.
        if self.busy.get_untracked().is_some() {
            self.channel.stop();
        }
        let total = match &job {
            Job::AwsSweep { .. } => 95,
            Job::Grid { x, y, .. } => (x.values.len() * y.values.len()) as u32,
            Job::Run { .. } | Job::Compare { .. } => 0,
        };
        self.busy.set(Some(Busy { label, done: 0, total }));
        if self.channel.send(|id| serde_json::to_string(&Request { id, job }).unwrap_or_default()).is_none() {
            self.busy.set(None);
            self.notices.notify("The storm worker could not start in this browser; runs need Web Workers.".to_owned());
        }
    }

    fn on_reply(&self, text: &str) {
        let Ok(reply) = serde_json::from_str::<Reply>(text) else {
            return;
        };
        if !self.channel.is_current(reply.id) {
            return;
        }
        match reply.answer {
            Answer::Ready => {}
            Answer::Progress { done, total } => {
                self.busy.update(|b| {
                    if let Some(b) = b {
                        b.done = done;
                        b.total = total;
                    }
                });
                return;
            }
            Answer::Run { report, json, baseline } => {
                self.doc_json.set_value(json);
                self.baseline.set(baseline.map(Arc::new));
                self.doc.set(Some(Arc::new(report)));
                self.compared.set(None);
                // The lab answers its reader once a run's totals are in.
                super::super::mount::ready();
            }
            Answer::Compare { a, b, json, export, differences, baseline } => {
                self.doc_json.set_value(json);
                self.baseline.set(baseline.map(Arc::new));
                self.doc.set(Some(Arc::new(a)));
                // A comparison that ends after run B was closed is run A's.
                let open = self.b_open.get_untracked();
                self.compared.set(open.then(|| Arc::new(Compared { b, differences, export })));
                super::super::mount::ready();
            }
            Answer::Sweep { cells, reference } => self.sweep.set(Some(Arc::new((cells, reference)))),
            Answer::Grid { cells } => self.grid.set(Some(Arc::new(Grid { axes: self.axes.get_untracked(), cells }))),
            Answer::Error { message } => {
                if self.b_open.get_untracked() {
                    self.b_field.error.set(Some(format!("Run B: {message}.")));
                }
                self.notices.notify(format!("{message}. The last results stay on screen."))
            }
        }
        self.busy.set(None);
    }

    /// Starts a preset: its settings, and the answer hidden until the
    /// reader predicts.
    pub fn start_preset(&self, index: usize) {
        let Some(p) = PRESETS.get(index) else { return };
        let Ok(settings) = StormSettings::from_pairs(p.setup) else { return };
        ask(self.preset, index);
        self.apply(settings);
    }

    pub fn predict(&self, prediction: String) {
        predict(self.preset, prediction);
    }

    /// True while a preset waits for a prediction.
    pub fn answer_hidden(&self) -> bool {
        waiting(self.preset).is_some_and(|i| PRESETS[i].question.is_some())
    }
}

/// The storm worker's first message, as text.
fn ready_text() -> String {
    serde_json::to_string(&Reply { id: 0, answer: Answer::Ready }).unwrap_or_default()
}
