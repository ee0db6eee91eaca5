//! Shared links: a lab's settings, its run B, the playhead and the page's
//! own parameters in the query string, the same for every lab. Decoding
//! never fails: a bad value costs only itself (it keeps its default and
//! yields a notice), and names that are nobody's are ignored.
//!
//! A link is read in two steps. [`parse_query`] splits it into the page's
//! parameters (validated here, see [`super::page`]), run A's and run B's
//! (`b.` names), as the link gave them; then the lab the link names reads
//! its own with [`read_lab`], in its own vocabulary.

use crate::sim::params::{Raw, shorten};
use crate::sim::{Millis, ParamDef, Schema};

use super::fields;
use super::labs::{self, LAB, Lab};
use super::lesson::{self, LessonAt};
use super::page::{PIN, Page, PageSettings, read_page};

/// Links longer than this are cut before decoding; no real link comes near
/// (the longest, one with a whole lesson in it, stays under it).
pub const MAX_QUERY_BYTES: usize = 16 * 1024;
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

/// Everything a link can say, for any lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkState {
    pub lab: Lab,
    /// Run A's settings, as `(link name, value)` in the lab's vocabulary:
    /// what the link gave, or what differs from the lab's defaults.
    pub params: Vec<(String, String)>,
    /// Run B's, the same way (a link writes them as `b.<name>`).
    pub b_params: Vec<(String, String)>,
    pub page: Page,
}

impl Default for LinkState {
    fn default() -> LinkState {
        LinkState { lab: labs::opening(), params: Vec::new(), b_params: Vec::new(), page: Page::default() }
    }
}

impl LinkState {
    /// A link to `lab`'s run with `settings`, run B's `changes` when it is
    /// open, and `page`.
    pub fn of<S: Schema>(lab: Lab, settings: &S, b: Option<&[(&'static ParamDef, u64)]>, page: Page) -> LinkState {
        let mut page = page;
        page.compare = b.is_some_and(|changes| changes.is_empty());
        LinkState { lab, params: settings_params(settings), b_params: b.map(b_params).unwrap_or_default(), page }
    }

    /// Whether the link opens run B.
    pub fn asks_b(&self) -> bool {
        self.page.compare || self.page.fork.is_some() || !self.b_params.is_empty()
    }
}

/// A decoded query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedLink {
    pub state: LinkState,
    /// What was refused, one message per parameter (at most `MAX_NOTICES`).
    pub notices: Vec<String>,
    /// Whether a page parameter was present (valid or not); [`read_lab`]
    /// adds the lab's own. A link names a run and a moment, and remembered
    /// settings must not override it.
    pub is_link: bool,
}

/// Reads a query string (with or without the leading `?`) on a page
/// whose lab, for a link without `lab=`, is `page_lab`.
pub fn parse_query(query: &str, page_lab: Lab) -> ParsedLink {
    let mut query = query.strip_prefix('?').unwrap_or(query);
    let mut notices = Vec::new();
    let cut_short = query.len() > MAX_QUERY_BYTES;
    if cut_short {
        let mut cut = MAX_QUERY_BYTES;
        while !query.is_char_boundary(cut) {
            cut -= 1;
        }
        query = &query[..cut];
        notices.push(format!("The link is longer than {MAX_QUERY_BYTES} bytes; only its start was read."));
    }
    let mut raw = Raw::<PageSettings>::human();
    let (mut pins, mut params, mut b_params) = (Vec::new(), Vec::new(), Vec::new());
    let mut lesson = Vec::new();
    let mut is_link = false;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (name, value) = (percent_decode(name), percent_decode(value));
        if let Some(param) = PageSettings::by_link(&name) {
            // The last value given wins, as browsers read repeated names.
            raw.set(param, value);
            is_link = true;
        } else if name == PIN {
            pins.push(value);
            is_link = true;
        } else if name == LESSON || name == STEP || name == CUT {
            lesson.push((name, value));
            is_link = true;
        } else if let Some(b) = name.strip_prefix("b.") {
            b_params.push((b.to_owned(), value));
        } else {
            params.push((name, value));
        }
    }
    let named = raw.get(&LAB).map(str::to_owned);
    let (settings, mut page, refused) = read_page(&raw, &pins);
    // The last parameter of a link cut short may be cut too.
    let last_cut = cut_short && query.rsplit('&').next().is_some_and(|p| p.starts_with("lesson="));
    page.lesson = read_lesson(&lesson, last_cut, &mut notices);
    notices.extend(
        refused.into_iter().map(|n| if n.starts_with("lab:") { format!("{n}. This page's lab is shown.") } else { n }),
    );
    let lab = match named {
        Some(_) if notices.iter().any(|n| n.starts_with("lab:")) => page_lab,
        Some(_) => labs::of_value(settings.get(&LAB)),
        None => page_lab,
    };
    notices.truncate(MAX_NOTICES);
    let mut state = LinkState { lab, params, b_params, page };
    // A lesson's link written by hand may name only the lesson (and its
    // step): the step's own link says the rest.
    if let Some(at) = &state.page.lesson
        && state.params.is_empty()
        && state.b_params.is_empty()
        && state.page.at.is_none()
        && named.is_none()
    {
        state = lesson::step_link(at, &state.page);
    }
    ParsedLink { state, notices, is_link }
}

