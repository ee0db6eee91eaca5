//! Terms on the page: a term shows its definition on hover, and the Words
//! panel lists every term of the lab with what it means (the words are
//! `view::glossary`'s).

use leptos::prelude::*;

use crate::view::glossary::{ACK_TERMS, Term, meaning};

/// `name` as a term: its definition on hover.
pub fn term(name: &'static str) -> impl IntoView {
    let means = meaning(ACK_TERMS, name).unwrap_or_default();
    view! { <span class="term" title=means>{name}</span> }
}

/// The Words panel: each of `terms` with what it means.
pub fn words(terms: &'static [Term]) -> impl IntoView {
    view! {
        <details class="panel words">
            <summary>"Words used here"</summary>
            <dl>
                {terms
                    .iter()
                    .map(|t| {
                        view! {
                            <dt>{t.term}</dt>
                            <dd>{t.means}</dd>
                        }
                    })
                    .collect_view()}
            </dl>
        </details>
    }
}
