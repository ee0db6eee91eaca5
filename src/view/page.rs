//! What a link says about the page rather than about a lab's run: which
//! lab, the playhead, embed mode, the look (theme, accent colour, font),
//! run B (`compare`, `fork`), presenter mode and checkpoints.
//!
//! They are one [`Schema`], [`PageSettings`], validated by the same stage
//! as a lab's settings ([`Raw::validate_lenient`]) and refused with the
//! same messages. Checkpoints (`pin`) are the one parameter a link may
//! repeat, so they are read one by one, with messages of the same form.

use crate::sim::Millis;
use crate::sim::Surely;
use crate::sim::params::{
    Colour, FieldError, Group, Kind, Moment, NO_MOMENT, Param, ParamDef, Raw, Schema, choice, seconds_to_ms, shorten,
};

use super::labs::{self, LAB, Lab};

choice! {
    /// The page's colours.
    #[derive(Default)]
    pub enum Theme {
        #[default]
        Auto("auto", "Match system"),
        Light("light", "Light"),
        Dark("dark", "Dark"),
    }
}

impl Theme {
    /// The value of the link's `theme` parameter and of `data-theme`.
    pub fn name(self) -> &'static str {
        self.value()
    }
}

choice! {
    /// A font family a host may ask for; free text is not accepted, so a
    /// link cannot inject CSS.
    #[derive(Default)]
    pub enum Font {
        /// The page's (or the host page's) own font.
        #[default]
        Inherit("inherit", "The page's own"),
        System("system", "System"),
        Serif("serif", "Serif"),
        Sans("sans", "Sans serif"),
        Mono("mono", "Monospace"),
    }
}

impl Font {
    pub fn name(self) -> &'static str {
        self.value()
    }

    /// The CSS `font-family` value; none for the page's own.
    pub fn family(self) -> Option<&'static str> {
        match self {
            Font::Inherit => None,
            Font::System => Some("system-ui, sans-serif"),
            Font::Serif => Some("Georgia, \"Times New Roman\", serif"),
            Font::Sans => Some("\"Helvetica Neue\", Arial, sans-serif"),
            Font::Mono => Some("ui-monospace, Menlo, Consolas, monospace"),
        }
    }
}

choice! {
    /// How the run's diagram is laid out: as a timeline (time left to
    /// right), as a sequence diagram (time downward, for narrow screens),
    /// or whichever fits the screen.
    #[derive(Default)]
    pub enum Layout {
        #[default]
        Auto("auto", "Fit the screen"),
        Timeline("timeline", "Timeline"),
        Sequence("sequence", "Sequence"),
    }
}

/// Screens at most this wide (in CSS pixels) get the sequence layout
/// when the layout fits the screen.
pub const NARROW_PX: f64 = 600.0;

impl Layout {
    pub fn name(self) -> &'static str {
        self.value()
    }

    /// Whether the diagram runs downward on a screen `screen_px` wide.
    pub fn downward(self, screen_px: f64) -> bool {
        match self {
            Layout::Auto => screen_px <= NARROW_PX,
            Layout::Timeline => false,
            Layout::Sequence => true,
        }
    }
}

const fn link_param(link: &'static str, label: &'static str, kind: Kind, default: u64) -> ParamDef {
    ParamDef { name: link, flag: link, link, label, kind, default, group: Group::Basics }
}

pub static AT: Param<Moment> = Param::new(link_param("at", "Playhead", Kind::Moment, NO_MOMENT));
pub static EMBED: Param<bool> = Param::new(link_param("embed", "Embed", Kind::Flag, 0));
pub static THEME: Param<Theme> = Param::new(link_param("theme", "Theme", Kind::Choice(Theme::OPTIONS), 0));
pub static ACCENT: Param<Colour> = Param::new(link_param("accent", "Accent colour", Kind::Colour, 0));
pub static FONT: Param<Font> = Param::new(link_param("font", "Font", Kind::Choice(Font::OPTIONS), 0));
pub static COMPARE: Param<bool> = Param::new(link_param("compare", "Compare", Kind::Flag, 0));
pub static FORK: Param<Moment> = Param::new(link_param("fork", "Fork", Kind::Moment, NO_MOMENT));
pub static PRESENT: Param<bool> = Param::new(link_param("present", "Presenter mode", Kind::Flag, 0));
pub static LAYOUT: Param<Layout> = Param::new(link_param("layout", "Layout", Kind::Choice(Layout::OPTIONS), 0));

/// The page's parameters, in the order links write them (the lab first).
pub static PAGE_PARAMS: [&ParamDef; 10] = [
    LAB.def(),
    COMPARE.def(),
    FORK.def(),
    AT.def(),
    PRESENT.def(),
    EMBED.def(),
    LAYOUT.def(),
    THEME.def(),
    ACCENT.def(),
    FONT.def(),
];

