//! Shared links: every setting, the playhead, embed mode and theme in the
//! query string. Decoding never fails: a bad value costs only itself (it
//! falls back to its default and yields a notice), unknown names are ignored.

use crate::sim::Millis;
use crate::sim::ack::Settings;
use crate::sim::params::{ms_to_seconds_text, seconds_to_ms, shorten};
use crate::sim::{ParamDef, Schema};

use super::fields;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// A font family a host may ask for; free text is not accepted, so a link
/// cannot inject CSS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    System,
    Serif,
    Sans,
    Mono,
}

impl Font {
    pub const ALL: [Font; 4] = [Font::System, Font::Serif, Font::Sans, Font::Mono];

    pub fn name(self) -> &'static str {
        match self {
            Font::System => "system",
            Font::Serif => "serif",
            Font::Sans => "sans",
            Font::Mono => "mono",
        }
    }

    /// The CSS `font-family` value.
    pub fn family(self) -> &'static str {
        match self {
            Font::System => "system-ui, sans-serif",
            Font::Serif => "Georgia, \"Times New Roman\", serif",
            Font::Sans => "\"Helvetica Neue\", Arial, sans-serif",
            Font::Mono => "ui-monospace, Menlo, Consolas, monospace",
        }
    }
}

/// Which lab a link opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LabKind {
    #[default]
    Ack,
    Risk,
    Storms,
}

impl LabKind {
    pub const ALL: [LabKind; 3] = [LabKind::Ack, LabKind::Risk, LabKind::Storms];

    /// The value of the link's `lab` parameter.
    pub fn name(self) -> &'static str {
        match self {
            LabKind::Ack => "ack",
            LabKind::Risk => "risk",
            LabKind::Storms => "storms",
        }
    }

    /// The choice in the "Lab" switcher.
    pub fn label(self) -> &'static str {
        match self {
            LabKind::Ack => "Lost acknowledgement",
            LabKind::Risk => "Risk review",
            LabKind::Storms => "Storms",
        }
    }
}

/// Everything a link can say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkState {
    pub lab: LabKind,
    /// The lost-acknowledgement lab's settings.
    pub settings: Settings,
    /// Another lab's parameters, as the link gave them: that lab's page
    /// reads them with [`decode_settings`] (so this page carries no code
    /// for other labs' vocabularies).
    pub lab_params: Vec<(String, String)>,
    /// The playhead; the app clamps it to the run.
    pub at: Option<Millis>,
    pub embed: bool,
    pub theme: Theme,
    /// An accent colour as six lowercase hex digits, for embedding hosts.
    pub accent: Option<String>,
    pub font: Option<Font>,
    /// A second run to compare with (the lost-acknowledgement lab).
    pub compare: Option<LinkCompare>,
    /// Presenter mode.
    pub present: bool,
    /// Prediction checkpoints, in the order they were pinned.
    pub pins: Vec<Pin>,
}

/// Run B of a comparison in a link: what it changes from run A
/// (`b.dedup=off`), and when it was forked (`fork=4`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkCompare {
    /// At most one entry per parameter, each with a value that differs from A's.
    pub changes: Vec<(&'static ParamDef, u64)>,
    pub fork: Option<Millis>,
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
    let one_line: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let trimmed = one_line.trim();
    if trimmed.is_empty() {
        return DEFAULT_QUESTION.to_owned();
    }
    trimmed.chars().take(MAX_QUESTION_CHARS).collect()
}

/// Reads a link's `pin` value: a model time in seconds, optionally
/// followed by a colon and the question.
fn parse_pin(value: &str) -> Option<Pin> {
    let (time, question) = value.split_once(':').unwrap_or((value, ""));
    let ms = seconds_to_ms(time.trim())?;
    Some(Pin { at: Millis(ms), question: clean_question(question) })
}

