//! Presenting in a lecture, the same for every lab that replays a run:
//! presenter mode, prediction checkpoints pinned to moments (playback
//! stops at one, and its question stays on screen until the presenter
//! continues), the future hidden rather than greyed, and the lesson being
//! taught. A lab keeps a [`Presenter`] and hands it to playback through
//! [`Replay::presenter`]; playback then stops at checkpoints, Escape leaves
//! presenter mode and PageDown steps through the lesson, in every lab.

use leptos::prelude::*;

use super::element::Host;

use crate::sim::Millis;
use crate::view::lesson::LessonAt;
use crate::view::page::{MAX_PINS, Page, Pin, clean_question};

use super::chrome::Look;
use super::lesson;
use super::playback::{Player, Replay};

/// How much larger a diagram is drawn when presenting: its 12 px labels
/// become 24 px.
pub const PRESENT_SCALE: f64 = 2.0;

#[derive(Clone, Copy)]
pub struct Presenter {
    /// Presenter mode: the diagram large, the caption, no settings.
    pub present: RwSignal<bool>,
    /// Prediction checkpoints, in time order.
    pub pins: RwSignal<Vec<Pin>>,
    /// The checkpoint on screen, if playback stopped at one (an index into `pins`).
    pub checkpoint: RwSignal<Option<usize>>,
    /// The reader asked for what is still to come to be hidden.
    pub hide_future: RwSignal<bool>,
    /// The lesson being taught, at the step on screen.
    pub lesson: StoredValue<Option<LessonAt>>,
    /// Whether Continue resumes playing (playback stopped at the checkpoint).
    resume: StoredValue<bool>,
    look: Look,
    /// Where the lab lives: a lesson's steps stay there.
    host: Host,
}

/// Where a pin stops playback moving from `from` to `to`: the earliest pin
/// after `from` and at or before `to`.
pub fn pin_between(pins: &[Pin], from: Millis, to: Millis) -> Option<usize> {
    pins.iter().enumerate().filter(|(_, p)| from < p.at && p.at <= to).min_by_key(|(_, p)| p.at).map(|(i, _)| i)
}

impl Presenter {
    /// What `page` says of presenting, for a run (or runs) ending at `end`:
    /// a checkpoint past the end is left out, with a notice in `notices`.
    pub fn new(page: &Page, look: Look, end: Millis, notices: &mut Vec<String>) -> Presenter {
        let mut pins = Vec::new();
        for pin in page.pins.iter().take(MAX_PINS) {
            if pin.at > end {
                notices.push(format!(
                    "pin: {} is past the end of this run ({end}); that checkpoint was left out.",
                    pin.at
                ));
            } else {
                pins.push(pin.clone());
            }
        }
        Presenter {
            present: RwSignal::new(page.present),
            pins: RwSignal::new(pins),
            checkpoint: RwSignal::new(None),
            hide_future: RwSignal::new(false),
            lesson: StoredValue::new(page.lesson.clone()),
            resume: StoredValue::new(false),
            look,
            host: Host::current(),
        }
    }

    /// Writes presenter mode, the checkpoints and the lesson into a link's
    /// page parameters.
    pub fn keep_in(&self, page: &mut Page) {
        page.present = self.present.get_untracked();
        page.pins = self.pins.get_untracked();
        page.lesson = self.lesson.get_value();
    }

    /// Tracks what [`Self::keep_in`] writes (for the address bar).
    pub fn track(&self) {
        self.present.track();
        self.pins.track();
    }

    /// True where marks and labels after the playhead are hidden, not
    /// greyed: in presenter mode, at a checkpoint, or because the reader
    /// asked.
    pub fn future_hidden(&self) -> bool {
        self.hide_future.get() || self.present.get() || self.checkpoint.get().is_some()
    }

    /// True where the end of the run stays unsaid: in presenter mode and at
    /// a checkpoint.
    pub fn end_hidden(&self) -> bool {
        self.present.get() || self.checkpoint.get().is_some()
    }

    /// Shows checkpoint `i`'s question; `resume` says whether Continue
    /// plays on (playback stopped there) or only dismisses it (a step).
    pub fn show_checkpoint(&self, player: Player, i: usize, resume: bool) {
        self.resume.set_value(resume);
        self.checkpoint.set(Some(i));
        if let Some(pin) = self.pins.with_untracked(|p| p.get(i).cloned()) {
            player.say(format!("Checkpoint at {}: {}", pin.at, pin.question));
        }
    }

    pub fn continue_from<R: Replay>(&self, lab: R) {
        self.checkpoint.set(None);
        if self.resume.get_value() && !lab.player().playing.get_untracked() {
            lab.play();
        }
    }

    /// Pins a checkpoint (replacing one at the same moment).
    pub fn pin(&self, player: Player, pin: Pin) {
        let at = pin.at;
        self.pins.update(|p| {
            p.retain(|x| x.at != at);
            if p.len() < MAX_PINS {
                p.push(pin);
                p.sort_by_key(|x| x.at);
            }
        });
        self.checkpoint.set(None);
        player.say(format!("Checkpoint pinned at {at}."));
    }

    pub fn unpin(&self, i: usize) {
        self.checkpoint.set(None);
        self.pins.update(|p| {
            if i < p.len() {
                p.remove(i);
            }
        });
    }

    /// Stepping onto a checkpoint shows its question too.
    pub fn stepped_onto(&self, player: Player, t: Millis) {
        if let Some(i) = self.pins.with_untracked(|p| p.iter().position(|p| p.at == t)) {
            self.show_checkpoint(player, i, false);
        }
    }

