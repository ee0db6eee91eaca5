//! Playback, the same for every lab that replays a run: Play/Pause,
//! stepping between events, Restart, speed, the Time slider and the
//! readout. A lab plugs in through [`Replay`]: where its run ends, its
//! event times and what to say at a moment. The frame loop here is the one
//! place that reads the wall clock.

use leptos::prelude::*;

use crate::sim::Millis;
use crate::view::playback::{Pace, Speed, advance, clock_readout, slider_text, so_far_readout};

use super::dom;
use super::notices::Announcer;
use super::present::Presenter;

/// A lab's playhead, whether it plays and how fast, its frame loop, and
/// the live region that says what a step landed on.
#[derive(Clone, Copy)]
pub struct Player {
    pub playhead: RwSignal<Millis>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<Speed>,
    /// The playing position in inspection milliseconds (kept as a float so
    /// slow speeds still advance frame by frame).
    inspection: StoredValue<f64>,
    /// Bumped whenever playback starts, so a stale frame loop stops.
    generation: StoredValue<u32>,
    pub announcer: Announcer,
}

impl Player {
    /// Paused at `playhead`.
    pub fn new(playhead: Millis) -> Player {
        Player {
            playhead: RwSignal::new(playhead),
            playing: RwSignal::new(false),
            speed: RwSignal::new(Speed::One),
            inspection: StoredValue::new(0.0),
            generation: StoredValue::new(0),
            announcer: Announcer::new(),
        }
    }

    /// Puts `text` in the live region.
    pub fn say(&self, text: String) {
        self.announcer.say(text);
    }
}

/// What a lab gives playback. The provided methods (seeking, stepping,
/// playing) are the same for every lab; a lab implements the rest.
pub trait Replay: Copy + Send + Sync + 'static {
    fn player(&self) -> Player;
    /// Where playback ends.
    fn end(&self) -> Millis;
    /// Where playback ends, tracked (the slider's range follows it).
    fn end_tracked(&self) -> Millis;
    /// The first event time after `t`, if any.
    fn next_event_time(&self, t: Millis) -> Option<Millis>;
    /// The last event time before `t`, if any.
    fn previous_event_time(&self, t: Millis) -> Option<Millis>;
    /// Says in the live region what happens at `t` (a step landed there).
    fn announce_at(&self, t: Millis);

    /// The lab's own wall clock at `t`, shown beside model time, if it has
    /// one.
    fn wall_clock(_t: Millis) -> Option<String> {
        None
    }

    /// The lab's presenting (presenter mode, checkpoints, its lesson), if
    /// it has them.
    fn presenter(&self) -> Option<Presenter> {
        None
    }

    /// Whether what is still to come is hidden (tracked): the readout then
    /// leaves the run's end unsaid.
    fn future_hidden(&self) -> bool {
        self.presenter().is_some_and(|p| p.future_hidden())
    }

    /// Stops playback on its way from `from` to `to` at a moment the reader
    /// asked to stop at (a checkpoint); true if it did.
    fn stop_between(&self, from: Millis, to: Millis) -> bool {
        self.presenter().is_some_and(|p| p.stop_between(*self, from, to))
    }

    /// Playback is about to start: a checkpoint's question goes.
    fn before_play(&self) {
        if let Some(p) = self.presenter() {
            p.checkpoint.set(None);
        }
    }

    /// Escape was pressed: true if the lab had a use for it (it leaves
    /// presenter mode).
    fn escape(&self) -> bool {
        self.presenter().is_some_and(|p| p.escape())
    }

    /// Every event time of the run, in order (what a replay paced by
    /// events stops at).
    fn moments(&self) -> Vec<Millis> {
        std::iter::successors(self.next_event_time(Millis::ZERO), |&t| self.next_event_time(t)).collect()
    }

    /// Keeps the frame loop's position in step with the playhead.
    fn sync_inspection(&self) {
        let player = self.player();
        let moments = self.moments();
        let pace = Pace { end: self.end(), moments: &moments, speed: player.speed.get_untracked() };
        player.inspection.set_value(pace.inspection_at(player.playhead.get_untracked()));
    }

    /// Moves the playhead; `announce` says what happens there in the live
    /// region (for steps, not for scrubbing or playing).
    fn seek(&self, t: Millis, announce: bool) {
        let t = t.min(self.end());
        self.player().playhead.set(t);
        self.sync_inspection();
        if announce {
            self.announce_at(t);
            if let Some(p) = self.presenter() {
                p.stepped_onto(self.player(), t);
            }
        }
    }

    fn next_event(&self) {
        let t = self.player().playhead.get_untracked();
        match self.next_event_time(t) {
            Some(next) => self.seek(next, true),
            None => self.player().say(format!("End of the run at {}.", self.end())),
        }
    }

    fn previous_event(&self) {
        let t = self.player().playhead.get_untracked();
        match self.previous_event_time(t) {
            Some(previous) => self.seek(previous, true),
            None if t > Millis::ZERO => self.seek(Millis::ZERO, true),
            None => self.player().say("Start of the run.".to_owned()),
        }
    }

    /// PageDown and PageUp, what a presentation clicker sends: the next or
    /// previous step of the lesson on screen, or else the next or previous
    /// event.
    fn page_step(&self, forward: bool) {
        let by = if forward { 1 } else { -1 };
        if self.presenter().is_some_and(|p| p.step_lesson(*self, by)) {
            return;
        }
        if forward { self.next_event() } else { self.previous_event() }
    }

    /// The down and up arrows in presenter mode, what some clickers send:
    /// the next or previous step of the lesson on screen. False where
    /// there is none, or out of presenter mode, so the page scrolls.
    fn arrow_step(&self, forward: bool) -> bool {
        let by = if forward { 1 } else { -1 };
        self.presenter().is_some_and(|p| p.present.get_untracked() && p.step_lesson(*self, by))
    }

    fn restart(&self) {
        self.player().playing.set(false);
        self.seek(Millis::ZERO, true);
    }

    fn toggle_play(&self) {
        let playing = self.player().playing;
        if playing.get_untracked() {
            playing.set(false);
        } else {
            self.before_play();
            if self.player().playhead.get_untracked() >= self.end() {
                self.seek(Millis::ZERO, false);
            }
            self.play();
        }
    }

    /// Plays from the playhead; an older frame loop notices the new
    /// generation and stops.
    fn play(&self) {
        let player = self.player();
        // The end may have moved since the playhead did (run B opened,
        // changed or closed): the position follows the playhead.
        self.sync_inspection();
        player.playing.set(true);
        let generation = player.generation.get_value().wrapping_add(1);
        player.generation.set_value(generation);
        let now = dom::now_ms();
        let lab = *self;
        request_animation_frame(move || frame(lab, generation, now));
    }
}