/// Accepts `1f56b3`, `#1F56B3` or `15b` (hex digits only) as six lowercase
/// hex digits.
pub fn parse_hex_colour(text: &str) -> Option<String> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    match hex.len() {
        6 => Some(hex.to_ascii_lowercase()),
        3 => Some(hex.chars().flat_map(|c| [c, c]).collect::<String>().to_ascii_lowercase()),
        _ => None,
    }
}

/// Links longer than this are cut before decoding; no real link comes near.
pub const MAX_QUERY_BYTES: usize = 8 * 1024;
/// At most this many notices are reported for one link.
pub const MAX_NOTICES: usize = 8;

/// Decodes `%XX` escapes and `+`; malformed escapes are kept as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes everything but unreserved characters.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A decoded query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedLink {
    pub state: LinkState,
    /// What was refused, one message per parameter (at most `MAX_NOTICES`).
    pub notices: Vec<String>,
    /// Whether any parameter of ours was present (valid or not): then this
    /// is a link to a particular run and moment, and remembered settings
    /// must not override it.
    pub is_link: bool,
}

/// Reads a lab's settings from a link's parameters: a bad value costs only
/// itself (it keeps its default and yields a notice), unknown names are
/// ignored.
pub fn decode_settings<S: Schema>(pairs: &[(String, String)]) -> (S, Vec<String>) {
    let mut settings = S::opening();
    let mut notices = Vec::new();
    // A value refused only because of a setting the link gives later (the
    // contention workload before the client count it allows) is tried again
    // once every other value is in: the order of a link's names does not
    // matter.
    let mut refused = Vec::new();
    for (name, value) in pairs {
        if let Some(param) = S::by_link(name) {
            match fields::apply(param, &settings, value, param.link) {
                Ok(s) => settings = s,
                Err(_) => refused.push((param, value)),
            }
        }
    }
    for (param, value) in refused {
        match fields::apply(param, &settings, value, param.link) {
            Ok(s) => settings = s,
            Err(message) if notices.len() < MAX_NOTICES => notices.push(message),
            Err(_) => {}
        }
    }
    (settings, notices)
}