/// The link names of a lesson's text and of the step on screen, and of
/// the step a lesson too long for a link was cut at.
pub const LESSON: &str = "lesson";
pub const STEP: &str = "step";
pub const CUT: &str = "cut";

/// The lesson a link's `lesson`, `step` and `cut` values give (the last of
/// each), with a notice for a lesson that does not read or a step it
/// lacks. `cut_short`: the lesson's value is where the link was cut.
fn read_lesson(pairs: &[(String, String)], cut_short: bool, notices: &mut Vec<String>) -> Option<LessonAt> {
    let last = |name: &str| pairs.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let read = lesson::unpack(last(LESSON)?).and_then(|text| match cut_short {
        true => whole_steps(&text),
        false => lesson::parse(&text),
    });
    let mut lesson = match read {
        Ok(lesson) => lesson,
        Err(message) => {
            notices.push(format!("{message}. The lesson was not opened."));
            return None;
        }
    };
    if let Some(at) = last(CUT).and_then(|v| v.parse::<usize>().ok()).filter(|&at| at == lesson.steps.len() + 1) {
        lesson.cut_at = Some(at);
    }
    let step = match last(STEP).map(|v| lesson::parse_step(v, lesson.steps.len())) {
        None => 0,
        Some(Ok(step)) => step,
        Some(Err(message)) => {
            notices.push(message);
            0
        }
    };
    Some(LessonAt { lesson, step })
}

/// The whole steps of a lesson's text cut short: the step it was cut in
/// is left out, and the lesson says where it was cut.
fn whole_steps(text: &str) -> Result<lesson::Lesson, String> {
    let starts = |line: &str| line.trim_start().to_ascii_lowercase().starts_with("step:");
    let lines: Vec<&str> = text.lines().collect();
    let last_step = lines.iter().rposition(|l| starts(l)).unwrap_or(0);
    let mut lesson = lesson::parse(&lines[..last_step].join("\n"))?;
    lesson.cut_at = Some(lesson.steps.len() + 1);
    Ok(lesson)
}

/// The lesson's part of a link in at most `room` bytes: compressed, whole
/// if it fits, else its first steps that fit and the step it was cut at.
fn lesson_params(at: &LessonAt, room: usize) -> Vec<String> {
    let write = |steps: usize| {
        let held = lesson::Lesson { steps: at.lesson.steps[..steps].to_vec(), cut_at: None, ..at.lesson.clone() };
        let mut parts = vec![format!("{LESSON}={}", lesson::pack(&held.to_text()))];
        parts.push(format!("{STEP}={}", at.step.min(steps.saturating_sub(1)) + 1));
        let cut_at = if steps < at.lesson.steps.len() { Some(steps + 1) } else { at.lesson.cut_at };
        parts.extend(cut_at.map(|n| format!("{CUT}={n}")));
        parts
    };
    let fits = |parts: &Vec<String>| parts.iter().map(|p| p.len() + 1).sum::<usize>() <= room;
    (1..=at.lesson.steps.len()).rev().map(write).find(fits).unwrap_or_default()
}