fn frame<R: Replay>(lab: R, generation: u32, last: f64) {
    let player = lab.player();
    // A newer loop took over, playback stopped, or the app was unmounted
    // (its state is gone: the page that hosts every lab replaced it).
    if player.generation.try_get_value() != Some(generation) || player.playing.try_get_untracked() != Some(true) {
        return;
    }
    let now = dom::now_ms();
    let moments = lab.moments();
    let pace = Pace { end: lab.end(), moments: &moments, speed: player.speed.get_untracked() };
    let total = pace.total();
    let inspection = advance(player.inspection.get_value(), now - last, pace.speed, total);
    player.inspection.set_value(inspection);
    let t = pace.model_at(inspection);
    let playhead = player.playhead;
    let from = playhead.get_untracked();
    if lab.stop_between(from, t) {
        return;
    }
    if t != from {
        playhead.set(t);
    }
    if inspection >= total {
        player.playing.set(false);
        return;
    }
    request_animation_frame(move || frame(lab, generation, now));
}

/// The playback panel, with no buttons but the ones every lab has.
#[component]
pub fn Playback<R: Replay>(lab: R) -> impl IntoView {
    playback(lab, ())
}

/// The playback panel; `extra` are the lab's own buttons, after Restart.
pub fn playback<R: Replay>(lab: R, extra: impl IntoView) -> impl IntoView {
    let end = move || lab.end_tracked();
    let player = lab.player();
    let playhead = player.playhead;
    let opening_speed = player.speed.get_untracked();
    // Another lab chosen: playback stops at once, not when that lab arrives.
    super::mount::on_chosen_away(move || {
        if player.playing.try_get_untracked() == Some(true) {
            player.playing.set(false);
        }
    });
    view! {
        <section class="panel playback" aria-labelledby="playback-h">
            <h2 id="playback-h" class="visually-hidden">"Playback"</h2>
            <div class="playback-buttons">
                <button type="button" class="primary play" aria-keyshortcuts="Space" on:click=move |_| lab.toggle_play()>
                    {move || if player.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" aria-keyshortcuts="ArrowLeft" on:click=move |_| lab.previous_event()>
                    "Previous event"
                </button>
                <button type="button" aria-keyshortcuts="ArrowRight" on:click=move |_| lab.next_event()>
                    "Next event"
                </button>
                <button type="button" aria-keyshortcuts="Home" on:click=move |_| lab.restart()>
                    "Restart"
                </button>
                {extra}
                <span class="speed">
                    <label for="speed">"Speed"</label>
                    <select
                        id="speed"
                        prop:value=move || player.speed.get().label()
                        on:change:target=move |ev| {
                            if let Some(speed) = Speed::from_label(&ev.target().value()) {
                                player.speed.set(speed);
                                // The same playhead sits elsewhere on a replay
                                // paced differently.
                                lab.sync_inspection();
                            }
                        }
                    >
                        // `prop:value` is set before the options exist, so the first
                        // choice is also marked in the markup.
                        {Speed::ALL
                            .into_iter()
                            .map(|s| view! { <option value=s.label() selected=s == opening_speed>{s.label()}</option> })
                            .collect_view()}
                    </select>
                </span>
            </div>
            <div class="scrub">
                <label for="time">"Time"</label>
                <input
                    id="time"
                    type="range"
                    min="0"
                    step="1"
                    max=move || end().ms().to_string()
                    prop:value=move || playhead.get().ms().to_string()
                    aria-valuetext=move || {
                        let t = playhead.get();
                        let end = (!lab.future_hidden()).then(end);
                        slider_text(t, end, R::wall_clock(t).as_deref())
                    }
                    on:input:target=move |ev| {
                        if let Ok(ms) = ev.target().value().parse::<u64>() {
                            lab.seek(Millis(ms), false);
                        }
                    }
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        // The slider's step is one millisecond, so that it can
                        // land on any event; arrow keys move a hundredth of the
                        // run instead, which is what a person scrubbing wants.
                        let sign: i64 = match ev.key().as_str() {
                            "ArrowRight" | "ArrowUp" => 1,
                            "ArrowLeft" | "ArrowDown" => -1,
                            _ => return,
                        };
                        ev.prevent_default();
                        let end = end().ms();
                        let step = (end / 100).max(1) as i64;
                        let t = (playhead.get_untracked().ms() as i64 + sign * step).clamp(0, end as i64);
                        lab.seek(Millis(t as u64), false);
                    }
                />
            </div>
            <p class="readout">
                <output for="time">
                    {move || {
                        let t = playhead.get();
                        let end = end();
                        let moments = lab.moments();
                        let pace = Pace { end, moments: &moments, speed: player.speed.get() };
                        let wall = R::wall_clock(t);
                        if lab.future_hidden() {
                            so_far_readout(t, wall.as_deref())
                        } else {
                            clock_readout(t, &pace, wall.as_deref())
                        }
                    }}
                </output>
            </p>
        </section>
    }
}

/// Keeps the playhead in view of `scroller` as it moves, without fighting a
/// reader who scrolls while paused: `p` is the playhead's place in the
/// scrolled box (an x across, a y down) and `pinned` what the pinned lane
/// titles cover at the left of a timeline.
pub fn follow(scroller: &web_sys::Element, p: f64, down: bool, pinned: f64) {
    if down {
        let (top, shown) = (f64::from(scroller.scroll_top()), f64::from(scroller.client_height()));
        let header = crate::view::timeline::sequence::HEADER_H;
        if p < top + header + 12.0 || p > top + shown - 32.0 {
            scroller.set_scroll_top((p - shown / 3.0).max(0.0) as i32);
        }
    } else {
        let (left, shown) = (f64::from(scroller.scroll_left()), f64::from(scroller.client_width()));
        if p < left + pinned + 20.0 || p > left + shown - 40.0 {
            scroller.set_scroll_left((p - shown / 3.0).max(0.0) as i32);
        }
    }
}
