//! What exploring every schedule found, in words: per check its title, how
//! many distinct schedules break it, and the simplest of them as the flags
//! and the link that replay it; and the sentence of what that teaches. The
//! command line prints it and the page's Explore panel shows it (the
//! browser's worker sends it over as the same JSON, written and read with
//! the small `sim::json`, so the page carries no serialisation framework).

use crate::sim::json::Json;
use crate::sim::params::Schema;
use crate::view::lab::LabModel;
use crate::view::labs::{Lab, Labs, PerLab, Registry};
use crate::view::url::{LinkState, to_query};

/// A schedule: the simplest that breaks a check, or the first that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortest {
    /// `KIND@N`, as the lab's fault flag and `fault=`/`faults=` take them.
    pub faults: Vec<String>,
    /// The risk lab's race order (`w1-first`, `w2-first`).
    pub worker_order: Option<String>,
    /// The command line's flags that replay it.
    pub flags: String,
    /// The link (a query, from `?`) that opens it as the lab's run.
    pub link: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub title: String,
    pub broken: u64,
    pub shortest: Option<Shortest>,
}

/// One exploration, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub lab: String,
    pub max_faults: usize,
    pub explored: u64,
    pub distinct: u64,
    /// Schedules whose run hit a bound of the model before its end (a bug
    /// of the model, reported rather than judged), and the first of them.
    pub failed: u64,
    pub first_failed: Option<Shortest>,
    pub rows: Vec<Row>,
}

/// A lab that explores every schedule of at most K aimed faults over its
/// settings, and judges each run by its own checks.
pub trait Explores: LabModel {
    /// What its schedules are made of, in words, for the panel's hint.
    const ALPHABET: &'static str;
    /// Every schedule over `base`; `progress` hears (done, total) and may
    /// say false to stop.
    fn explore(base: &Self::Settings, k: usize, progress: &mut dyn FnMut(u64, u64) -> bool) -> Found;
}

/// Hears an exploration's progress (done, total); false stops it.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64) -> bool;

/// A lab's exploration, for the shells that reach it through the registry
/// (the command line's `explore`, the explore worker).
pub struct Explorer<L: LabModel> {
    pub explore: fn(&L::Settings, usize, Progress<'_>) -> Found,
}

impl<L: LabModel> Explorer<L> {
    /// The exploration of a lab that explores.
    pub const fn of() -> Explorer<L>
    where
        L: Explores,
    {
        Explorer { explore: L::explore }
    }
}

/// A link to `settings` of `lab`, from `?`, or nothing.
pub fn link_of<S: Schema>(lab: Lab, settings: Option<S>) -> String {
    settings.map_or_else(String::new, |s| format!("?{}", to_query(&LinkState::of(lab, &s, None, Default::default()))))
}

/// The exploration in words: `names` gives a check's machine name and
/// title, `shortest` a schedule's faults, flags and link.
pub fn found<C, S>(
    lab: Lab,
    k: usize,
    e: &crate::sim::explore::Exploration<C, S>,
    names: impl Fn(&C) -> (&'static str, &'static str),
    shortest: impl Fn(&S) -> Shortest,
) -> Found {
    Found {
        lab: lab.id.to_owned(),
        max_faults: k,
        explored: e.explored,
        distinct: e.distinct,
        failed: e.failed,
        first_failed: e.first_failed.as_ref().map(&shortest),
        rows: e
            .checks
            .iter()
            .map(|b| {
                let (name, title) = names(&b.check);
                Row {
                    name: name.to_owned(),
                    title: title.to_owned(),
                    broken: b.broken,
                    shortest: b.shortest.as_ref().map(&shortest),
                }
            })
            .collect(),
    }
}

impl Found {
    /// What it teaches, in one sentence.
    pub fn lesson(&self) -> String {
        let k = self.max_faults;
        let faults = if k == 1 { "1 fault".to_owned() } else { format!("{k} faults") };
        let failed = match &self.first_failed {
            Some(s) => format!(
                " {} schedule(s) could not run to their end, a bug of the model to report; the first: {}.",
                self.failed, s.flags
            ),
            None => String::new(),
        };
        self.verdict(&faults) + &failed
    }

