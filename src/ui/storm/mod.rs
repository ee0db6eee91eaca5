//! The storm lab's page: settings for both workloads, the run's totals and
//! charts, the AWS experiment's charts, a sweep heat map and presets.

pub mod state;
mod workbench;

pub use state::Storm;
pub use workbench::StormWorkbench;

use leptos::prelude::*;

use crate::sim::storm::StormSettings;
use crate::sim::storm::settings::WORKLOAD;
use crate::view::url::{LabKind, decode_lab_b, decode_settings, parse_query_on};

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
    let (settings, mut notices) = decode_settings::<StormSettings>(&link.state.lab_params);
    let b = decode_lab_b(&settings, &link.state.lab_params);
    let storm = Storm::new(settings, link.state.embed, theme);
    let alone = "The second run was not opened; run A is shown alone.";
    match b.as_ref().map(|b| b.as_ref().map(Vec::as_slice)) {
        None => {}
        Some(Ok([])) => storm.open_b_with(None),
        Some(Ok([(param, _)])) if param.name == WORKLOAD.name => {
            notices.push(format!("b.{}: run B uses run A's workload. {alone}", param.link))
        }
        Some(Ok([one])) => storm.open_b_with(Some(*one)),
        Some(Ok(many)) => notices
            .push(format!("Run B changes one setting in the storm lab; the link changes {}. {alone}", many.len())),
        Some(Err(message)) => notices.push(format!("{message}. {alone}")),
    }
    for n in link.notices.into_iter().chain(notices) {
        storm.notices.notify(n);
    }
    provide_context(CurrentLab(LabKind::Storms, theme));
    let shown = shown_again(LabKind::Storms, theme);
    view! { <StormWorkbench storm shown/> }
}
