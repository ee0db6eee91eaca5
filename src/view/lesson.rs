//! Lessons an instructor writes: an ordered list of steps, each a lab, its
//! settings, a playhead and an optional question and answer. A lesson is
//! plain text, one `Name: value` line per field:
//!
//! ```text
//! Lesson: Three ways to count twice
//!
//! Step: Deduplication off
//! Lab: ack
//! Settings: dedup=off
//! At: 6.05
//! Question: Where did idempotency break?
//! Answer: In the server: it never looked at the key.
//! ```
//!
//! `Lesson:` names the lesson (once, first). Each `Step:` starts a step and
//! names it; the fields after it belong to that step until the next one.
//! `Lab:` is a lab's id (the step before's lab when left out, the first
//! lab for the first step); `Settings:` are the lab's settings as a link
//! writes them (`name=value&name=value`, run B's as `b.name=value`); `At:`
//! is the playhead in model seconds; `Question:` and `Answer:` are one line
//! each. Blank lines and lines starting with `#` are ignored. A lesson
//! travels in a link (`lesson=` with its text, `step=` the step shown) or
//! as a file the page imports.

use crate::sim::Millis;
use crate::sim::params::{seconds_to_ms, shorten};

use super::labs::{self, Lab};
use super::page::Page;
use super::url::{LinkState, percent_decode};

/// At most this many steps in a lesson.
pub const MAX_STEPS: usize = 20;
/// A lesson's text is at most this long (it travels in a link).
pub const MAX_LESSON_CHARS: usize = 4_000;
/// A title, question or answer is at most this long.
pub const MAX_LINE_CHARS: usize = 400;

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub title: String,
    pub lab: Lab,
    /// The lab's settings as link parameters, in order (run B's named
    /// `b.<name>`). The lab validates them as it validates any link.
    pub settings: Vec<(String, String)>,
    pub at: Option<Millis>,
    pub question: Option<String>,
    pub answer: Option<String>,
}

/// A lesson: its title and its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub title: String,
    pub steps: Vec<Step>,
    /// The step (from 1) a link cut the lesson at, being too long for a
    /// link: it holds the steps before it only.
    pub cut_at: Option<usize>,
}

/// A lesson and the step on screen (an index into its steps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonAt {
    pub lesson: Lesson,
    pub step: usize,
}

impl LessonAt {
    pub fn current(&self) -> &Step {
        &self.lesson.steps[self.step]
    }

    /// The step `by` steps on (back for negative), if there is one.
    pub fn moved(&self, by: isize) -> Option<LessonAt> {
        let step = self.step.checked_add_signed(by).filter(|&s| s < self.lesson.steps.len())?;
        Some(LessonAt { lesson: self.lesson.clone(), step })
    }

    /// "Step 2 of 3: Deduplication off".
    pub fn heading(&self) -> String {
        format!("Step {} of {}: {}", self.step + 1, self.lesson.steps.len(), self.current().title)
    }

    /// What stepping past the last step (`forward`) or before the first
    /// says instead.
    pub fn at_an_end(&self, forward: bool) -> String {
        let end = if forward { "last" } else { "first" };
        format!("This is the {end} step of \"{}\".", crate::sim::params::neutral(&self.lesson.title))
    }
}

/// The field names a lesson's lines may start with.
const FIELDS: &str = "Lesson, Step, Lab, Settings, At, Question, Answer";

/// Page parameters a step's `Settings:` may not hold: the step says them
/// in its own fields, or the page keeps them.
const NOT_SETTINGS: &[&str] = &["lab", "at", "present", "embed", "lesson", "step", "pin", "theme", "accent", "font"];

fn one_line(text: &str, line: usize, field: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("lesson line {line}: {field}: is empty; allowed: one line of text"));
    }
    if text.chars().count() > MAX_LINE_CHARS {
        return Err(format!("lesson line {line}: {field}: is longer than {MAX_LINE_CHARS} characters"));
    }
    Ok(text.to_owned())
}