    fn verdict(&self, faults: &str) -> String {
        let broken: Vec<&Row> = self.rows.iter().filter(|r| r.broken > 0).collect();
        match broken.first() {
            None => format!(
                "No schedule of at most {faults} breaks an invariant ({} explored, {} distinct).",
                self.explored, self.distinct
            ),
            Some(first) => {
                let how = first.shortest.as_ref().map_or_else(String::new, |s| match s.faults.len() {
                    0 => " with no aimed fault at all: these settings break it as they are".to_owned(),
                    _ => format!(": {}", s.faults.join(" + ")),
                });
                format!(
                    "{} of {} invariants break within at most {faults}. The simplest way \"{}\" breaks is{how}.",
                    broken.len(),
                    self.rows.len(),
                    first.title
                )
            }
        }
    }

    /// As `explore --format json` prints it (and the worker sends it).
    pub fn json(&self) -> String {
        self.to_json().pretty() + "\n"
    }

    fn to_json(&self) -> Json {
        let checks = self
            .rows
            .iter()
            .map(|r| {
                Json::obj([
                    ("name", Json::str(&r.name)),
                    ("title", Json::str(&r.title)),
                    ("broken", Json::num(r.broken)),
                    ("shortest", Json::opt(r.shortest.as_ref(), Shortest::to_json)),
                ])
            })
            .collect();
        Json::obj([
            ("lab", Json::str(&self.lab)),
            ("max_faults", Json::num(self.max_faults)),
            ("explored", Json::num(self.explored)),
            ("distinct", Json::num(self.distinct)),
            ("failed", Json::num(self.failed)),
            ("first_failed", Json::opt(self.first_failed.as_ref(), Shortest::to_json)),
            ("checks", Json::Arr(checks)),
        ])
    }

    fn from_json(doc: &Json) -> Option<Found> {
        let rows = match doc.get("checks")? {
            Json::Arr(rows) => rows
                .iter()
                .map(|r| {
                    Some(Row {
                        name: text(r, "name")?,
                        title: text(r, "title")?,
                        broken: number(r, "broken")?,
                        shortest: Shortest::from_json(r.get("shortest")?),
                    })
                })
                .collect::<Option<Vec<Row>>>()?,
            _ => return None,
        };
        Some(Found {
            lab: text(doc, "lab")?,
            max_faults: number(doc, "max_faults")? as usize,
            explored: number(doc, "explored")?,
            distinct: number(doc, "distinct")?,
            failed: number(doc, "failed")?,
            first_failed: Shortest::from_json(doc.get("first_failed")?),
            rows,
        })
    }

    /// As `explore` prints it.
    pub fn text(&self) -> String {
        let mut out = format!(
            "Explored {} schedules of at most {} fault(s), {} distinct.\n{}\n",
            self.explored,
            self.max_faults,
            self.distinct,
            self.lesson()
        );
        for r in self.rows.iter().filter(|r| r.broken > 0) {
            let Some(s) = &r.shortest else { continue };
            out.push_str(&format!(
                "{} ({}): broken by {} schedule(s); the simplest: {}\n",
                r.name, r.title, r.broken, s.flags
            ));
        }
        out
    }
}

impl Shortest {
    fn to_json(&self) -> Json {
        let mut fields = vec![("faults", Json::Arr(self.faults.iter().map(Json::str).collect()))];
        if let Some(order) = &self.worker_order {
            fields.push(("worker_order", Json::str(order)));
        }
        fields.push(("flags", Json::str(&self.flags)));
        fields.push(("link", Json::str(&self.link)));
        Json::obj(fields)
    }

