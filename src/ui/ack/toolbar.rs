//! The first lab's toolbar: the shared one (`share::toolbar`, which the
//! lab's page plugs into through `replayed::LabPage`) with its own two
//! buttons, Compare with… and Present.

use leptos::prelude::*;

use super::super::compare::compare_button;
use super::super::share::toolbar;
use super::state::Ack;

/// The shared toolbar with this lab's Compare with… and Present.
pub fn lab_toolbar(ack: Ack, on_shortcuts: Callback<()>) -> impl IntoView {
    let extra = view! {
        {compare_button(ack.compare, move || ack.toggle_compare())}
        <button type="button" on:click=move |_| ack.presenter.present.set(true)>
            "Present"
        </button>
    };
    toolbar(ack, on_shortcuts, extra)
}