    /// A checkpoint on the way stops playback exactly at it.
    pub fn stop_between<R: Replay>(&self, lab: R, from: Millis, to: Millis) -> bool {
        let Some((i, at)) = self.pins.with_untracked(|p| pin_between(p, from, to).map(|i| (i, p[i].at))) else {
            return false;
        };
        lab.player().playing.set(false);
        lab.seek(at, false);
        self.show_checkpoint(lab.player(), i, true);
        true
    }

    /// Escape leaves presenter mode; true if it was on.
    pub fn escape(&self) -> bool {
        let presenting = self.present.get_untracked();
        if presenting {
            self.present.set(false);
        }
        presenting
    }

    /// Moves `by` steps through the lesson; false if there is none.
    pub fn step_lesson(&self, player: Player, by: isize) -> bool {
        let Some(at) = self.lesson.get_value() else { return false };
        let mut page = Page { present: self.present.get_untracked(), ..Page::default() };
        self.look.keep_in(&mut page);
        lesson::step_by(&at, &page, self.host, by, |t| player.say(t));
        true
    }
}

/// The checkpoint playback stopped at: its question, and Continue.
pub fn checkpoint_prompt<R: Replay>(lab: R, p: Presenter) -> impl IntoView {
    let current = move || {
        let i = p.checkpoint.get()?;
        p.pins.with(|pins| pins.get(i).cloned())
    };
    let button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if p.checkpoint.get().is_some()
            && let Some(b) = button.get()
        {
            let _ = b.focus();
        }
    });
    move || {
        current().map(|pin| {
            view! {
                <section class="checkpoint-prompt" aria-labelledby="checkpoint-h">
                    <h2 id="checkpoint-h">{format!("Checkpoint at {}", pin.at)}</h2>
                    <p class="checkpoint-question">{pin.question}</p>
                    <button type="button" class="primary" node_ref=button on:click=move |_| p.continue_from(lab)>
                        "Continue"
                    </button>
                </section>
            }
        })
    }
}

/// Pinning checkpoints at the playhead, and the list of them; `suggested`
/// is the question a new checkpoint offers.
pub fn checkpoints<R: Replay>(
    lab: R,
    p: Presenter,
    suggested: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let question = RwSignal::new(String::new());
    let player = lab.player();
    let pin = move |_| {
        let at = player.playhead.get_untracked();
        let text = clean_question(&question.get_untracked());
        p.pin(player, Pin { at, question: text });
        question.set(String::new());
    };
    let full = move || p.pins.with(|pins| pins.len() >= MAX_PINS);
    let list = move || {
        p.pins
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, pin)| {
                let at = pin.at;
                view! {
                    <li>
                        <button type="button" class="link" on:click=move |_| lab.seek(at, true)>
                            {format!("{}: {}", pin.at, pin.question)}
                        </button>
                        " "
                        <button
                            type="button"
                            class="link"
                            aria-label=format!("Remove the checkpoint at {}", pin.at)
                            on:click=move |_| p.unpin(i)
                        >
                            "Remove"
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <section class="panel checkpoints" aria-labelledby="checkpoints-h">
            <h2 id="checkpoints-h">"Checkpoints"</h2>
            <p class="hint">
                "Pin a question to the moment at the playhead: playing stops there and shows it until you continue. Checkpoints are kept in the link."
            </p>
            <div class="field">
                <label for="pin-question">{move || format!("Question at {}", player.playhead.get())}</label>
                <input
                    id="pin-question"
                    type="text"
                    autocomplete="off"
                    maxlength="200"
                    placeholder=suggested
                    prop:value=move || question.get()
                    on:input:target=move |ev| question.set(ev.target().value())
                />
            </div>
            <button type="button" on:click=pin disabled=full>
                "Pin a checkpoint"
            </button>
            <ul class="pin-list">{list}</ul>
        </section>
    }
}

/// The "Hide the future" switch (`id` names its control).
fn hide_future_toggle(p: Presenter, id: String) -> impl IntoView {
    view! {
        <p class="hide-future-toggle">
            <input
                type="checkbox"
                id=id.clone()
                prop:checked=move || p.hide_future.get()
                on:change:target=move |ev| p.hide_future.set(ev.target().checked())
            />
            <label for=id>"Hide the future"</label>
        </p>
    }
}

/// What run A's timeline says above it: how to read it (`hints`, across
/// and down, as the layout on screen), then "Hide the future" and the
/// layout.
pub fn timeline_intro(
    hints: [&'static str; 2],
    downward: Signal<bool>,
    p: Presenter,
    hide_id: String,
    layout: RwSignal<crate::view::page::Layout>,
    layout_id: &'static str,
) -> impl IntoView {
    view! {
        <p class="hint">{move || hints[usize::from(downward.get())]}</p>
        <div class="timeline-controls">
            {hide_future_toggle(p, hide_id)} {super::chrome::layout_picker(layout, layout_id)}
        </div>
    }
}

/// Presenter mode's bar: the name and the way out.
pub fn present_bar(p: Presenter) -> impl IntoView {
    view! {
        <header class="present-bar">
            <p class="present-title">"Idempotency Lab"</p>
            <button type="button" aria-keyshortcuts="Escape" on:click=move |_| p.present.set(false)>
                "Exit presentation"
            </button>
        </header>
    }
}
