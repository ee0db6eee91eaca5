//! The risk-review lab's page.

use leptos::prelude::*;

use crate::view::url::{LabKind, parse_query_on};

use super::app::{CurrentLab, LabSwitcher, ThemePicker};
use super::dom;

/// The risk-review lab's page, configured from its address.
#[component]
pub fn RiskApp() -> impl IntoView {
    let link = parse_query_on(&dom::location_search(), LabKind::Risk);
    if link.state.lab != LabKind::Risk {
        dom::navigate(&super::app::lab_address(link.state.lab, LabKind::Risk, &dom::location_search()));
    }
    let theme = RwSignal::new(link.state.theme);
    Effect::new(move |_| dom::set_root_attribute("data-theme", theme.get().name()));
    provide_context(CurrentLab(LabKind::Risk, theme));
    view! {
        <div class="app risk">
            <header class="masthead">
                <div class="brand">
                    <h1>"Idempotency Lab"</h1>
                </div>
                <LabSwitcher/>
                <ThemePicker theme/>
            </header>
        </div>
    }
}