/// The link name of checkpoints, which a link may repeat.
pub const PIN: &str = "pin";

/// The page's parameters, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSettings {
    values: [u64; 10],
}

impl Schema for PageSettings {
    const PARAMS: &'static [&'static ParamDef] = &PAGE_PARAMS;

    fn from_values(values: &[u64]) -> Result<PageSettings, FieldError> {
        Ok(PageSettings { values: values.try_into().surely("one value per parameter") })
    }

    fn values(&self) -> &[u64] {
        &self.values
    }
}

/// A prediction checkpoint: playback stops at `at` and asks `question`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    pub at: Millis,
    pub question: String,
}

/// At most this many checkpoints in one run.
pub const MAX_PINS: usize = 8;
/// A checkpoint's question is cut to this many characters.
pub const MAX_QUESTION_CHARS: usize = 200;
/// The question of a checkpoint pinned without one.
pub const DEFAULT_QUESTION: &str = "What happens next?";

/// A question as a checkpoint keeps it: one line, control characters
/// removed, at most [`MAX_QUESTION_CHARS`] characters, never empty.
pub fn clean_question(text: &str) -> String {
    let one_line: String =
        text.chars().map(|c| if crate::sim::params::is_control_or_format(c) { ' ' } else { c }).collect();
    let trimmed = one_line.trim();
    if trimmed.is_empty() {
        return DEFAULT_QUESTION.to_owned();
    }
    trimmed.chars().take(MAX_QUESTION_CHARS).collect()
}

/// Reads a link's `pin` value: a model time in seconds, optionally
/// followed by a colon and the question.
pub fn parse_pin(value: &str) -> Result<Pin, String> {
    let (time, question) = value.split_once(':').unwrap_or((value, ""));
    match seconds_to_ms(time.trim()) {
        Some(ms) => Ok(Pin { at: Millis(ms), question: clean_question(question) }),
        None => Err(format!(
            "pin: \"{}\" is not a checkpoint; allowed: a model time in seconds, a colon and a question, such as 2.05:Will the client retry?",
            shorten(value)
        )),
    }
}

/// Everything a link says about the page, typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The playhead; the lab clamps it to its run.
    pub at: Option<Millis>,
    pub embed: bool,
    pub theme: Theme,
    /// A host's accent colour.
    pub accent: Colour,
    pub font: Font,
    pub layout: Layout,
    /// Run B, as run A (`compare=1` with no `b.` change).
    pub compare: bool,
    /// When run B was forked.
    pub fork: Option<Millis>,
    /// Presenter mode.
    pub present: bool,
    /// Prediction checkpoints, in the order they were pinned.
    pub pins: Vec<Pin>,
    /// The lesson being taught, at its step on screen.
    pub lesson: Option<super::lesson::LessonAt>,
}

impl Page {
    /// The page the validated `settings` describe (with no checkpoints).
    pub fn of(settings: &PageSettings) -> Page {
        Page {
            at: settings.get(&AT).0,
            embed: settings.get(&EMBED),
            theme: settings.get(&THEME),
            accent: settings.get(&ACCENT),
            font: settings.get(&FONT),
            layout: settings.get(&LAYOUT),
            compare: settings.get(&COMPARE),
            fork: settings.get(&FORK).0,
            present: settings.get(&PRESENT),
            pins: Vec::new(),
            lesson: None,
        }
    }

    /// This page on `lab` as the schema holds it, for writing a link.
    pub fn settings(&self, lab: Lab) -> PageSettings {
        let settings = || -> Result<PageSettings, FieldError> {
            PageSettings::opening()
                .set(&LAB, labs::value_of(lab))?
                .set(&COMPARE, self.compare)?
                .set(&FORK, Moment(self.fork))?
                .set(&AT, Moment(self.at))?
                .set(&PRESENT, self.present)?
                .set(&EMBED, self.embed)?
                .set(&LAYOUT, self.layout)?
                .set(&THEME, self.theme)?
                .set(&ACCENT, self.accent)?
                .set(&FONT, self.font)
        };
        settings().surely("every page value is allowed")
    }
}

