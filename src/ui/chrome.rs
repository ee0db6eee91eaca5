//! What every lab's page has around its lab: the masthead (the name, a
//! tagline, the Lab switcher, the page's toolbar and the theme), how the
//! page looks (its theme, a host's accent and font), the way a link naming
//! another lab is passed on to that lab's page, and an embed's link back
//! to the full page.

use leptos::prelude::*;

use crate::view::url::{Font, LabKind, LinkState, Theme};

use super::dom;
use super::element::Host;

/// How a page looks: its theme, which the reader may change, and a host's
/// accent colour and font from the link; all three are kept in shared links.
#[derive(Clone, Copy)]
pub struct Look {
    pub theme: RwSignal<Theme>,
    /// The accent colour (hex digits) and the font.
    host: StoredValue<(Option<String>, Option<Font>)>,
}

impl Look {
    pub fn new(link: &LinkState) -> Look {
        Look { theme: RwSignal::new(link.theme), host: StoredValue::new((link.accent.clone(), link.font)) }
    }

    /// Shows the look on `host` (the page's root element or a custom
    /// element): the theme as `data-theme`, following the reader's choice,
    /// and the accent and font as CSS properties, set through the CSSOM
    /// (which the Content-Security-Policy allows, unlike inline style
    /// attributes).
    pub fn show_on(&self, host: Host) {
        let theme = self.theme;
        // A lab made ready out of sight leaves the page's look alone.
        let showing = shown_here();
        let mine = move || host.is_element() || showing();
        Effect::new(move |_| {
            let theme = theme.get();
            if mine() {
                host.set_attribute("data-theme", theme.name());
            }
        });
        if !mine() {
            return;
        }
        self.host.with_value(|(accent, font)| {
            if let Some(hex) = accent {
                host.set_property("--il-accent", &format!("#{hex}"));
            }
            if let Some(font) = font {
                host.set_property("--il-font", font.family());
            }
        });
    }

    /// Writes the look into a link.
    pub fn keep_in(&self, state: &mut LinkState) {
        state.theme = self.theme.get_untracked();
        (state.accent, state.font) = self.host.get_value();
    }
}

/// The lab this page shows, and its theme, for the "Lab" switcher.
#[derive(Clone, Copy)]
pub struct CurrentLab(pub LabKind, pub RwSignal<Theme>);

/// The address of `to`'s page seen from `from`'s page, with `query`.
pub fn lab_address(to: LabKind, from: LabKind, query: &str) -> String {
    let root = if from == LabKind::Ack { "./" } else { "../" };
    let page = match to {
        LabKind::Ack => "",
        LabKind::Storms => "storms/",
        LabKind::Risk => "risk/",
    };
    let query = query.trim_start_matches('?');
    if query.is_empty() { format!("{root}{page}") } else { format!("{root}{page}?{query}") }
}

/// The "Lab" switcher. On the page that hosts every lab, switching shows
/// the other lab in place (set aside, each keeps its state); on a lab's own
/// page it opens the other lab's page. Either way the theme comes along.
#[component]
pub fn LabSwitcher() -> impl IntoView {
    let Some(CurrentLab(current, theme)) = use_context::<CurrentLab>() else {
        return ().into_any();
    };
    // A form of its own: a browser that tracks the form control changed
    // last reads that control's form again when the address changes, and
    // alone in its form the switcher is all there is to read (not every
    // control of every lab on the page).
    view! {
        <form class="lab-switcher" on:submit=|ev| ev.prevent_default()>
            <label for="lab-switch">"Lab"</label>
            <select
                id="lab-switch"
                on:change:target=move |ev| {
                    if let Some(to) = LabKind::ALL.into_iter().find(|k| k.name() == ev.target().value())
                        && to != current
                    {
                        let mut query = format!("lab={}", to.name());
                        let theme = theme.get_untracked();
                        if theme != Theme::Auto {
                            query.push_str(&format!("&theme={}", theme.name()));
                        }
                        if dom::switch_lab(to, &query) {
                            // This lab is set aside; shown again, its
                            // switcher names it.
                            ev.target().set_value(current.name());
                        } else {
                            dom::navigate(&lab_address(to, current, &query));
                        }
                    }
                }
            >
                {[LabKind::Ack, LabKind::Risk, LabKind::Storms]
                    .into_iter()
                    .map(|k| view! { <option value=k.name() selected=k == current>{k.label()}</option> })
                    .collect_view()}
            </select>
        </form>
    }
    .into_any()
}

