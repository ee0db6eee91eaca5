//! What every lab's page has around its lab: the masthead (the name, a
//! tagline, the Lab switcher, the page's toolbar and the theme), how the
//! page looks (its theme, a host's accent and font), and an embed's link
//! back to the full page.

use leptos::prelude::*;

use crate::sim::params::{Colour, Opt, Value};
use crate::view::labs::{LABS, Lab};
use crate::view::page::{Font, Layout, Page, Theme};
use crate::view::timeline::page::{LANE_TITLE_INSET, LANE_TITLES_W};
use crate::view::timeline::{Diagram, Orientation};

use super::dom;
use super::element::Host;

/// How a page looks: its theme and its diagram's layout, which the reader
/// may change, and a host's accent colour and font from the link; all are
/// kept in shared links.
#[derive(Clone, Copy)]
pub struct Look {
    pub theme: RwSignal<Theme>,
    pub layout: RwSignal<Layout>,
    /// The accent colour and the font.
    host: StoredValue<(Colour, Font)>,
}

impl Look {
    pub fn new(page: &Page) -> Look {
        Look {
            theme: RwSignal::new(page.theme),
            layout: RwSignal::new(page.layout),
            host: StoredValue::new((page.accent, page.font)),
        }
    }

    /// Whether the diagram runs downward now: the layout chosen, or the
    /// sequence on a narrow screen. Follows the window's width.
    pub fn downward(&self) -> Signal<bool> {
        let layout = self.layout;
        let width = window_width();
        Signal::derive(move || layout.get().downward(width.get()))
    }

    /// Shows the look on `host` (the page's root element or a custom
    /// element): the theme as `data-theme`, following the reader's choice,
    /// and the accent and font as CSS properties, set through the CSSOM
    /// (which the Content-Security-Policy allows, unlike inline style
    /// attributes).
    pub fn show_on(&self, host: Host) {
        let theme = self.theme;
        Effect::new(move |_| host.set_attribute("data-theme", theme.get().name()));
        self.host.with_value(|(accent, font)| {
            if let Some(hex) = accent.hex() {
                host.set_property("--il-accent", &format!("#{hex}"));
            }
            if let Some(family) = font.family() {
                host.set_property("--il-font", family);
            }
        });
    }

    /// Writes the look into a link's page parameters.
    pub fn keep_in(&self, page: &mut Page) {
        page.theme = self.theme.get_untracked();
        page.layout = self.layout.get_untracked();
        (page.accent, page.font) = self.host.get_value();
    }
}

/// The lab this page shows, and its theme, for the "Lab" switcher.
#[derive(Clone, Copy)]
pub struct CurrentLab(pub Lab, pub RwSignal<Theme>);

/// The "Layout" control: the diagram as a timeline, as a sequence, or
/// whichever fits the screen. `id` keeps two on one page apart.
pub fn layout_picker(layout: RwSignal<Layout>, id: &'static str) -> impl IntoView {
    choice_picker(layout, Layout::OPTIONS, "layout-picker", id, "Layout")
}

