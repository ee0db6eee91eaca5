//! The crash matrix: every crash point against every store, under the
//! reader's other settings; each cell links to its run.

use leptos::prelude::*;

use crate::view::ack::matrix::{crash_heading, crash_matrix, store_heading};
use crate::view::url::{LinkState, settings_params};

use super::super::replayed::LabPage;
use super::super::share::share_url;
use super::state::Ack;

#[component]
pub fn CrashMatrix(ack: Ack) -> impl IntoView {
    let matrix = Memo::new(move |_| ack.run.with(|r| crash_matrix(r.settings())));
    let current = move || ack.run.with(|r| (r.settings().crash(), r.settings().store_kind()));
    let rows = move || {
        matrix.with(|m| {
            m.iter()
                .map(|row| {
                    let heading = row.iter().flatten().next().map_or("", |c| crash_heading(c.crash));
                    let cells = row
                        .iter()
                        .map(|cell| match cell {
                            None => view! { <td>"could not be simulated"</td> }.into_any(),
                            Some(cell) => {
                                let settings = cell.settings.clone();
                                let href =
                                    share_url(&LinkState { params: settings_params(&settings), ..ack.link_state() });
                                let here = (cell.crash, cell.store);
                                let trouble = cell.is_trouble();
                                view! {
                                    <td class:trouble=trouble class:current=move || current() == here>
                                        <a
                                            href=href
                                            aria-current=move || (current() == here).then_some("true")
                                            on:click=move |ev| {
                                                ev.prevent_default();
                                                ack.experiment.set(None);
                                                ack.apply(settings.clone());
                                            }
                                        >
                                            {cell.text()}
                                        </a>
                                    </td>
                                }
                                .into_any()
                            }
                        })
                        .collect_view();
                    view! {
                        <tr>
                            <th scope="row">{heading}</th>
                            {cells}
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let columns = crate::sim::ack::StoreKind::ALL
        .into_iter()
        .map(|store| view! { <th scope="col">{store_heading(store)}</th> })
        .collect_view();
    panel(view! {
            <p class="hint" hidden=move || !ack.answer_hidden()>
                "Make your prediction in the experiment to reveal the matrix."
            </p>
            <div class="matrix-scroll" hidden=move || ack.answer_hidden()>
                <table>
                    <caption class="visually-hidden">"Crash point by deduplication store"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Crash point"</th>
                            {columns}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
    })
}

/// The crash matrix's panel, its heading and what it shows, around `body`
/// (the table).
fn panel(body: impl IntoView) -> impl IntoView {
    view! {
        <section class="panel matrix" aria-labelledby="matrix-h">
            <h2 id="matrix-h" tabindex="-1">"Crash matrix"</h2>
            <p class="hint">
                "Each cell is this run with one crash point and one store: the ledger's increments and the client's outcome. Choose a cell to open its run."
            </p>
            {body}
        </section>
    }
}
