//! The storm lab's page: settings for both workloads, the run's totals and
//! charts, the AWS experiment's charts, a sweep heat map and presets.

pub mod state;
mod workbench;

pub use state::Storm;
pub use workbench::StormWorkbench;

use leptos::prelude::*;

use crate::sim::storm::StormSettings;
use crate::sim::storm::settings::WORKLOAD;
use crate::view::storm::STORMS;
use crate::view::url::{decode_b, decode_settings, parse_query};

use super::chrome::CurrentLab;
use super::mount::Boot;

/// The storm lab's page, configured from its link.
#[component]
pub fn StormsApp() -> impl IntoView {
    let boot = Boot::current();
    let link = parse_query(&boot.query, STORMS);
    let page = &link.state.page;
    let theme = RwSignal::new(page.theme);
    Effect::new(move |_| super::dom::set_root_attribute("data-theme", theme.get().name()));
    let (settings, mut notices) = decode_settings::<StormSettings>(&link.state.params);
    super::lesson::follow(&link, STORMS);
    let storm = Storm::new(settings.clone(), page, theme, boot.base);
    // The storm lab's run B changes one setting (not the workload).
    let alone = "The second run was not opened; run A is shown alone.";
    if link.state.asks_b() {
        match decode_b(&settings, &link.state.b_params).as_deref() {
            Ok([]) => storm.open_b_with(None),
            Ok([(param, _)]) if param.name == WORKLOAD.name => {
                notices.push(format!("b.{}: run B uses run A's workload. {alone}", param.link))
            }
            Ok([one]) => storm.open_b_with(Some(*one)),
            Ok(many) => notices
                .push(format!("Run B changes one setting in the storm lab; the link changes {}. {alone}", many.len())),
            Err(message) => notices.push(format!("{message}. {alone}")),
        }
    }
    for n in link.notices.into_iter().chain(notices) {
        storm.notices.notify(n);
    }
    provide_context(CurrentLab(STORMS, theme));
    on_cleanup(move || storm.end());
    view! { <StormWorkbench storm/> }
}