/// A step's `Settings:` value as link parameters.
fn settings(value: &str, line: usize) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for pair in value.trim().split('&').filter(|p| !p.trim().is_empty()) {
        let Some((name, v)) = pair.split_once('=') else {
            return Err(format!(
                "lesson line {line}: Settings: \"{}\" is not name=value; allowed: settings as a link writes them, such as dedup=off&retention=0",
                shorten(pair)
            ));
        };
        let name = percent_decode(name.trim());
        if NOT_SETTINGS.contains(&name.as_str()) {
            return Err(format!(
                "lesson line {line}: Settings: {name} is not a lab setting; a step gives its lab in Lab: and its playhead in At:"
            ));
        }
        out.push((name, percent_decode(v.trim())));
    }
    Ok(out)
}

/// Reads a lesson's text, or says what is wrong with it (the line and what
/// is allowed).
pub fn parse(text: &str) -> Result<Lesson, String> {
    if text.chars().count() > MAX_LESSON_CHARS {
        return Err(format!("lesson: the text is longer than {MAX_LESSON_CHARS} characters"));
    }
    let mut title = None;
    let mut steps: Vec<Step> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let (n, line) = (i + 1, raw.trim());
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((field, value)) = line.split_once(':') else {
            return Err(format!("lesson line {n}: \"{}\" is not Name: value; allowed names: {FIELDS}", shorten(line)));
        };
        let field = field.trim().to_ascii_lowercase();
        if field == "step" {
            if steps.len() == MAX_STEPS {
                return Err(format!("lesson line {n}: a lesson has at most {MAX_STEPS} steps"));
            }
            let lab = steps.last().map_or_else(labs::opening, |s| s.lab);
            let title = one_line(value, n, "Step")?;
            steps.push(Step { title, lab, settings: Vec::new(), at: None, question: None, answer: None });
            continue;
        }
        if field == "lesson" {
            if title.is_some() || !steps.is_empty() {
                return Err(format!("lesson line {n}: Lesson: names the lesson once, before its first step"));
            }
            title = Some(one_line(value, n, "Lesson")?);
            continue;
        }
        let Some(step) = steps.last_mut() else {
            return Err(format!("lesson line {n}: a step's fields come after its Step: line"));
        };
        match field.as_str() {
            "lab" => {
                step.lab = labs::by_command(labs::LABS, value.trim()).ok_or_else(|| {
                    let ids: Vec<&str> = labs::LABS.iter().map(|l| l.id).collect();
                    format!(
                        "lesson line {n}: Lab: \"{}\" is not a lab; allowed: {}",
                        shorten(value.trim()),
                        ids.join(", ")
                    )
                })?
            }
            "settings" => step.settings.extend(settings(value, n)?),
            "at" => {
                let ms = seconds_to_ms(value.trim()).ok_or_else(|| {
                    format!(
                        "lesson line {n}: At: \"{}\" is not a moment; allowed: a model time in seconds such as 2.05",
                        shorten(value.trim())
                    )
                })?;
                step.at = Some(Millis(ms));
            }
            "question" => step.question = Some(one_line(value, n, "Question")?),
            "answer" => step.answer = Some(one_line(value, n, "Answer")?),
            _ => {
                return Err(format!(
                    "lesson line {n}: \"{}\" is not a field; allowed names: {FIELDS}",
                    shorten(field.as_str())
                ));
            }
        }
    }
    if steps.is_empty() {
        return Err("lesson: it has no steps; each step starts with a Step: line".to_owned());
    }
    Ok(Lesson { title: title.unwrap_or_else(|| "Lesson".to_owned()), steps, cut_at: None })
}

impl Lesson {
    /// The lesson as text, in the form [`parse`] reads (what a link
    /// carries and a file holds).
    pub fn to_text(&self) -> String {
        let mut out = format!("Lesson: {}\n", self.title);
        for s in &self.steps {
            out.push_str(&format!("\nStep: {}\nLab: {}\n", s.title, s.lab.id));
            if !s.settings.is_empty() {
                let pairs: Vec<String> = s.settings.iter().map(|(n, v)| format!("{n}={v}")).collect();
                out.push_str(&format!("Settings: {}\n", pairs.join("&")));
            }
            if let Some(at) = s.at {
                out.push_str(&format!("At: {}\n", crate::sim::params::ms_to_seconds_text(at.ms())));
            }
            for (name, text) in [("Question", &s.question), ("Answer", &s.answer)] {
                if let Some(text) = text {
                    out.push_str(&format!("{name}: {text}\n"));
                }
            }
        }
        out
    }
}