/// A lab's settings as link parameters (names and values, not yet
/// encoded), as [`LinkState::lab_params`] holds them: only what differs
/// from the defaults, so links stay short.
pub fn settings_params<S: Schema>(settings: &S) -> Vec<(String, String)> {
    S::PARAMS
        .iter()
        .zip(settings.values())
        .filter(|(param, value)| **value != param.default)
        .map(|(param, &value): (&&'static ParamDef, &u64)| (param.link.to_owned(), param.format_human(value)))
        .collect()
}

/// A lab's settings as encoded link parameters (`name=value`).
pub fn encode_settings<S: Schema>(settings: &S) -> Vec<String> {
    settings_params(settings).into_iter().map(|(n, v)| format!("{n}={}", percent_encode(&v))).collect()
}

/// Reads a query string (with or without the leading `?`) on the opening
/// page, where a link without `lab` means the lost-acknowledgement lab.
pub fn parse_query(query: &str) -> ParsedLink {
    parse_query_on(query, LabKind::Ack)
}

/// Reads a query string on `page`'s page: without `lab`, the link is read
/// in that lab's vocabulary.
pub fn parse_query_on(query: &str, page: LabKind) -> ParsedLink {
    let mut query = query.strip_prefix('?').unwrap_or(query);
    let mut notices = Vec::new();
    if query.len() > MAX_QUERY_BYTES {
        let mut cut = MAX_QUERY_BYTES;
        while !query.is_char_boundary(cut) {
            cut -= 1;
        }
        query = &query[..cut];
        notices.push(format!("The link is longer than {MAX_QUERY_BYTES} bytes; only its start was read."));
    }
    let mut state = LinkState { lab: page, ..LinkState::default() };
    let mut is_link = false;
    // Run B's names (without `b.`), a bare `compare=1`, and the fork time.
    let mut b_pairs: Vec<(String, String)> = Vec::new();
    let mut compare = false;
    let mut fork = None;
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(name), percent_decode(value))
        })
        .collect();
    // The lab first: the other names are read in its vocabulary.
    if let Some((_, value)) = pairs.iter().rev().find(|(name, _)| name == "lab") {
        match LabKind::ALL.into_iter().find(|l| l.name() == value) {
            Some(lab) => state.lab = lab,
            None => notices.push(format!(
                "lab: \"{}\" is not a lab; allowed: ack, risk or storms. This page's lab is shown.",
                shorten(value)
            )),
        }
    }
    for (name, value) in pairs {
        let outcome = match name.as_str() {
            "lab" => Ok(()),
            "at" => match seconds_to_ms(&value) {
                Some(ms) => {
                    state.at = Some(Millis(ms));
                    Ok(())
                }
                None => Err(format!(
                    "at: \"{}\" is not a number of seconds with at most three decimals; allowed: a model time in seconds such as 2.05",
                    shorten(&value)
                )),
            },
            "embed" => match value.as_str() {
                "1" | "true" => {
                    state.embed = true;
                    Ok(())
                }
                "0" | "false" => {
                    state.embed = false;
                    Ok(())
                }
                _ => Err(format!("embed: \"{}\" is not allowed; allowed: 1 or 0", shorten(&value))),
            },
            "accent" => match parse_hex_colour(&value) {
                Some(hex) => {
                    state.accent = Some(hex);
                    Ok(())
                }
                None => Err(format!(
                    "accent: \"{}\" is not a colour; allowed: three or six hex digits such as 1f56b3",
                    shorten(&value)
                )),
            },
            "font" => match Font::ALL.into_iter().find(|f| f.name() == value) {
                Some(font) => {
                    state.font = Some(font);
                    Ok(())
                }
                None => {
                    Err(format!("font: \"{}\" is not allowed; allowed: system, serif, sans or mono", shorten(&value)))
                }
            },
            "compare" | "present" => match value.as_str() {
                "1" | "true" | "0" | "false" => {
                    let on = matches!(value.as_str(), "1" | "true");
                    if name == "compare" {
                        compare = on;
                    } else {
                        state.present = on;
                    }
                    Ok(())
                }
                _ => Err(format!("{name}: \"{}\" is not allowed; allowed: 1 or 0", shorten(&value))),
            },
            "fork" => match seconds_to_ms(&value) {
                Some(ms) => {
                    fork = Some(Millis(ms));
                    Ok(())
                }
                None => Err(format!(
                    "fork: \"{}\" is not a number of seconds with at most three decimals; allowed: a model time in seconds such as 4",
                    shorten(&value)
                )),
            },
            "pin" => match parse_pin(&value) {
                Some(_) if state.pins.len() >= MAX_PINS => {
                    Err(format!("pin: a run has at most {MAX_PINS} checkpoints; the rest were left out"))
                }
                Some(pin) => {
                    state.pins.push(pin);
                    Ok(())
                }
                None => Err(format!(
                    "pin: \"{}\" is not a checkpoint; allowed: a model time in seconds, a colon and a question, such as 2.05:Will the client retry?",
                    shorten(&value)
                )),
            },
            "theme" => match Theme::ALL.into_iter().find(|t| t.name() == value) {
                Some(theme) => {
                    state.theme = theme;
                    Ok(())
                }
                None => Err(format!("theme: \"{}\" is not allowed; allowed: light, dark or auto", shorten(&value))),
            },
            // Unknown parameters belong to someone else (an embedding page,
            // a tracker); they are none of our business.
            other if other.starts_with("b.") && state.lab == LabKind::Ack => {
                b_pairs.push((other["b.".len()..].to_owned(), value));
                Ok(())
            }
            other => match state.lab {
                LabKind::Ack => match Settings::by_link(other) {
                    Some(param) => {
                        fields::apply(param, &state.settings, &value, param.link).map(|s| state.settings = s)
                    }
                    None => continue,
                },
                LabKind::Storms | LabKind::Risk => {
                    state.lab_params.push((other.to_owned(), value));
                    continue;
                }
            },
        };
        is_link = true;
        if let Err(message) = outcome
            && notices.len() < MAX_NOTICES
        {
            notices.push(message);
        }
    }
    // Another lab reads its own run B from its parameters (`b.` ones, which
    // it was given as they came, `compare=1`, and the fork time in
    // milliseconds, read with [`decode_lab_fork`]).
    if state.lab != LabKind::Ack && (compare || fork.is_some()) {
        state.lab_params.push(("compare".to_owned(), "1".to_owned()));
    }
    if let Some(at) = fork.filter(|_| state.lab != LabKind::Ack) {
        state.lab_params.push(("fork".to_owned(), at.ms().to_string()));
    }
    if state.lab == LabKind::Ack && (compare || fork.is_some() || !b_pairs.is_empty()) {
        match decode_b(&state.settings, &b_pairs) {
            Ok(changes) => state.compare = Some(LinkCompare { changes, fork }),
            Err(message) if notices.len() < MAX_NOTICES => {
                notices.push(format!("{message}. The second run was not opened; run A is shown alone."))
            }
            Err(_) => {}
        }
    }
    ParsedLink { state, notices, is_link }
}

