//! Terms on the page: a term shows its definition on hover, and the Words
//! panel lists every term of the lab with what it means (the words are
//! `view::glossary`'s).

use leptos::prelude::*;

use crate::view::glossary::{ACK_TERMS, Term, meaning};

/// `name` as a term of the first lab: its definition on hover.
pub fn term(name: &'static str) -> impl IntoView {
    term_of(ACK_TERMS, name)
}

/// `name` as one of `terms`: its definition on hover.
pub fn term_of(terms: &'static [Term], name: &'static str) -> impl IntoView {
    let means = meaning(terms, name).unwrap_or_default();
    view! { <span class="term" title=means>{name}</span> }
}

/// The Words panel: each of `terms` with what it means; its summary names
/// them, so a reader sees at once which words it defines.
pub fn words(terms: &'static [Term]) -> impl IntoView {
    let names = terms.iter().map(|t| t.term).collect::<Vec<_>>().join(", ");
    view! {
        <details class="panel words">
            <summary>"Words used here: "{names}</summary>
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