/// The link that opens step `at` of its lesson on a page like `page`
/// (presenter mode and the look carry over; the rest is the step's).
pub fn step_link(at: &LessonAt, page: &Page) -> LinkState {
    let step = at.current();
    let (b, a): (Vec<_>, Vec<_>) = step.settings.iter().cloned().partition(|(n, _)| n.starts_with("b."));
    let b_params = b.into_iter().map(|(n, v)| (n["b.".len()..].to_owned(), v)).collect();
    let page = Page {
        at: step.at,
        present: page.present,
        theme: page.theme,
        accent: page.accent,
        font: page.font,
        lesson: Some(at.clone()),
        ..Page::default()
    };
    LinkState { lab: step.lab, params: a, b_params, page }
}

/// What the lesson's bar says of a lesson a link cut short, naming the
/// lesson and the step it was cut at.
pub fn cut_words(lesson: &Lesson) -> Option<String> {
    let at = lesson.cut_at?;
    Some(format!(
        "The lesson \"{}\" is too long for a link: the link holds its first {} steps and was cut at step {at}. To give every step, share the lesson as a file.",
        crate::sim::params::neutral(&lesson.title),
        lesson.steps.len()
    ))
}

/// Marks a lesson's compressed form in a link (an uncompressed one starts
/// with a field's name).
const PACKED: char = '~';

/// A lesson's text as a link carries it: compressed (raw deflate) and in
/// base64url, so an ordinary lesson of a few thousand characters, in any
/// script, fits a link; `~` first.
pub fn pack(text: &str) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    format!("{PACKED}{}", base64url(&deflated))
}

/// A link's `lesson` value as the lesson's text: compressed (see [`pack`])
/// or, as older links carry it, the text itself.
pub fn unpack(value: &str) -> Result<String, String> {
    let Some(packed) = value.strip_prefix(PACKED) else { return Ok(value.to_owned()) };
    let refused = || {
        "lesson: the link's lesson is damaged (it does not decompress); allowed: a lesson as the page writes it into a link".to_owned()
    };
    let bytes = from_base64url(packed).ok_or_else(refused)?;
    // A lesson's text is at most MAX_LESSON_CHARS characters of at most
    // four bytes each: more is refused without being inflated further.
    let text =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_LESSON_CHARS * 4).map_err(|_| refused())?;
    String::from_utf8(text).map_err(|_| refused())
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(BASE64URL[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = BASE64URL.iter().position(|&b| b == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Reads a link's `step` value for a lesson of `steps` steps: a step number
/// from 1.
pub fn parse_step(value: &str, steps: usize) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=steps).contains(&n) => Ok(n - 1),
        _ => Err(format!(
            "step: \"{}\" is not a step of this lesson; allowed: a whole number from 1 to {steps}. The first step is shown.",
            shorten(value)
        )),
    }
}

/// Whether a file the page imports is a lesson (by its name, or by its
/// first line) rather than a settings file.
pub fn is_lesson_file(name: &str, text: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    let first = first.to_ascii_lowercase();
    name.ends_with(".lesson") || name.ends_with(".txt") || first.starts_with("lesson:") || first.starts_with("step:")
}

