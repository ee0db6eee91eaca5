//! The storm lab's page: settings for both workloads, the run's totals and
//! charts, the AWS experiment's charts, a sweep heat map and presets.

pub mod state;
mod workbench;

pub use state::Storm;
pub use workbench::StormWorkbench;

use leptos::prelude::*;

use crate::sim::storm::StormSettings;
use crate::view::url::{LabKind, decode_settings, parse_query_on};

use super::chrome::{CurrentLab, pass_on};
use super::dom;

/// The storm lab's page, configured from its address.
#[component]
pub fn StormsApp() -> impl IntoView {
    let link = parse_query_on(&dom::location_search(), LabKind::Storms);
    pass_on(link.state.lab, LabKind::Storms);
    let theme = RwSignal::new(link.state.theme);
    Effect::new(move |_| dom::set_root_attribute("data-theme", theme.get().name()));
    let (settings, notices) = decode_settings::<StormSettings>(&link.state.lab_params);
    let storm = Storm::new(settings, link.state.embed, theme);
    for n in link.notices.into_iter().chain(notices) {
        storm.notices.notify(n);
    }
    provide_context(CurrentLab(LabKind::Storms, theme));
    view! { <StormWorkbench storm/> }
}