/// Reads the page's parameters from `raw` (collected from a link) and the
/// checkpoints from `pins` (their values, in order): every good value is
/// kept, each refused one gives a message.
pub fn read_page(raw: &Raw<PageSettings>, pins: &[String]) -> (PageSettings, Page, Vec<String>) {
    let (settings, errors) = raw.validate_lenient();
    let mut notices: Vec<String> = errors.iter().map(|e| e.human_message(e.param.link)).collect();
    let mut page = Page::of(&settings);
    for value in pins {
        match parse_pin(value) {
            Ok(_) if page.pins.len() >= MAX_PINS => {
                notices.push(format!("pin: a run has at most {MAX_PINS} checkpoints; the rest were left out"))
            }
            Ok(pin) => page.pins.push(pin),
            Err(message) => notices.push(message),
        }
    }
    (settings, page, notices)
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_lab_takes_a_link_name_of_the_page_itself() {
        use crate::sim::{ack, risk, storm};
        let page: Vec<&str> = PAGE_PARAMS
            .iter()
            .map(|p| p.link)
            .chain([PIN, crate::view::url::LESSON, crate::view::url::STEP, crate::view::url::CUT])
            .collect();
        let labs: [(&str, &[&ParamDef]); 3] =
            [("ack", &ack::settings::PARAMS), ("risk", &risk::settings::PARAMS), ("storms", &storm::settings::PARAMS)];
        for (lab, params) in labs {
            for param in params.iter() {
                assert!(!page.contains(&param.link), "{lab}: {} is a link name of the page itself", param.link);
            }
        }
    }

    use super::*;

    fn page_of(pairs: &[(&str, &str)]) -> (Page, Vec<String>) {
        let mut raw = Raw::<PageSettings>::human();
        let mut pins = Vec::new();
        for (name, value) in pairs {
            match PageSettings::by_link(name) {
                Some(param) => raw.set(param, *value),
                None => pins.push((*value).to_owned()),
            }
        }
        let (_, page, notices) = read_page(&raw, &pins);
        (page, notices)
    }

    #[test]
    fn every_page_parameter_reads_its_value() {
        let (page, notices) = page_of(&[
            ("at", "2.05"),
            ("embed", "true"),
            ("theme", "dark"),
            ("accent", "#A30"),
            ("font", "serif"),
            ("compare", "1"),
            ("fork", "4"),
            ("present", "0"),
            ("pin", "2.05:Will it retry?"),
        ]);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(page.at, Some(Millis(2_050)));
        assert!(page.embed && page.compare && !page.present);
        assert_eq!((page.theme, page.font), (Theme::Dark, Font::Serif));
        assert_eq!(page.accent.hex().as_deref(), Some("aa3300"));
        assert_eq!(page.fork, Some(Millis(4_000)));
        assert_eq!(page.pins, [Pin { at: Millis(2_050), question: "Will it retry?".to_owned() }]);
        // And written back, the schema holds what was read.
        let settings = page.settings(crate::view::risk::RISK);
        assert_eq!(Page { pins: page.pins.clone(), ..Page::of(&settings) }, page);
    }

    #[test]
    fn refusals_name_the_parameter_the_value_and_what_is_allowed() {
        let (page, notices) = page_of(&[
            ("at", "soon"),
            ("embed", "maybe"),
            ("theme", "neon"),
            ("accent", "red;background:url(x)"),
            ("font", "Comic Sans"),
            ("fork", "later"),
            ("pin", "soon:what?"),
        ]);
        assert_eq!(page, Page::default(), "every refused value keeps its default");
        assert_eq!(
            notices,
            [
                "fork: \"later\" is not a number of seconds with at most three decimals; allowed: a model time in seconds such as 2.05",
                "at: \"soon\" is not a number of seconds with at most three decimals; allowed: a model time in seconds such as 2.05",
                "embed: \"maybe\" is not a known option; allowed: 1 or 0",
                "theme: \"neon\" is not a known option; allowed: one of auto, light, dark",
                "accent: \"red;background:url(x)\" is not a colour; allowed: three or six hex digits such as 1f56b3",
                "font: \"Comic Sans\" is not a known option; allowed: one of inherit, system, serif, sans, mono",
                "pin: \"soon:what?\" is not a checkpoint; allowed: a model time in seconds, a colon and a question, such as 2.05:Will the client retry?",
            ]
        );
    }

    #[test]
    fn checkpoints_are_cleaned_and_bounded() {
        assert_eq!(clean_question("  Will\nit\tretry?  "), "Will it retry?");
        assert_eq!(clean_question(""), DEFAULT_QUESTION);
        assert_eq!(clean_question(&"x".repeat(500)).chars().count(), MAX_QUESTION_CHARS);
        let many: Vec<(&str, String)> = (0..12).map(|i| ("pin", i.to_string())).collect();
        let pairs: Vec<(&str, &str)> = many.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let (page, notices) = page_of(&pairs);
        assert_eq!(page.pins.len(), MAX_PINS);
        assert_eq!(notices.len(), 4);
        assert!(notices.iter().all(|n| n.starts_with("pin: a run has at most 8 checkpoints")), "{notices:?}");
    }
}