/// Run B's changes from run A's settings `a`: all of them, or the first
/// refusal (a second run that is partly what the link said would mislead).
fn decode_b<S: Schema>(a: &S, pairs: &[(String, String)]) -> Result<Vec<(&'static ParamDef, u64)>, String> {
    let mut b = a.clone();
    for (name, value) in pairs {
        let Some(param) = S::by_link(name) else {
            // The lab's second setting makes the example (the first lab's
            // deduplication, the risk lab's mode).
            let example = S::PARAMS.get(1).or(S::PARAMS.first()).map_or("", |p| p.link);
            return Err(format!(
                "b.{}: not a setting of run B; allowed: b. and a setting's link name, such as b.{example}",
                shorten(name)
            ));
        };
        b = fields::apply(param, &b, value, &format!("b.{}", param.link))?;
    }
    Ok(S::PARAMS.iter().copied().filter(|&p| b.get(p) != a.get(p)).map(|p| (p, b.get(p))).collect())
}

/// Another lab's run B, from the parameters its link gave it (see
/// [`LinkState::lab_params`]) and run A's settings `a`: `None` when the
/// link opens no run B, else B's changes or why they were refused.
pub fn decode_lab_b<S: Schema>(
    a: &S,
    pairs: &[(String, String)],
) -> Option<Result<Vec<(&'static ParamDef, u64)>, String>> {
    let b_pairs: Vec<(String, String)> =
        pairs.iter().filter_map(|(n, v)| Some((n.strip_prefix("b.")?.to_owned(), v.clone()))).collect();
    asks_lab_b(pairs).then(|| decode_b(a, &b_pairs))
}

/// Whether another lab's link opens its run B (see [`decode_lab_b`]).
pub fn asks_lab_b(pairs: &[(String, String)]) -> bool {
    pairs.iter().any(|(n, _)| n == "compare" || n.starts_with("b."))
}

/// When another lab's run B was forked, from the parameters its link gave
/// it (see [`parse_query_on`]).
pub fn decode_lab_fork(pairs: &[(String, String)]) -> Option<Millis> {
    pairs.iter().rev().find(|(n, _)| n == "fork").and_then(|(_, v)| v.parse().ok()).map(Millis)
}

