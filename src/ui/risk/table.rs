//! The database table at the playhead: the incident report's ten columns,
//! status colours, the row that changed last highlighted, and each unique
//! conflict beside the row the insert ran into.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::view::risk::html::table_rows;
use crate::view::risk::table::{COLUMNS, conflicts, latest_change};

use super::super::glossary;
use super::state::Risk;
use crate::view::glossary::RISK_TERMS;

/// What the line over the table says while it is wider than its box.
const TABLE_SCROLLS: &str = "The table is wider than its box: scroll it sideways for every column.";

/// A column's heading: a term of the lab's glossary shows what it means.
fn column(name: &'static str) -> AnyView {
    if crate::view::glossary::meaning(RISK_TERMS, name).is_some() {
        glossary::term_of(RISK_TERMS, name).into_any()
    } else {
        name.into_any()
    }
}

#[component]
pub fn DatabaseTable(risk: Risk) -> impl IntoView {
    let rows = Memo::new(move |_| {
        let t = risk.player.playhead.get();
        let change = risk.run.with(|r| latest_change(r, t));
        let conflicts = risk.run.with(|r| conflicts(r, t));
        risk.snapshot.with(|s| table_rows(&s.rows, change.as_ref(), &conflicts))
    });
    let unique = move || {
        risk.run.with(|r| {
            let s = r.settings().switches;
            let on_off = |on| if on { "on" } else { "off" };
            format!(
                "Unique request_key: {}; unique business_key: {}.",
                on_off(s.unique_request_key),
                on_off(s.unique_business_key)
            )
        })
    };
    // Keep the row that changed last in view inside the table's own
    // scroller (never the page's), once it is drawn; and say when the
    // table is wider than its box, so a cut column reads as one to scroll.
    let scroller = NodeRef::<leptos::html::Div>::new();
    let relaid = super::super::chrome::relayout();
    let wider = RwSignal::new(false);
    Effect::new(move |_| {
        rows.track();
        relaid.track();
        request_animation_frame(move || {
            let Some(el) = scroller.try_get_untracked().flatten() else { return };
            let cut = el.scroll_width() > el.client_width() + 1;
            if wider.try_get_untracked() != Some(cut) {
                wider.set(cut);
            }
            let Some(row) =
                el.query_selector("tr.changed").ok().flatten().and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
            else {
                return;
            };
            let (top, height) = (el.scroll_top(), el.client_height());
            let (row_top, row_height) = (row.offset_top(), row.offset_height());
            // The sticky header covers about one row's height.
            if row_top - row_height < top || row_top + row_height > top + height {
                el.set_scroll_top((row_top - height / 2).max(0));
            }
        });
    });
    view! {
        <section class="panel database" aria-labelledby="database-h">
            <h2 id="database-h">"Database table"</h2>
            <p class="hint">"risk_requests at the playhead. "{unique}" The row that changed last is highlighted."</p>
            {move || wider.get().then(|| view! { <p class="scroll-cue">{TABLE_SCROLLS}</p> })}
            <div class="table-scroll" node_ref=scroller tabindex="0" role="group" aria-label="risk_requests, scrolls within itself">
                <table class="risk-table">
                    <thead>
                        <tr>
                            {COLUMNS.iter().map(|c| view! { <th scope="col">{column(c)}</th> }).collect_view()}
                            <th scope="col">"unique conflicts"</th>
                        </tr>
                    </thead>
                    <tbody inner_html=move || rows.get()></tbody>
                </table>
            </div>
            <p class="empty" hidden=move || risk.snapshot.with(|s| !s.rows.is_empty())>
                "No rows yet."
            </p>
        </section>
    }
}