/// The lessons that come with the labs, the seed's experiment first.
pub const LESSONS: &[&str] = &[include_str!("../../lessons/three-ways.lesson")];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::ack::ACK;
    use crate::view::risk::RISK;

    const THREE: &str = "Lesson: Three steps\n\nStep: One increment\nSettings: dedup=on\nAt: 4.05\n\
                         Question: How many?\nAnswer: One.\n\n# a comment\nStep: Two\nSettings: dedup=off&at=x\n";

    #[test]
    fn a_lesson_reads_its_steps_and_carries_the_lab_on() {
        let lesson = parse(
            "Lesson: Three steps\nStep: One\nSettings: dedup=off\nAt: 6.05\nQuestion: Where?\nAnswer: Server.\n\n\
             # the risk lab\nStep: Two\nLab: risk\nSettings: mode=naive&b.mode=incident\nStep: Three\n",
        )
        .unwrap();
        assert_eq!(lesson.title, "Three steps");
        assert_eq!(lesson.steps.len(), 3);
        let one = &lesson.steps[0];
        assert_eq!((one.lab, one.at, one.question.as_deref()), (ACK, Some(Millis(6_050)), Some("Where?")));
        assert_eq!(one.settings, [("dedup".to_owned(), "off".to_owned())]);
        assert_eq!(lesson.steps[1].settings[1], ("b.mode".to_owned(), "incident".to_owned()));
        assert_eq!((lesson.steps[2].lab, lesson.steps[2].at), (RISK, None), "the lab carries on");
        assert_eq!(parse(&lesson.to_text()).unwrap(), lesson, "the text form reads back the same");
    }

    #[test]
    fn a_bad_lesson_says_which_line_and_what_is_allowed() {
        assert_eq!(
            parse(THREE).unwrap_err(),
            "lesson line 11: Settings: at is not a lab setting; a step gives its lab in Lab: and its playhead in At:"
        );
        assert_eq!(
            parse("Step: a\nLab: nowhere").unwrap_err(),
            "lesson line 2: Lab: \"nowhere\" is not a lab; allowed: ack, risk, storms"
        );
        assert_eq!(
            parse("Step: a\nAt: soon").unwrap_err(),
            "lesson line 2: At: \"soon\" is not a moment; allowed: a model time in seconds such as 2.05"
        );
        assert_eq!(parse("Lab: ack").unwrap_err(), "lesson line 1: a step's fields come after its Step: line");
        assert!(parse("Step: a\nColour: red").unwrap_err().contains("allowed names: Lesson, Step, Lab"));
        assert!(parse("Lesson: empty").unwrap_err().starts_with("lesson: it has no steps"));
        let many: String = (0..21).map(|i| format!("Step: {i}\n")).collect();
        assert_eq!(parse(&many).unwrap_err(), "lesson line 21: a lesson has at most 20 steps");
    }

    #[test]
    fn steps_move_within_the_lesson() {
        let lesson = parse("Step: a\nStep: b\nStep: c").unwrap();
        let at = LessonAt { lesson, step: 0 };
        assert_eq!(at.heading(), "Step 1 of 3: a");
        assert_eq!(at.moved(1).unwrap().heading(), "Step 2 of 3: b");
        assert_eq!(at.moved(-1), None);
        assert_eq!(at.moved(3), None);
        assert_eq!(parse_step("3", 3), Ok(2));
        assert!(parse_step("4", 3).unwrap_err().starts_with("step: \"4\" is not a step of this lesson"));
    }

    #[test]
    fn a_steps_link_opens_its_lab_with_its_settings_and_keeps_presenting() {
        let lesson =
            parse("Step: a\nSettings: dedup=off\nAt: 6.05\nStep: b\nLab: risk\nSettings: mode=naive&b.mode=patterns")
                .unwrap();
        let presenting = Page { present: true, theme: crate::view::page::Theme::Dark, ..Page::default() };
        let first = step_link(&LessonAt { lesson: lesson.clone(), step: 0 }, &presenting);
        assert_eq!(first.lab, ACK);
        assert_eq!(first.params, [("dedup".to_owned(), "off".to_owned())]);
        assert_eq!((first.page.at, first.page.present), (Some(Millis(6_050)), true));
        let second = step_link(&LessonAt { lesson, step: 1 }, &presenting);
        assert_eq!(second.lab, RISK);
        assert_eq!(second.b_params, [("mode".to_owned(), "patterns".to_owned())]);
        assert_eq!(second.page.at, None, "no At: opens the step at 0");
        assert_eq!(second.page.theme, crate::view::page::Theme::Dark);
        assert_eq!(second.page.lesson.as_ref().map(|l| l.step), Some(1));
    }

    #[test]
    fn a_lesson_file_is_told_from_a_settings_file() {
        assert!(is_lesson_file("three.lesson", "{}"));
        assert!(is_lesson_file("notes.txt", ""));
        assert!(is_lesson_file("x.json", "# mine\n\nLesson: mine\nStep: a"));
        assert!(is_lesson_file("x", "step: a"));
        assert!(!is_lesson_file("x.json", "[1, 2, 3]"));
        assert!(!is_lesson_file("run.json", "{\"dedup\": false}"));
    }

    #[test]
    fn the_shipped_lessons_read() {
        for text in LESSONS {
            let lesson = parse(text).unwrap();
            assert!(lesson.steps.len() >= 3);
        }
    }
}