/// A lab's run B as link parameters: `compare=1` while it changes
/// nothing, else its changes under `b.`.
pub fn lab_b_params(changes: &[(&'static ParamDef, u64)]) -> Vec<(String, String)> {
    if changes.is_empty() {
        return vec![("compare".to_owned(), "1".to_owned())];
    }
    changes.iter().map(|(p, v)| (format!("b.{}", p.link), p.format_human(*v))).collect()
}

/// Writes a query string (without `?`) holding only what differs from the
/// opening settings, so links stay short.
pub fn to_query(state: &LinkState) -> String {
    let mut parts = Vec::new();
    if state.lab == LabKind::Ack {
        parts.extend(encode_settings(&state.settings));
    } else {
        parts.push(format!("lab={}", state.lab.name()));
        parts.extend(state.lab_params.iter().map(|(n, v)| format!("{n}={}", percent_encode(v))));
    }
    if let Some(c) = &state.compare {
        if c.changes.is_empty() {
            parts.push("compare=1".to_owned());
        }
        parts.extend(c.changes.iter().map(|(p, v)| format!("b.{}={}", p.link, percent_encode(&p.format_human(*v)))));
        if let Some(fork) = c.fork {
            parts.push(format!("fork={}", ms_to_seconds_text(fork.ms())));
        }
    }
    if let Some(at) = state.at {
        parts.push(format!("at={}", ms_to_seconds_text(at.ms())));
    }
    if state.present {
        parts.push("present=1".to_owned());
    }
    for pin in &state.pins {
        parts.push(format!("pin={}", percent_encode(&format!("{}:{}", ms_to_seconds_text(pin.at.ms()), pin.question))));
    }
    if state.embed {
        parts.push("embed=1".to_owned());
    }
    if state.theme != Theme::Auto {
        parts.push(format!("theme={}", state.theme.name()));
    }
    if let Some(accent) = &state.accent {
        parts.push(format!("accent={accent}"));
    }
    if let Some(font) = state.font {
        parts.push(format!("font={}", font.name()));
    }
    parts.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::settings::{CRASH, DEADLINE, DEDUP, JITTER, KEY, RESPONSE_TRANSIT, TIMEOUT};

    #[test]
    fn round_trips_every_setting_and_the_playhead() {
        let settings = Settings::from_pairs(&[
            (&DEDUP, "off"),
            (&KEY, "per-attempt"),
            (&TIMEOUT, "2500"),
            (&RESPONSE_TRANSIT, "0"),
            (&JITTER, "full"),
            (&CRASH, "after-effect"),
            (&DEADLINE, "7500"),
        ])
        .unwrap();
        let state = LinkState {
            lab: LabKind::Ack,
            lab_params: Vec::new(),
            settings,
            at: Some(Millis(2050)),
            embed: true,
            theme: Theme::Dark,
            accent: Some("aa3300".to_owned()),
            font: Some(Font::Serif),
            ..LinkState::default()
        };
        let query = to_query(&state);
        assert_eq!(
            query,
            "dedup=off&key=per-attempt&timeout=2.5&jitter=full&resp=0&crash=after-effect&deadline=7.5&at=2.05&embed=1&theme=dark&accent=aa3300&font=serif"
        );
        assert_eq!(parse_query(&format!("?{query}")), ParsedLink { state, notices: vec![], is_link: true });
    }

    #[test]
    fn a_link_names_its_lab_and_speaks_its_vocabulary() {
        use crate::sim::storm::StormSettings;
        use crate::sim::storm::settings::{ALGORITHM, CLIENTS, TIMEOUT as STORM_TIMEOUT};
        let ParsedLink { state, notices, .. } = parse_query("lab=storms&clients=500&algo=full&timeout=0.25&dedup=on");
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(state.lab, LabKind::Storms);
        assert_eq!(state.settings, Settings::default(), "the other lab's names are not read here");
        let (storm, notices) = decode_settings::<StormSettings>(&state.lab_params);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(storm.get(&CLIENTS), 500);
        assert_eq!(storm.text_of(&ALGORITHM), "full");
        assert_eq!(storm.get(&STORM_TIMEOUT), 250);
        assert_eq!(encode_settings(&storm).join("&"), "clients=500&algo=full&timeout=0.25&dedup=on");
        assert_eq!(settings_params(&storm), state.lab_params, "what a page puts in its link is what it read");
        assert_eq!(to_query(&state), "lab=storms&clients=500&algo=full&timeout=0.25&dedup=on");
        let (_, notices) = decode_settings::<StormSettings>(&[("clients".to_owned(), "0".to_owned())]);
        assert_eq!(notices, ["clients: 0 is out of range; allowed: a whole number from 1 to 100000"]);
        let ParsedLink { state, notices, .. } = parse_query("lab=moon&dedup=off");
        assert_eq!(state.lab, LabKind::Ack);
        assert!(!state.settings.dedup());
        assert!(notices[0].starts_with("lab: \"moon\" is not a lab"), "{notices:?}");
        // The storm page reads a link without `lab` in its own vocabulary.
        let ParsedLink { state, .. } = parse_query_on("clients=70", LabKind::Storms);
        assert_eq!(state.lab, LabKind::Storms);
        assert_eq!(decode_settings::<StormSettings>(&state.lab_params).0.get(&CLIENTS), 70);
    }

    #[test]
    fn a_bad_value_costs_only_itself() {
        let ParsedLink { state, notices, .. } =
            parse_query("dedup=off&timeout=soon&exec=999999&utm_source=x&theme=neon");
        assert!(!state.settings.dedup(), "good values are kept");
        assert_eq!(state.settings.timeout(), Settings::default().timeout());
        assert_eq!(state.settings.exec(), Settings::default().exec());
        assert_eq!(state.theme, Theme::Auto);
        assert_eq!(notices.len(), 3, "{notices:?}");
        assert!(notices[0].starts_with("timeout: \"soon\""), "{notices:?}");
        assert!(notices[1].starts_with("exec: 999999 is out of range; allowed: 0 to 600 seconds"), "{notices:?}");
        assert!(notices[2].contains("light, dark or auto"), "{notices:?}");
    }

    #[test]
    fn look_and_feel_parameters_accept_only_safe_values() {
        assert_eq!(parse_hex_colour("#1F56B3").as_deref(), Some("1f56b3"));
        assert_eq!(parse_hex_colour("a30").as_deref(), Some("aa3300"));
        assert_eq!(parse_hex_colour("red"), None);
        assert_eq!(parse_hex_colour("12345g"), None);
        let ParsedLink { state, notices, .. } = parse_query("accent=red;background:url(x)&font=Comic%20Sans");
        assert_eq!((state.accent, state.font), (None, None));
        assert_eq!(notices.len(), 2);
    }

    #[test]
    fn decoding_is_forgiving_and_exact() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%E2%9C%93"), "✓");
        assert_eq!(percent_decode("%FF"), "\u{fffd}");
        let ParsedLink { state, notices, .. } = parse_query("fault=lose%2Dall");
        assert_eq!(state.settings.fault(), crate::sim::ack::Fault::LoseAll);
        assert!(notices.is_empty());
    }

    #[test]
    fn only_our_parameters_make_a_link() {
        let is_link = |q: &str| parse_query(q).is_link;
        assert!(is_link("?at=0"));
        assert!(is_link("dedup=off"));
        assert!(is_link("embed=1"));
        assert!(!is_link(""));
        assert!(!is_link("?utm_source=newsletter"));
    }

    #[test]
    fn another_labs_settings_do_not_depend_on_the_order_of_the_links_names() {
        use crate::sim::storm::StormSettings;
        use crate::sim::storm::settings::Workload;
        for q in ["workload=occ&clients=20", "clients=20&workload=occ"] {
            let link = parse_query_on(q, LabKind::Storms);
            let (s, notices) = decode_settings::<StormSettings>(&link.state.lab_params);
            assert_eq!(notices, Vec::<String>::new(), "{q}");
            assert_eq!((s.workload, s.occ.clients), (Workload::Occ, 20), "{q}");
        }
        // A value no order can fix is still refused, by name.
        let link = parse_query_on("workload=occ&clients=2000", LabKind::Storms);
        let (s, notices) = decode_settings::<StormSettings>(&link.state.lab_params);
        assert_eq!(notices.len(), 1);
        assert_eq!(
            notices[0],
            "Clients: 2000 does not fit the other settings; allowed: at most 1000 clients with the occ workload"
        );
        assert_eq!(s.workload, Workload::Overload);
    }

    #[test]
    fn another_labs_link_carries_its_run_b_in_its_own_vocabulary() {
        use crate::sim::storm::StormSettings;
        let read = |q: &str| {
            let link = parse_query_on(q, LabKind::Storms);
            let (a, notices) = decode_settings::<StormSettings>(&link.state.lab_params);
            assert!(link.notices.is_empty() && notices.is_empty(), "{:?} {notices:?}", link.notices);
            decode_lab_b(&a, &link.state.lab_params)
        };
        assert_eq!(read("seed=3"), None);
        assert_eq!(read("seed=3&compare=1"), Some(Ok(vec![])));
        let attempts = StormSettings::by_link("attempts").unwrap();
        assert_eq!(read("seed=3&b.attempts=1"), Some(Ok(vec![(attempts, 1)])));
        // Written back the same way.
        assert_eq!(lab_b_params(&[(attempts, 1)]), [("b.attempts".to_owned(), "1".to_owned())]);
        assert_eq!(lab_b_params(&[]), [("compare".to_owned(), "1".to_owned())]);
        // A bad run B is refused by name, with what is allowed.
        let Some(Err(message)) = read("b.attempts=0") else { panic!() };
        assert!(message.starts_with("b.attempts: 0 is out of range; allowed: "), "{message}");
        let Some(Err(message)) = read("b.nope=1") else { panic!() };
        assert!(message.starts_with("b.nope: not a setting of run B"), "{message}");
    }

    #[test]
    fn the_risk_labs_link_carries_its_run_b_and_fork_both_ways() {
        use crate::sim::risk::Settings as RiskSettings;
        use crate::sim::risk::settings::IDEMPOTENT_CREATE;
        let link = parse_query_on("preset=incident&b.idem=on&fork=4.2", LabKind::Risk);
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        let (a, notices) = decode_settings::<RiskSettings>(&link.state.lab_params);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(decode_lab_b(&a, &link.state.lab_params), Some(Ok(vec![(IDEMPOTENT_CREATE.def(), 1)])));
        assert_eq!(decode_lab_fork(&link.state.lab_params), Some(Millis(4_200)));
        // A fork alone opens run B as run A.
        let link = parse_query_on("fork=1", LabKind::Risk);
        assert_eq!(decode_lab_b(&a, &link.state.lab_params), Some(Ok(vec![])));
        assert_eq!(decode_lab_fork(&link.state.lab_params), Some(Millis(1_000)));
        // No run B, no fork.
        let link = parse_query_on("preset=incident", LabKind::Risk);
        assert_eq!(decode_lab_fork(&link.state.lab_params), None);
        assert!(!asks_lab_b(&link.state.lab_params));
        // A change of run B alone opens it.
        assert!(asks_lab_b(&parse_query_on("b.idem=on", LabKind::Risk).state.lab_params));
        // Written back as the first lab writes its run B.
        let state = LinkState {
            lab: LabKind::Risk,
            compare: Some(LinkCompare { changes: vec![(IDEMPOTENT_CREATE.def(), 1)], fork: Some(Millis(4_200)) }),
            ..LinkState::default()
        };
        assert_eq!(to_query(&state), "lab=risk&b.idem=on&fork=4.2");
        let Some(Err(message)) = decode_lab_b(&a, &[("b.dedup".to_owned(), "off".to_owned())]) else { panic!() };
        assert!(message.ends_with("such as b.mode"), "{message}");
    }

    #[test]
    fn a_link_carries_a_second_run_its_fork_and_checkpoints() {
        let query = "fault=lose-first&b.dedup=off&b.key=per-attempt&fork=4&at=4&present=1&pin=2.05%3AWill%20it%20retry%3F&pin=4";
        let ParsedLink { state, notices, is_link } = parse_query(query);
        assert!(notices.is_empty(), "{notices:?}");
        assert!(is_link && state.present);
        assert!(state.settings.dedup(), "run A keeps its own settings");
        let c = state.compare.clone().unwrap();
        assert_eq!(c.changes.iter().map(|(p, v)| (p.name, *v)).collect::<Vec<_>>(), [("dedup", 0), ("key", 1)]);
        assert_eq!(c.fork, Some(Millis(4000)));
        assert_eq!(
            state.pins,
            [
                Pin { at: Millis(2050), question: "Will it retry?".to_owned() },
                Pin { at: Millis(4000), question: DEFAULT_QUESTION.to_owned() }
            ]
        );
        // Written back, it reads the same.
        let again = parse_query(&to_query(&state));
        assert_eq!(again.state, state);
        assert_eq!(
            to_query(&state),
            "b.dedup=off&b.key=per-attempt&fork=4&at=4&present=1&pin=2.05%3AWill%20it%20retry%3F&pin=4%3AWhat%20happens%20next%3F"
        );
        // A change equal to run A's value is no change; compare=1 opens B = A.
        let ParsedLink { state, .. } = parse_query("dedup=off&b.dedup=off");
        assert_eq!(state.compare, Some(LinkCompare::default()));
        assert_eq!(to_query(&state), "dedup=off&compare=1");
    }

    #[test]
    fn a_broken_second_run_is_refused_whole_and_run_a_is_kept() {
        for (query, needle) in [
            ("dedup=off&b.dedup=maybe&b.key=per-attempt", "b.dedup: \"maybe\""),
            ("b.moon=1", "b.moon: not a setting of run B"),
            ("b.timeout=%3Cscript%3E", "b.timeout: \"<script>\""),
            ("b.attempts=11", "b.attempts: 11 is out of range"),
        ] {
            let ParsedLink { state, notices, .. } = parse_query(query);
            assert_eq!(state.compare, None, "{query}");
            assert_eq!(notices.len(), 1, "{query}: {notices:?}");
            assert!(notices[0].contains(needle), "{query}: {notices:?}");
            assert!(notices[0].ends_with("The second run was not opened; run A is shown alone."), "{notices:?}");
        }
        let ParsedLink { state, .. } = parse_query("dedup=off&b.dedup=maybe");
        assert!(!state.settings.dedup());
    }

    #[test]
    fn checkpoints_are_cleaned_and_bounded() {
        assert_eq!(clean_question("  Will\nit\tretry?  "), "Will it retry?");
        assert_eq!(clean_question(""), DEFAULT_QUESTION);
        assert_eq!(clean_question(&"x".repeat(500)).chars().count(), MAX_QUESTION_CHARS);
        let many: Vec<String> = (0..12).map(|i| format!("pin={i}")).collect();
        let ParsedLink { state, notices, .. } = parse_query(&many.join("&"));
        assert_eq!(state.pins.len(), MAX_PINS);
        assert!(notices.iter().all(|n| n.starts_with("pin: a run has at most 8 checkpoints")), "{notices:?}");
        let ParsedLink { state, notices, .. } = parse_query("pin=soon:what?&fork=later&present=maybe");
        assert!(state.pins.is_empty() && !state.present && state.compare.is_none());
        assert_eq!(notices.len(), 3, "{notices:?}");
        assert!(notices[0].starts_with("pin: \"soon:what?\" is not a checkpoint"), "{notices:?}");
    }

    #[test]
    fn huge_links_are_cut_and_reported() {
        let query = format!("dedup=off&{}", "x".repeat(100_000));
        let ParsedLink { state, notices, .. } = parse_query(&query);
        assert!(!state.settings.dedup());
        assert_eq!(notices.len(), 1);
    }
}