    /// `None` for null (or anything that is not a schedule).
    fn from_json(doc: &Json) -> Option<Shortest> {
        let Json::Arr(faults) = doc.get("faults")? else { return None };
        Some(Shortest {
            faults: faults
                .iter()
                .map(|f| if let Json::Str(f) = f { Some(f.clone()) } else { None })
                .collect::<Option<_>>()?,
            worker_order: text(doc, "worker_order"),
            flags: text(doc, "flags")?,
            link: text(doc, "link")?,
        })
    }
}

fn text(doc: &Json, name: &str) -> Option<String> {
    match doc.get(name)? {
        Json::Str(s) => Some(s.clone()),
        _ => None,
    }
}

fn number(doc: &Json, name: &str) -> Option<u64> {
    match doc.get(name)? {
        Json::Num(n) => n.parse().ok(),
        _ => None,
    }
}

/// What the page asks the explore worker: a lab's settings as its link
/// spells them, and the most faults a schedule may hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: u32,
    pub lab: String,
    pub settings: Vec<(String, String)>,
    pub max_faults: usize,
}

impl Request {
    pub fn to_text(&self) -> String {
        let settings = self.settings.iter().map(|(name, value)| Json::Arr(vec![Json::str(name), Json::str(value)]));
        Json::obj([
            ("id", Json::num(self.id)),
            ("lab", Json::str(&self.lab)),
            ("settings", Json::Arr(settings.collect())),
            ("max_faults", Json::num(self.max_faults)),
        ])
        .pretty()
    }

