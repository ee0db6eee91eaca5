//! The storm lab's page: settings for both workloads, the run's totals and
//! charts, the AWS experiment's charts, a sweep heat map and presets.

pub mod state;
mod workbench;

pub use state::Storm;
pub use workbench::StormWorkbench;

use leptos::prelude::*;

use crate::sim::storm::StormSettings;
use crate::view::url::{LabKind, decode_settings, parse_query_on};

use super::chrome::{CurrentLab, pass_on, shown_again};
use super::dom;

/// The storm lab's page, configured from its address.
#[component]
pub fn StormsApp() -> impl IntoView {
    let link = parse_query_on(&dom::lab_query(LabKind::Storms), LabKind::Storms);
    pass_on(link.state.lab, LabKind::Storms);
    let theme = RwSignal::new(link.state.theme);
    Effect::new(move |_| {
        let theme = theme.get();
        if dom::is_showing(LabKind::Storms) {
            dom::set_root_attribute("data-theme", theme.name());
        }
    });
    let (settings, notices) = decode_settings::<StormSettings>(&link.state.lab_params);
    let storm = Storm::new(settings, link.state.embed, theme);
    for n in link.notices.into_iter().chain(notices) {
        storm.notices.notify(n);
    }
    provide_context(CurrentLab(LabKind::Storms, theme));
    let shown = shown_again(LabKind::Storms, theme);
    view! { <StormWorkbench storm shown/> }
}