/// What a lab reads from a link: run A's settings, run B's changes if the
/// link opens run B, and what was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabLink<S> {
    pub settings: S,
    /// Run B's changes from run A (empty: B is A), when the link opens run
    /// B and all of them were allowed.
    pub b: Option<Vec<(&'static ParamDef, u64)>>,
    pub notices: Vec<String>,
    /// Whether the link names a run and a moment: a page parameter or one
    /// of the lab's was present.
    pub is_link: bool,
}

/// Reads the lab's settings and run B from a parsed link, in the lab's
/// vocabulary (`S`): notices for anything refused, the link's own first.
pub fn read_lab<S: Schema>(link: &ParsedLink) -> LabLink<S> {
    let state = &link.state;
    let (settings, refused) = decode_settings::<S>(&state.params);
    let mut notices = link.notices.clone();
    notices.extend(refused);
    let b = if state.asks_b() {
        match decode_b(&settings, &state.b_params) {
            Ok(changes) => Some(changes),
            Err(message) => {
                notices.push(format!("{message}. The second run was not opened; run A is shown alone."));
                None
            }
        }
    } else {
        None
    };
    notices.truncate(MAX_NOTICES);
    let mine = state.params.iter().any(|(name, _)| S::by_link(name).is_some());
    LabLink { settings, b, notices, is_link: link.is_link || mine || !state.b_params.is_empty() }
}

