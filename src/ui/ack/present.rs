//! Presenting this lab in a lecture: the current event as a large caption
//! (checkpoints and the rest are the same for every lab: `ui::present`).

use leptos::prelude::*;

use crate::view::ack::sentence;

use super::state::Ack;

/// The latest event at or before the playhead, in words, with its time.
pub fn caption_text(ack: &Ack) -> String {
    let t = ack.player.playhead.get();
    ack.run.with(|run| {
        let past = run.records_until(t);
        match past.last() {
            None => format!("{t}: the run has not started; attempt 1 is about to be sent."),
            Some(last) => {
                let here: Vec<String> = past.iter().rev().take_while(|r| r.t == last.t).map(sentence).collect();
                let here: Vec<String> = here.into_iter().rev().collect();
                format!("{}: {}", last.t, here.join(" "))
            }
        }
    })
}

#[component]
pub fn Caption(ack: Ack) -> impl IntoView {
    view! { <p class="caption">{move || caption_text(&ack)}</p> }
}