/// Whether the lab being built is the one the reader sees, asked later
/// (from an event or an effect): always true on a lab's own page, in a
/// custom element and in a component mounted alone; on the page that
/// hosts every lab, true for the shown lab only.
pub fn shown_here() -> impl Fn() -> bool + Copy + 'static {
    let lab = use_context::<CurrentLab>().map(|c| c.0);
    move || lab.is_none_or(dom::is_showing)
}

/// Calls `f` each time the page that hosts every lab shows a lab (this
/// one or another), for as long as the calling component lives.
fn on_lab_shown(f: impl Fn() + 'static) {
    let handle = window_event_listener_untyped("idempotency-lab:shown", move |_| f());
    on_cleanup(move || handle.remove());
}

/// Calls `f` when the page that hosts every lab sets the lab being built
/// aside, showing another.
pub fn on_set_aside(f: impl Fn() + 'static) {
    let showing = shown_here();
    on_lab_shown(move || {
        if !showing() {
            f();
        }
    });
}

/// Fires each time the page that hosts every lab shows `lab` again, after
/// `lab` has taken the theme the reader had on the lab they left. Whatever
/// a lab keeps in the address tracks it, so the address is the shown
/// lab's again.
pub fn shown_again(lab: LabKind, theme: RwSignal<Theme>) -> Trigger {
    let shown = Trigger::new();
    on_lab_shown(move || {
        if !dom::is_showing(lab) {
            return;
        }
        let page_theme = dom::document()
            .and_then(|d| d.document_element())
            .and_then(|root| root.get_attribute("data-theme"))
            .and_then(|name| Theme::ALL.into_iter().find(|t| t.name() == name));
        if let Some(t) = page_theme {
            theme.set(t);
        }
        shown.notify();
    });
    shown
}

/// Moves when what a lab measures from its layout (a chart's width) needs
/// measuring again: the window was resized while the lab is shown, or the
/// page that hosts every lab shows it again. A lab set aside is not
/// measured again (it is hidden, keeping the layout it had).
pub fn relayout() -> ReadSignal<u32> {
    let showing = shown_here();
    let count = RwSignal::new(0u32);
    let bump = move || {
        if showing() {
            count.update(|n| *n = n.wrapping_add(1));
        }
    };
    let resize = window_event_listener(leptos::ev::resize, move |_| bump());
    on_cleanup(move || resize.remove());
    on_lab_shown(bump);
    count.read_only()
}

/// A link naming another lab than `page`'s belongs on that lab's page:
/// the browser goes there with the same query.
pub fn pass_on(named: LabKind, page: LabKind) {
    if named != page {
        dom::navigate(&lab_address(named, page, &dom::location_search()));
    }
}

/// The masthead: the name, the lab's `tagline`, the Lab switcher, the
/// page's `toolbar` and the theme picker.
pub fn masthead(tagline: &'static str, theme: RwSignal<Theme>, toolbar: impl IntoView) -> impl IntoView {
    view! {
        <header class="masthead">
            <div class="brand">
                <h1>"Idempotency Lab"</h1>
                <p class="tagline">{tagline}</p>
            </div>
            <LabSwitcher/>
            {toolbar}
            <ThemePicker theme/>
        </header>
    }
}

/// An embed's footer: a link that opens the full page (`href`) in a new tab.
pub fn embed_footer(href: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    view! {
        <p class="embed-footer">
            <a href=href target="_blank" rel="noopener">
                "Open in Idempotency Lab"
            </a>
        </p>
    }
}

#[component]
pub fn ThemePicker(theme: RwSignal<Theme>) -> impl IntoView {
    view! {
        <div class="theme-picker">
            <label for="theme">"Theme"</label>
            <select
                id="theme"
                on:change:target=move |ev| {
                    if let Some(t) = Theme::ALL.into_iter().find(|t| t.name() == ev.target().value()) {
                        theme.set(t);
                    }
                }
            >
                {Theme::ALL
                    .into_iter()
                    .map(|t| {
                        let label = match t {
                            Theme::Auto => "Match system",
                            Theme::Light => "Light",
                            Theme::Dark => "Dark",
                        };
                        view! {
                            <option value=t.name() prop:selected=move || theme.get() == t>
                                {label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}