/// A labelled select of one of the page's choices (`options` are the
/// choice's, in the order of its variants), showing and setting `value`.
fn choice_picker<T: Value + PartialEq + Send + Sync + 'static>(
    value: RwSignal<T>,
    options: &'static [Opt],
    class: &'static str,
    id: &'static str,
    label: &'static str,
) -> impl IntoView {
    view! {
        <div class=class>
            <label for=id>{label}</label>
            <select
                id=id
                on:change:target=move |ev| {
                    let chosen = ev.target().value();
                    if let Some(i) = options.iter().position(|o| o.value == chosen) {
                        value.set(T::from_raw(i as u64));
                    }
                }
            >
                {options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| {
                        view! {
                            <option value=o.value prop:selected=move || value.get().to_raw() == i as u64>
                                {o.label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}

/// The "Lab" switcher, one choice per lab in the registry. The page that
/// hosts every lab shows the chosen lab in this one's place, and the
/// theme comes along; without such a host it opens the page with the
/// chosen lab's link.
#[component]
pub fn LabSwitcher() -> impl IntoView {
    let Some(CurrentLab(current, theme)) = use_context::<CurrentLab>() else {
        return ().into_any();
    };
    // A form of its own: a browser that tracks the form control changed
    // last reads that control's form again when the address changes, and
    // alone in its form the switcher is all there is to read.
    view! {
        <form class="lab-switcher" on:submit=|ev| ev.prevent_default()>
            <label for="lab-switch">"Lab"</label>
            <select
                id="lab-switch"
                on:change:target=move |ev| {
                    let Some(to) = crate::view::labs::by_id(&ev.target().value()) else { return };
                    if to == current || dom::switch_lab(to) {
                        return;
                    }
                    let theme = theme.get_untracked();
                    let look = if theme == Theme::Auto { String::new() } else { format!("&theme={}", theme.name()) };
                    dom::navigate(&format!("?lab={}{look}", to.id));
                }
            >
                {LABS
                    .iter()
                    .map(|k| view! { <option value=k.id selected=*k == current>{k.label}</option> })
                    .collect_view()}
            </select>
        </form>
    }
    .into_any()
}

/// Moves when what a lab measures from its layout (a chart's width) needs
/// measuring again: the window was resized.
pub fn relayout() -> ReadSignal<u32> {
    let count = RwSignal::new(0u32);
    let resize = window_event_listener(leptos::ev::resize, move |_| count.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || resize.remove());
    count.read_only()
}

/// The window's width in CSS pixels, following it as it changes (and
/// telling its readers only when it does).
pub fn window_width() -> Memo<f64> {
    let relaid = relayout();
    Memo::new(move |_| {
        relaid.track();
        dom::viewport_width()
    })
}

/// Below this width (CSS pixels) a lab's page is one column: the stage,
/// then the settings, then the rest.
pub const TWO_COLUMNS_PX: f64 = 960.0;

/// Whether the page is one column now.
pub fn one_column() -> Signal<bool> {
    let width = window_width();
    Signal::derive(move || width.get() < TWO_COLUMNS_PX)
}

/// The settings column, placed where it is seen: before the stage in the
/// page's order on a wide screen (the column at the left), after it on a
/// narrow one (below it), so the keyboard meets the page in the order the
/// reader sees it. A page calls this twice, `before` the stage and after.
pub fn settings_column(
    before: bool,
    one_column: Signal<bool>,
    make: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    move || (one_column.get() != before).then(&make)
}

/// The line over a timeline's box while its drawing (`width` wide, when
/// there is one) is wider than the box (`fit`, from [`box_width`]), in
/// every lab and either layout.
pub fn scroll_cue(
    fit: ReadSignal<Option<f64>>,
    width: impl Fn() -> Option<f64> + Send + Sync + 'static,
) -> impl IntoView {
    let wider = move || width().zip(fit.get()).is_some_and(|(drawn, room)| drawn > room + 1.0);
    move || wider().then(|| view! { <p class="scroll-cue">{crate::view::timeline::SCROLL_CUE}</p> })
}

/// The lane titles, pinned beside a scrolling timeline (or above a
/// scrolling sequence diagram) so they stay in view however far it is
/// scrolled: `view`'s markup, for every diagram a page draws.
pub fn lane_titles(d: &Diagram, scale: f64) -> AnyView {
    let class = if d.orientation == Orientation::Down { "column-titles-frame" } else { "lane-titles-frame" };
    view! { <div class=class inner_html=d.lane_titles_svg(LANE_TITLES_W, LANE_TITLE_INSET, scale)></div> }.into_any()
}

/// The width of `scroller`'s box in a diagram's units (`scale` of them to
/// a pixel: a presenter's diagram is drawn twice as large), measured after
/// each layout change; `None` until it has been laid out.
pub fn box_width(scroller: NodeRef<leptos::html::Div>, scale: Signal<f64>) -> ReadSignal<Option<f64>> {
    let fit = RwSignal::new(None::<f64>);
    let relaid = relayout();
    let measure = move || {
        let (Some(el), Some(scale)) = (scroller.try_get_untracked().flatten(), scale.try_get_untracked()) else {
            return;
        };
        let w = f64::from(el.client_width()) / scale;
        if w > 0.0 && fit.try_get_untracked().flatten().is_none_or(|old| (old - w).abs() >= 1.0) {
            fit.set(Some(w));
        }
    };
    Effect::new(move |_| {
        relaid.track();
        scale.track();
        request_animation_frame(measure);
    });
    fit.read_only()
}

/// The height of `scroller`'s box in pixels, measured after each layout
/// change; `None` until it has been laid out. An embed's diagram takes the
/// room its frame leaves (the box is as high as that room, whatever it
/// holds), and draws itself smaller where it would not fit.
pub fn box_height(scroller: NodeRef<leptos::html::Div>) -> ReadSignal<Option<f64>> {
    after_layout(scroller, |el| f64::from(el.client_height()))
}

/// The height from the top of `scroller`'s box to the window's bottom,
/// less `margin`, measured after each layout change: the room a drawing
/// that must fit the screen (presenter mode) has, on a page scrolled to
/// its top.
pub fn room_below(scroller: NodeRef<leptos::html::Div>, margin: f64) -> ReadSignal<Option<f64>> {
    after_layout(scroller, move |el| {
        let top = el.get_bounding_client_rect().top() + dom::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
        dom::viewport_height() - top - margin
    })
}

/// A length of `scroller`'s box that `of` measures, measured again in the
/// frame after each layout change and kept while it moves by less than a
/// pixel (none until the box has some).
fn after_layout(
    scroller: NodeRef<leptos::html::Div>,
    of: impl Fn(&leptos::web_sys::HtmlDivElement) -> f64 + Copy + Send + Sync + 'static,
) -> ReadSignal<Option<f64>> {
    let room = RwSignal::new(None::<f64>);
    let relaid = relayout();
    let measure = move || {
        let Some(el) = scroller.try_get_untracked().flatten() else { return };
        let h = of(&el);
        if h > 0.0 && room.try_get_untracked().flatten().is_none_or(|old| (old - h).abs() >= 1.0) {
            room.set(Some(h));
        }
    };
    Effect::new(move |_| {
        relaid.track();
        request_animation_frame(measure);
    });
    room.read_only()
}

pub use crate::view::timeline::fit_scale;

/// `N` flags, false until the lab's first frame is on screen, then true
/// one after another, each in a task of its own: panels that start below
/// the first screen wait for theirs, so the first frame (the stage the
/// page opened with) costs only what it shows, and a click between two of
/// them (Play, say) is answered before the next is built.
pub fn after_first_paint<const N: usize>() -> [Signal<bool>; N] {
    let stages: [RwSignal<bool>; N] = std::array::from_fn(|_| RwSignal::new(false));
    // A frame's callbacks run before it is painted; a task queued from one
    // runs after.
    request_animation_frame(move || next_stage(stages, 0));
    stages.map(Signal::from)
}

/// Sets stage `k` in a task of its own, then queues the next.
fn next_stage<const N: usize>(stages: [RwSignal<bool>; N], k: usize) {
    if k == N {
        return;
    }
    set_timeout(
        move || {
            // A lab unmounted before then has nothing left to build.
            if stages[k].try_set(true).is_none() {
                next_stage(stages, k + 1);
            }
        },
        std::time::Duration::ZERO,
    );
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
            {theme_picker(theme)}
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

pub fn theme_picker(theme: RwSignal<Theme>) -> impl IntoView {
    choice_picker(theme, Theme::OPTIONS, "theme-picker", "theme", "Theme")
}
