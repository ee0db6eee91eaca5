//! The database table at the playhead: the incident report's ten columns,
//! status colours, the row that changed last highlighted, and each unique
//! conflict beside the row the insert ran into.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::view::risk::html::table_rows;
use crate::view::risk::table::{COLUMNS, conflicts, latest_change};

use super::state::Risk;

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
    // scroller (never the page's), once it is drawn.
    let scroller = NodeRef::<leptos::html::Div>::new();
    let relaid = super::super::chrome::relayout();
    Effect::new(move |_| {
        rows.track();
        relaid.track();
        request_animation_frame(move || {
            let Some(el) = scroller.try_get_untracked().flatten() else { return };
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
            <div class="table-scroll" node_ref=scroller tabindex="0" role="group" aria-label="risk_requests, scrolls within itself">
                <table class="risk-table">
                    <thead>
                        <tr>
                            {COLUMNS.iter().map(|c| view! { <th scope="col">{*c}</th> }).collect_view()}
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
