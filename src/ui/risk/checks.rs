//! The checks panel: the six acceptance conditions and the three
//! invariants, each holding, failing or not applicable at the playhead,
//! with the figures behind the verdict.

use leptos::prelude::*;

use crate::view::risk::html::check_items;

use super::state::Risk;

#[component]
pub fn ChecksPanel(risk: Risk) -> impl IntoView {
    let list = move |invariants: bool| {
        move || {
            let hidden = risk.answer_hidden();
            risk.checks.with(|c| check_items(c, invariants, hidden))
        }
    };
    let tally = move || {
        if risk.answer_hidden() {
            return "Hidden until you predict.".to_owned();
        }
        risk.checks.with(|c| {
            let n = |h: Option<bool>| c.iter().filter(|x| x.holds == h).count();
            format!("{} hold, {} fail, {} not applicable at the playhead.", n(Some(true)), n(Some(false)), n(None))
        })
    };
    view! {
        <section class="panel checks" aria-labelledby="checks-h">
            <h2 id="checks-h">"Acceptance checks"</h2>
            <p class="hint">"Judged live at the playhead from the run's own records. "{tally}</p>
            <h3 id="conditions-h">"The six conditions"</h3>
            <ul class="check-list" aria-labelledby="conditions-h" inner_html=list(false)></ul>
            <h3 id="invariants-h">"The four invariants"</h3>
            <ul class="check-list" aria-labelledby="invariants-h" inner_html=list(true)></ul>
        </section>
    }
}
