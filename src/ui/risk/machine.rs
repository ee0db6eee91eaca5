//! The rows' state machine at the playhead: the five statuses with the
//! legal transitions, the rows in each status, and every illegal
//! transition taken so far drawn in red with its cause; beside it, the
//! transitions taken so far as a list.

use leptos::prelude::*;

use crate::view::risk::html::{machine_svg, taken_list};
use crate::view::risk::machine::{describe, machine};

use super::state::Risk;

#[component]
pub fn StateMachine(risk: Risk) -> impl IntoView {
    let markup = Memo::new(move |_| {
        let t = risk.player.playhead.get();
        let m = risk.run.with(|r| machine(r, t));
        (machine_svg(&m, &describe(&m)), taken_list(&m))
    });
    view! {
        <section class="panel machine" aria-labelledby="machine-h">
            <h2 id="machine-h">"State machine"</h2>
            <p class="hint">
                "The only legal transitions, with each row placed at its status at the playhead. An illegal transition is drawn in red with its cause."
            </p>
            <div class="machine-body">
                <div
                    class="machine-frame"
                    tabindex="0"
                    role="group"
                    aria-label="State machine drawing"
                    inner_html=move || markup.with(|m| m.0.clone())
                ></div>
                <div class="machine-side">
                    <h3 id="taken-h">"Transitions so far"</h3>
                    <ul class="taken-list" aria-labelledby="taken-h" inner_html=move || markup.with(|m| m.1.clone())></ul>
                </div>
            </div>
        </section>
    }
}