    pub fn from_text(text_: &str) -> Option<Request> {
        let doc = crate::sim::json::parse(text_).ok()?;
        let Json::Arr(pairs) = doc.get("settings")? else { return None };
        let settings = pairs
            .iter()
            .map(|pair| match pair {
                Json::Arr(p) => match p.as_slice() {
                    [Json::Str(name), Json::Str(value)] => Some((name.clone(), value.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Request {
            id: u32::try_from(number(&doc, "id")?).ok()?,
            lab: text(&doc, "lab")?,
            settings,
            max_faults: usize::try_from(number(&doc, "max_faults")?).ok()?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The worker listens (its first message).
    Ready,
    Progress {
        done: u64,
        total: u64,
    },
    Found(Found),
    Error {
        message: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub id: u32,
    pub answer: Answer,
}

impl Reply {
    pub fn to_text(&self) -> String {
        let answer = match &self.answer {
            Answer::Ready => ("ready", Json::Bool(true)),
            Answer::Progress { done, total } => {
                ("progress", Json::obj([("done", Json::num(done)), ("total", Json::num(total))]))
            }
            Answer::Found(found) => ("found", found.to_json()),
            Answer::Error { message } => ("error", Json::str(message)),
        };
        Json::obj([("id", Json::num(self.id)), answer]).pretty()
    }

    pub fn from_text(text_: &str) -> Option<Reply> {
        let doc = crate::sim::json::parse(text_).ok()?;
        let id = u32::try_from(number(&doc, "id")?).ok()?;
        let answer = if doc.get("ready").is_some() {
            Answer::Ready
        } else if let Some(p) = doc.get("progress") {
            Answer::Progress { done: number(p, "done")?, total: number(p, "total")? }
        } else if let Some(f) = doc.get("found") {
            Answer::Found(Found::from_json(f)?)
        } else {
            Answer::Error { message: text(&doc, "error")? }
        };
        Some(Reply { id, answer })
    }
}

/// How many progress messages an exploration sends at most.
const PROGRESS_STEPS: u64 = 50;

/// The worker's whole job, as a pure function: `post` hears the progress
/// (at most [`PROGRESS_STEPS`] messages), the return is the final answer.
pub fn serve(text: &str, mut post: impl FnMut(&Reply)) -> Reply {
    let Some(request) = Request::from_text(text) else {
        return Reply { id: 0, answer: Answer::Error { message: "The request could not be read".to_owned() } };
    };
    let id = request.id;
    if !(1..=crate::sim::explore::MAX_FAULTS).contains(&request.max_faults) {
        let message = format!("At most {} faults: allowed is 1 to 3", request.max_faults);
        return Reply { id, answer: Answer::Error { message } };
    }
    let mut step = 0;
    let mut progress = |done: u64, total: u64| {
        let now = done * PROGRESS_STEPS / total.max(1);
        if now > step {
            step = now;
            post(&Reply { id, answer: Answer::Progress { done, total } });
        }
        true
    };
    let exploring: Vec<(Lab, FromLink)> =
        Registry::each::<ByLink>().into_iter().filter_map(|(lab, how)| Some((lab, how?))).collect();
    let found = match exploring.iter().find(|(lab, _)| lab.id == request.lab) {
        Some((_, explore)) => explore(&request.settings, request.max_faults, &mut progress),
        None => {
            let ids: Vec<&str> = exploring.iter().map(|(lab, _)| lab.id).collect();
            Err(format!("No lab \"{}\" to explore: allowed are {}", request.lab, in_words(&ids)))
        }
    };
    let answer = match found {
        Ok(found) => Answer::Found(found),
        Err(message) => Answer::Error { message },
    };
    Reply { id, answer }
}

/// An exploration of the settings a link spells.
type FromLink = fn(&[(String, String)], usize, Progress<'_>) -> Result<Found, String>;

/// Each lab's exploration of the settings a link spells, if it explores.
struct ByLink;

impl PerLab for ByLink {
    type Item = (Lab, Option<FromLink>);
    fn of<L: LabModel>() -> Self::Item {
        (L::LAB, L::EXPLORER.map(|_| from_link::<L> as FromLink))
    }
}

fn from_link<L: LabModel>(
    pairs: &[(String, String)],
    k: usize,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Found, String> {
    let explorer = L::EXPLORER.ok_or_else(|| format!("The {} lab does not explore", L::LAB.id))?;
    decoded::<L::Settings>(pairs).map(|s| (explorer.explore)(&s, k, progress))
}

/// "a", "a and b", "a, b and c".
fn in_words(ids: &[&str]) -> String {
    match ids {
        [] => "none".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The settings the pairs spell, through the one validation stage.
fn decoded<S: Schema>(pairs: &[(String, String)]) -> Result<S, String> {
    let (settings, problems) = crate::view::url::decode_settings::<S>(pairs);
    match problems.first() {
        None => Ok(settings),
        Some(problem) => Err(problem.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(lab: &str, settings: &[(&str, &str)], k: usize) -> (Vec<Reply>, Reply) {
        let request = Request {
            id: 7,
            lab: lab.to_owned(),
            settings: settings.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect(),
            max_faults: k,
        };
        let mut heard = Vec::new();
        let last = serve(&request.to_text(), |r| heard.push(r.clone()));
        // What the page reads back is what the worker wrote.
        for reply in heard.iter().chain([&last]) {
            assert_eq!(Reply::from_text(&reply.to_text()).as_ref(), Some(reply));
        }
        (heard, last)
    }

    #[test]
    fn the_worker_explores_the_settings_a_link_spells() {
        let (heard, last) = ask("ack", &[("dedup", "off"), ("fault", "none")], 1);
        let Answer::Found(found) = last.answer else { panic!("{last:?}") };
        assert_eq!(last.id, 7);
        // The hand count of tests/it/explore.rs: 19 schedules, 7 distinct.
        assert_eq!((found.explored, found.distinct), (19, 7));
        assert_eq!(found.rows[0].broken, 3);
        // Progress is heard, ending at the whole.
        assert!(!heard.is_empty() && heard.len() <= PROGRESS_STEPS as usize);
        assert_eq!(heard.last().unwrap().answer, Answer::Progress { done: 19, total: 19 });
        assert!(
            found
                .lesson()
                .contains("The simplest way \"Committed at most once per intent\" breaks is: response-lost@1")
        );
    }

    #[test]
    fn a_bad_request_is_answered_with_what_is_wrong() {
        let (_, last) = ask("ack", &[("dedup", "sometimes")], 1);
        let Answer::Error { message } = last.answer else { panic!("{last:?}") };
        assert!(message.contains("dedup"), "{message}");
        let (_, last) = ask("storms", &[], 1);
        assert!(matches!(last.answer, Answer::Error { .. }));
        let (_, last) = ask("ack", &[], 4);
        assert!(matches!(last.answer, Answer::Error { .. }));
        assert!(matches!(serve("{", |_| {}).answer, Answer::Error { .. }));
    }
}