/// Reads a lab's settings from a link's parameters: a bad value costs only
/// itself (it keeps its default and yields a notice), unknown names are
/// ignored.
pub fn decode_settings<S: Schema>(pairs: &[(String, String)]) -> (S, Vec<String>) {
    // Over the defaults for what the link gives (the storm lab's depend on
    // its workload), as flags and files are read.
    let mut given = vec![None; S::PARAMS.len()];
    for (name, value) in pairs {
        if let Some(param) = S::by_link(name) {
            given[S::index_of(param)] = param.parse_human(value).ok();
        }
    }
    let mut settings = S::from_values(&S::defaults_for(&given)).unwrap_or_else(|_| S::opening());
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

/// Run B's changes from run A's settings `a`, given run B's link
/// parameters (names without `b.`): all of them, or the first refusal (a
/// second run that is partly what the link said would mislead).
pub fn decode_b<S: Schema>(a: &S, pairs: &[(String, String)]) -> Result<Vec<(&'static ParamDef, u64)>, String> {
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

/// A lab's settings as link parameters (names and values, not yet
/// encoded): only what differs from the defaults, so links stay short.
pub fn settings_params<S: Schema>(settings: &S) -> Vec<(String, String)> {
    let own: Vec<Option<u64>> = settings.values().iter().map(|&v| Some(v)).collect();
    let defaults = S::defaults_for(&own);
    S::PARAMS
        .iter()
        .zip(settings.values())
        .zip(defaults)
        .filter(|((_, value), default)| **value != *default)
        .map(|(pair, _)| pair)
        .map(|(param, &value): (&&'static ParamDef, &u64)| (param.link.to_owned(), param.format_human(value)))
        .collect()
}

/// Run B's changes as its link parameters (names without `b.`).
pub fn b_params(changes: &[(&'static ParamDef, u64)]) -> Vec<(String, String)> {
    changes.iter().map(|(p, v)| (p.link.to_owned(), p.format_human(*v))).collect()
}

/// Writes a query string (without `?`) holding only what differs from the
/// defaults, so links stay short: the lab (unless it is the opening lab),
/// run A's settings, run B's, then the page's parameters, checkpoints
/// after presenter mode.
pub fn to_query(state: &LinkState) -> String {
    let mut page = settings_params(&state.page.settings(state.lab));
    // The opening lab goes unnamed.
    page.retain(|(name, value)| name != "lab" || value != labs::opening().id);
    let encode = |name: &str, value: &str| format!("{name}={}", percent_encode(value));
    let mut parts: Vec<String> = page.iter().filter(|(n, _)| n == "lab").map(|(n, v)| encode(n, v)).collect();
    parts.extend(state.params.iter().map(|(n, v)| encode(n, v)));
    parts.extend(state.b_params.iter().map(|(n, v)| encode(&format!("b.{n}"), v)));
    let mut pins =
        state.page.pins.iter().map(|pin| {
            encode(PIN, &format!("{}:{}", crate::sim::params::ms_to_seconds_text(pin.at.ms()), pin.question))
        });
    let mut pinned = false;
    for (name, value) in page.iter().filter(|(n, _)| n != "lab") {
        if !pinned && matches!(name.as_str(), "embed" | "theme" | "accent" | "font") {
            parts.extend(pins.by_ref());
            pinned = true;
        }
        // Run B's changes say it is open; `compare=1` is for a B that is A.
        if name == "compare" && !state.b_params.is_empty() {
            continue;
        }
        parts.push(encode(name, value));
    }
    parts.extend(pins);
    if let Some(at) = &state.page.lesson {
        let used = parts.iter().map(|p| p.len() + 1).sum::<usize>();
        parts.extend(lesson_params(at, MAX_QUERY_BYTES.saturating_sub(used)));
    }
    parts.join("&")
}

/// The playhead's model time a link says, clamped by nobody yet.
pub fn at_of(link: &LinkState) -> Millis {
    link.page.at.unwrap_or(Millis::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ack::Settings;
    use crate::sim::ack::settings::{CRASH, DEADLINE, DEDUP, JITTER, KEY, RESPONSE_TRANSIT, TIMEOUT};
    use crate::view::ack::ACK;
    use crate::view::page::{DEFAULT_QUESTION, Font, Pin, Theme};
    use crate::view::risk::RISK;
    use crate::view::storm::STORMS;

    fn ack(query: &str) -> LabLink<Settings> {
        read_lab(&parse_query(query, ACK))
    }

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
        let page = Page {
            at: Some(Millis(2050)),
            embed: true,
            theme: Theme::Dark,
            accent: crate::sim::params::Colour(Some(0xaa3300)),
            font: Font::Serif,
            ..Page::default()
        };
        let state = LinkState::of(ACK, &settings, None, page.clone());
        let query = to_query(&state);
        assert_eq!(
            query,
            "dedup=off&key=per-attempt&timeout=2.5&jitter=full&resp=0&crash=after-effect&deadline=7.5&at=2.05&embed=1&theme=dark&accent=aa3300&font=serif"
        );
        let parsed = parse_query(&format!("?{query}"), ACK);
        assert_eq!(parsed.state, state);
        let read = read_lab::<Settings>(&parsed);
        assert_eq!((read.settings, read.b, read.notices, read.is_link), (settings, None, vec![], true));
    }

    #[test]
    fn a_link_names_its_lab_and_speaks_its_vocabulary() {
        use crate::sim::storm::StormSettings;
        use crate::sim::storm::settings::{ALGORITHM, CLIENTS, TIMEOUT as STORM_TIMEOUT};
        let link = parse_query("lab=storms&clients=500&algo=full&timeout=0.25&dedup=on", ACK);
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!(link.state.lab, STORMS);
        let storm = read_lab::<StormSettings>(&link);
        assert!(storm.notices.is_empty(), "{:?}", storm.notices);
        assert_eq!(storm.settings.get(&CLIENTS), 500);
        assert_eq!(storm.settings.text_of(&ALGORITHM), "full");
        assert_eq!(storm.settings.get(&STORM_TIMEOUT), 250);
        assert_eq!(settings_params(&storm.settings), link.state.params, "what a page puts in its link is what it read");
        assert_eq!(to_query(&link.state), "lab=storms&clients=500&algo=full&timeout=0.25&dedup=on");
        let (_, notices) = decode_settings::<StormSettings>(&[("clients".to_owned(), "0".to_owned())]);
        assert_eq!(notices, ["clients: 0 is out of range; allowed: a whole number from 1 to 100000"]);
        // A lab that is not one: the page's lab, with a notice.
        let link = parse_query("lab=moon&dedup=off", ACK);
        assert_eq!(link.state.lab, ACK);
        assert!(!ack("lab=moon&dedup=off").settings.dedup());
        assert_eq!(
            link.notices,
            ["lab: \"moon\" is not a known option; allowed: one of ack, risk, storms. This page's lab is shown."]
        );
        // A link without `lab` is read as the page's lab.
        let link = parse_query("clients=70", STORMS);
        assert_eq!(link.state.lab, STORMS);
        assert_eq!(read_lab::<StormSettings>(&link).settings.get(&CLIENTS), 70);
    }

    #[test]
    fn a_bad_value_costs_only_itself() {
        let read = ack("dedup=off&timeout=soon&exec=999999&utm_source=x&theme=neon");
        assert!(!read.settings.dedup(), "good values are kept");
        assert_eq!(read.settings.timeout(), Settings::default().timeout());
        assert_eq!(read.settings.exec(), Settings::default().exec());
        assert_eq!(read.notices.len(), 3, "{:?}", read.notices);
        assert!(read.notices[0].starts_with("theme: \"neon\""), "the page's own first: {:?}", read.notices);
        assert!(read.notices[1].starts_with("timeout: \"soon\""), "{:?}", read.notices);
        assert!(
            read.notices[2].starts_with("exec: 999999 is out of range; allowed: 0 to 600 seconds"),
            "{:?}",
            read.notices
        );
    }

    #[test]
    fn decoding_is_forgiving_and_exact() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%E2%9C%93"), "✓");
        assert_eq!(percent_decode("%FF"), "\u{fffd}");
        let read = ack("fault=lose%2Dall");
        assert_eq!(read.settings.fault(), crate::sim::ack::Fault::LoseAll);
        assert!(read.notices.is_empty());
    }

    #[test]
    fn only_our_parameters_make_a_link() {
        let is_link = |q: &str| ack(q).is_link;
        assert!(is_link("?at=0"));
        assert!(is_link("dedup=off"));
        assert!(is_link("embed=1"));
        assert!(is_link("b.dedup=off"));
        assert!(!is_link(""));
        assert!(!is_link("?utm_source=newsletter"));
    }

    #[test]
    fn a_storm_link_reads_its_workloads_defaults_and_writes_only_what_differs() {
        use crate::sim::Schema;
        use crate::sim::storm::StormSettings;
        use crate::sim::storm::settings::{ALGORITHM, Algorithm, Workload};
        // As `--workload occ` reads: the AWS experiment's 100 clients, full jitter.
        let read = read_lab::<StormSettings>(&parse_query("workload=occ", STORMS));
        assert_eq!(read.notices, Vec::<String>::new());
        assert_eq!((read.settings.occ.clients, read.settings.get(&ALGORITHM)), (100, Algorithm::Full));
        // The link the page writes for the workload's opening is just its name.
        let occ = StormSettings::opening_of(Workload::Occ);
        assert_eq!(settings_params(&occ), vec![("workload".to_owned(), "occ".to_owned())]);
        // And a value that differs from the workload's default is written,
        // so it reads back (no jitter under occ is not its default).
        let none = occ.set(&ALGORITHM, Algorithm::None).unwrap();
        let query: String = settings_params(&none).iter().map(|(k, v)| format!("{k}={v}&")).collect();
        assert_eq!(read_lab::<StormSettings>(&parse_query(&query, STORMS)).settings, none);
    }

    #[test]
    fn another_labs_settings_do_not_depend_on_the_order_of_the_links_names() {
        use crate::sim::storm::StormSettings;
        use crate::sim::storm::settings::Workload;
        for q in ["workload=occ&clients=20", "clients=20&workload=occ"] {
            let read = read_lab::<StormSettings>(&parse_query(q, STORMS));
            assert_eq!(read.notices, Vec::<String>::new(), "{q}");
            assert_eq!((read.settings.workload, read.settings.occ.clients), (Workload::Occ, 20), "{q}");
        }
        // A value no order can fix is still refused, by name, and costs only
        // itself: the workload stays, with its own client count.
        let read = read_lab::<StormSettings>(&parse_query("workload=occ&clients=2000", STORMS));
        assert_eq!(
            read.notices,
            ["clients: 2000 does not fit the other settings; allowed: at most 1000 clients with the occ workload"]
        );
        assert_eq!((read.settings.workload, read.settings.occ.clients), (Workload::Occ, 100));
    }

    #[test]
    fn every_labs_link_carries_its_run_b_and_fork_both_ways() {
        use crate::sim::risk::Settings as RiskSettings;
        use crate::sim::risk::settings::IDEMPOTENT_CREATE;
        let risk = |q: &str| read_lab::<RiskSettings>(&parse_query(q, RISK));
        let link = parse_query("preset=incident&b.idem=on&fork=4.2", RISK);
        let read = read_lab::<RiskSettings>(&link);
        assert!(read.notices.is_empty(), "{:?}", read.notices);
        assert_eq!(read.b, Some(vec![(IDEMPOTENT_CREATE.def(), 1)]));
        assert_eq!(link.state.page.fork, Some(Millis(4_200)), "fork is in seconds in every lab");
        // A fork alone opens run B as run A.
        assert_eq!(risk("fork=1").b, Some(vec![]));
        // No run B, no fork.
        assert_eq!(risk("preset=incident").b, None);
        // A change of run B alone opens it.
        assert_eq!(risk("b.idem=on").b, Some(vec![(IDEMPOTENT_CREATE.def(), 1)]));
        // Written back as every lab writes its run B.
        let page = Page { fork: Some(Millis(4_200)), ..Page::default() };
        let state = LinkState::of(RISK, &RiskSettings::default(), Some(&[(IDEMPOTENT_CREATE.def(), 1)]), page);
        assert_eq!(to_query(&state), "lab=risk&b.idem=on&fork=4.2");
        let message = risk("b.dedup=off").notices.remove(0);
        assert!(message.contains("such as b.mode"), "{message}");
    }

    #[test]
    fn a_link_carries_a_second_run_its_fork_and_checkpoints() {
        let query = "fault=lose-first&b.dedup=off&b.key=per-attempt&fork=4&at=4&present=1&pin=2.05%3AWill%20it%20retry%3F&pin=4";
        let link = parse_query(query, ACK);
        let read = read_lab::<Settings>(&link);
        assert!(read.notices.is_empty(), "{:?}", read.notices);
        assert!(read.is_link && link.state.page.present);
        assert!(read.settings.dedup(), "run A keeps its own settings");
        let changes = read.b.clone().unwrap();
        assert_eq!(changes.iter().map(|(p, v)| (p.name, *v)).collect::<Vec<_>>(), [("dedup", 0), ("key", 1)]);
        assert_eq!(link.state.page.fork, Some(Millis(4000)));
        assert_eq!(
            link.state.page.pins,
            [
                Pin { at: Millis(2050), question: "Will it retry?".to_owned() },
                Pin { at: Millis(4000), question: DEFAULT_QUESTION.to_owned() }
            ]
        );
        // Written back by the lab, it reads the same.
        let state = LinkState::of(ACK, &read.settings, Some(&changes), link.state.page.clone());
        assert_eq!(
            to_query(&state),
            "b.dedup=off&b.key=per-attempt&fork=4&at=4&present=1&pin=2.05%3AWill%20it%20retry%3F&pin=4%3AWhat%20happens%20next%3F"
        );
        assert_eq!(read_lab::<Settings>(&parse_query(&to_query(&state), ACK)), read);
        // A change equal to run A's value is no change; compare=1 opens B = A.
        let read = ack("dedup=off&b.dedup=off");
        assert_eq!(read.b, Some(vec![]));
        let state = LinkState::of(ACK, &read.settings, Some(&[]), Page::default());
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
            let read = ack(query);
            assert_eq!(read.b, None, "{query}");
            assert_eq!(read.notices.len(), 1, "{query}: {:?}", read.notices);
            assert!(read.notices[0].contains(needle), "{query}: {:?}", read.notices);
            assert!(read.notices[0].ends_with("The second run was not opened; run A is shown alone."));
        }
        assert!(!ack("dedup=off&b.dedup=maybe").settings.dedup());
    }

    #[test]
    fn checkpoints_in_a_link_are_bounded() {
        let many: Vec<String> = (0..12).map(|i| format!("pin={i}")).collect();
        let link = parse_query(&many.join("&"), ACK);
        assert_eq!(link.state.page.pins.len(), crate::view::page::MAX_PINS);
        assert!(
            link.notices.iter().all(|n| n.starts_with("pin: a run has at most 8 checkpoints")),
            "{:?}",
            link.notices
        );
        let link = parse_query("pin=soon:what?&fork=later&present=maybe", ACK);
        assert!(link.state.page.pins.is_empty() && !link.state.page.present && link.state.page.fork.is_none());
        assert_eq!(link.notices.len(), 3, "{:?}", link.notices);
    }

    #[test]
    fn huge_links_are_cut_and_reported() {
        let query = format!("dedup=off&{}", "x".repeat(100_000));
        let read = ack(&query);
        assert!(!read.settings.dedup());
        assert_eq!(read.notices.len(), 1);
    }

    #[test]
    fn a_lesson_travels_in_the_link_with_its_step() {
        let text = crate::view::lesson::LESSONS[0];
        let lesson = crate::view::lesson::parse(text).unwrap();
        let mut state = LinkState::default();
        state.page.lesson = Some(LessonAt { lesson: lesson.clone(), step: 2 });
        let query = to_query(&state);
        assert!(query.len() < MAX_QUERY_BYTES / 2, "the shipped lesson fits a link: {} bytes", query.len());
        assert!(query.starts_with("lesson=~") && query.ends_with("&step=3"), "{query}");
        let back = parse_query(&query, ACK);
        assert!(back.notices.is_empty(), "{:?}", back.notices);
        assert_eq!(back.state.page.lesson, Some(LessonAt { lesson: lesson.clone(), step: 2 }));
        // A link written before lessons were compressed still reads.
        let old = format!("lesson={}&step=3", percent_encode(text));
        assert_eq!(parse_query(&old, ACK).state.page.lesson, Some(LessonAt { lesson, step: 2 }));
        // A step the lesson lacks shows the first; a lesson that does not
        // read is left out; both say so.
        let far = parse_query(&query.replace("step=3", "step=9"), ACK);
        assert_eq!(far.state.page.lesson.as_ref().map(|l| l.step), Some(0));
        assert!(
            far.notices[0].starts_with("step: \"9\" is not a step of this lesson; allowed: a whole number from 1 to 5")
        );
        // A link with nothing but the lesson opens the step's run.
        let bare = parse_query(&format!("step=4&{}", query.split('&').next().unwrap()), ACK);
        assert_eq!(bare.state.lab, labs::by_id("ack").unwrap());
        assert_eq!(bare.state.params, [("key".to_owned(), "per-attempt".to_owned())]);
        assert_eq!(bare.state.page.at, Some(Millis(6_050)));
        let risk = parse_query(&format!("step=5&{}", query.split('&').next().unwrap()), ACK);
        assert_eq!(risk.state.lab, RISK, "the step's lab, for the page to switch to");
        let bad = parse_query("lesson=Step%3A%20a%0ALab%3A%20moon", ACK);
        assert_eq!(
            parse_query("lesson=~AAAA", ACK).notices,
            [
                "lesson: the link's lesson is damaged (it does not decompress); allowed: a lesson as the page writes it into a link. The lesson was not opened."
            ]
        );
        assert_eq!(bad.state.page.lesson, None);
        assert_eq!(
            bad.notices,
            ["lesson line 2: Lab: \"moon\" is not a lab; allowed: ack, risk, storms. The lesson was not opened."]
        );
    }

    /// Nine steps of Russian, 3 800 characters: 7 kB of UTF-8, 20 kB
    /// percent-encoded, which a link of 16 KiB cut at step 8 without a
    /// word; compressed, the whole lesson fits.
    fn russian_lesson() -> String {
        let mut text = "Lesson: Повтор запроса после потерянного подтверждения\n".to_owned();
        for n in 1..=9 {
            text.push_str(&format!(
                "\nStep: Шаг {n}: клиент повторяет запрос\nSettings: dedup=off\nAt: 6.05\n\
                 Question: Сколько раз сервер выполнил операцию, если подтверждение первой попытки потерялось в сети, а клиент повторил запрос с тем же ключом идемпотентности после тайм-аута? Шаг {n}.\n\
                 Answer: Дважды: без дедупликации сервер не смотрит на ключ идемпотентности и выполняет вторую попытку как новую операцию, так что счётчик увеличивается на два вместо одного.\n"
            ));
        }
        text
    }

    #[test]
    fn an_ordinary_lesson_in_any_script_fits_a_link_whole() {
        let text = russian_lesson();
        let lesson = crate::view::lesson::parse(&text).unwrap();
        assert_eq!(lesson.steps.len(), 9);
        assert!(text.chars().count() > 3_000 && percent_encode(&text).len() > MAX_QUERY_BYTES, "it did not fit before");
        let state = LinkState {
            page: Page { lesson: Some(LessonAt { lesson: lesson.clone(), step: 8 }), ..Page::default() },
            ..LinkState::default()
        };
        let query = to_query(&state);
        assert!(query.len() < MAX_QUERY_BYTES / 2, "{} bytes", query.len());
        let back = parse_query(&query, ACK);
        assert!(back.notices.is_empty(), "{:?}", back.notices);
        assert_eq!(back.state.page.lesson, Some(LessonAt { lesson, step: 8 }));
    }

    #[test]
    fn a_lesson_too_long_for_a_link_is_cut_at_a_step_and_says_so() {
        // Written before lessons were compressed, the Russian lesson's link
        // is longer than a link is read to: it is cut in a step, which is
        // left out, and the lesson says where.
        let text = russian_lesson();
        let long = format!("lesson={}&step=1", percent_encode(&text));
        let cut = parse_query(&long, ACK);
        let lesson = cut.state.page.lesson.unwrap().lesson;
        let held = lesson.steps.len();
        assert!(held < 9, "{held}");
        assert_eq!(lesson.cut_at, Some(held + 1));
        assert!(lesson.steps.iter().all(|s| s.answer.is_some()), "no step is half there");
        assert_eq!(
            crate::view::lesson::cut_words(&lesson).unwrap(),
            format!(
                "The lesson \"Повтор запроса после потерянного подтверждения\" is too long for a link: the link holds its first {held} steps and was cut at step {}. To give every step, share the lesson as a file.",
                held + 1
            )
        );
        // Writing a link with less room than the lesson needs cuts it at a
        // whole step the same way, and says where in the link.
        let whole = crate::view::lesson::parse(&text).unwrap();
        let at = LessonAt { lesson: whole, step: 0 };
        let full: usize = lesson_params(&at, usize::MAX).iter().map(|p| p.len() + 1).sum();
        let parts = lesson_params(&at, full - 1);
        assert!(parts.last().is_some_and(|p| p.starts_with("cut=")), "{parts:?}");
        let read = parse_query(&parts.join("&"), ACK).state.page.lesson.unwrap().lesson;
        assert_eq!(read.cut_at, Some(read.steps.len() + 1));
        assert_eq!(read.steps.len(), 8, "one step fewer is enough room");
    }
}
