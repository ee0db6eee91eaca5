//! Predict, then see: every lab's guided questions (the first lab's
//! experiments, the risk and storm labs' presets) keep which one is open
//! and the reader's prediction; the answer stays hidden until the reader
//! has predicted or asked to be shown.

use leptos::prelude::*;

use crate::sim::Millis;

use super::playback::Replay;

/// A guided question in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction<K> {
    /// Which question: an experiment's or a preset's.
    pub which: K,
    /// The reader's prediction, once made ("" for "just show me").
    pub prediction: Option<String>,
}

/// The question open on the page, if any.
pub type Asked<K> = RwSignal<Option<Prediction<K>>>;

/// Opens question `which`, its answer hidden.
pub fn ask<K: Send + Sync + 'static>(asked: Asked<K>, which: K) {
    asked.set(Some(Prediction { which, prediction: None }));
}

/// Records the reader's prediction for the open question.
pub fn predict<K: Send + Sync + 'static>(asked: Asked<K>, prediction: String) {
    asked.update(|q| {
        if let Some(q) = q {
            q.prediction = Some(prediction);
        }
    });
}

/// The open question while it waits for a prediction (tracked).
pub fn waiting<K: Copy + Send + Sync + 'static>(asked: Asked<K>) -> Option<K> {
    asked.with(|q| q.as_ref().filter(|q| q.prediction.is_none()).map(|q| q.which))
}

/// For a lab that replays a run: playback stops, `apply` puts the
/// question's settings on screen (false if they could not be run), and the
/// question opens on the run's start.
pub fn ask_on_replay<R: Replay, K: Send + Sync + 'static>(
    lab: R,
    asked: Asked<K>,
    which: K,
    apply: impl FnOnce() -> bool,
) {
    lab.player().playing.set(false);
    if apply() {
        lab.seek(Millis::ZERO, false);
        ask(asked, which);
    }
}

/// For a lab that replays a run: the reader predicts (or asks to be
/// shown), and the run plays out to its end.
pub fn reveal<R: Replay, K: Send + Sync + 'static>(lab: R, asked: Asked<K>, prediction: String) {
    predict(asked, prediction);
    lab.seek(lab.end(), true);
}
