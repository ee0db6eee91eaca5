//! A fourth lab, written here as a new lab's author would (README, "Growing
//! it"): its parameters, its run, its words and `LabModel`. Everything
//! generic then works for it unchanged: the command line's lab command
//! (flags, help, refusals, text and JSON), links (its settings, run B, the
//! playhead, round trips) and run B's comparison. Only its registry entry,
//! bundle, page and styles are left out, as a test cannot add them.

use idempotency_lab::cli::lab::{command, help};
use idempotency_lab::sim::compare::{Comparison, Side as CompareSide, Timed};
use idempotency_lab::sim::params::{FieldError, Group, Kind, Param, ParamDef, Schema, choice};
use idempotency_lab::sim::{Millis, Surely};
use idempotency_lab::view::compare::{DiffLine, counts, divergence_line, fork_line};
use idempotency_lab::view::lab::{LabModel, Preset};
use idempotency_lab::view::labs::{Lab, LabEntry};
use idempotency_lab::view::page::Page;
use idempotency_lab::view::url::{LinkState, parse_query, read_lab, to_query};

static COIN: LabEntry = LabEntry {
    id: "coin",
    aliases: &[],
    label: "Coin flips",
    title: "Idempotency Lab: coin flips",
    summary: "a coin flipped once a second",
};

choice! {
    /// The side the first flip lands on; the flips alternate after it.
    pub enum Side {
        Heads("heads", "Heads"),
        Tails("tails", "Tails"),
    }
}

static FLIPS: Param<u64> = Param::new(ParamDef {
    name: "flips",
    flag: "--flips",
    link: "flips",
    label: "Flips",
    kind: Kind::Count { min: 1, max: 10 },
    default: 3,
    group: Group::Basics,
});
static FIRST: Param<Side> = Param::new(ParamDef {
    name: "first",
    flag: "--first",
    link: "first",
    label: "First flip",
    kind: Kind::Choice(Side::OPTIONS),
    default: 0,
    group: Group::Basics,
});
static PARAMS: [&ParamDef; 2] = [FLIPS.def(), FIRST.def()];

#[derive(Clone, Debug, PartialEq)]
struct CoinSettings {
    values: [u64; 2],
}

impl Schema for CoinSettings {
    const PARAMS: &'static [&'static ParamDef] = &PARAMS;
    fn from_values(values: &[u64]) -> Result<CoinSettings, FieldError> {
        Ok(CoinSettings { values: values.try_into().surely("two values") })
    }
    fn values(&self) -> &[u64] {
        &self.values
    }
}

/// One flip: when, and whether it landed heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flip {
    at: Millis,
    heads: bool,
}

impl Timed for Flip {
    fn at(&self) -> Millis {
        self.at
    }
}

/// One flip a second, from 1 s.
struct CoinRun {
    settings: CoinSettings,
    flips: Vec<Flip>,
}

impl CoinRun {
    fn heads_until(&self, t: Millis) -> usize {
        self.flips.iter().filter(|f| f.heads && f.at <= t).count()
    }
}

struct CoinLab;

impl LabModel for CoinLab {
    const LAB: Lab = &COIN;
    type Settings = CoinSettings;
    type Run = CoinRun;
    /// The library's comparison of two runs, which every lab's run B uses.
    type Diff = Comparison<Flip, Flip>;
    const FIRST_CHANGE: &'static ParamDef = FLIPS.def();

    fn simulate(settings: &CoinSettings) -> Result<CoinRun, String> {
        let first = settings.get(&FIRST) == Side::Heads;
        let flips = (0..settings.get(&FLIPS))
            .map(|i| Flip { at: Millis((i + 1) * 1000), heads: (i % 2 == 0) == first })
            .collect();
        Ok(CoinRun { settings: settings.clone(), flips })
    }
    fn settings(run: &CoinRun) -> &CoinSettings {
        &run.settings
    }
    fn last_moment(run: &CoinRun) -> Millis {
        Millis(run.flips.len() as u64 * 1000)
    }
    fn text_mirror(run: &CoinRun, at: Millis) -> String {
        format!("Model time: {at}\nHeads so far: {}\n", run.heads_until(at))
    }
    fn event_lines(run: &CoinRun) -> String {
        run.flips.iter().map(|f| format!("{}  {}\n", f.at, if f.heads { "heads" } else { "tails" })).collect()
    }
    fn report(run: &CoinRun) -> String {
        format!("{{\"flips\": {}, \"heads\": {}}}", run.flips.len(), run.heads_until(Self::last_moment(run)))
    }
    fn compare(a: &CoinRun, b: &CoinRun) -> Comparison<Flip, Flip> {
        // Two flips are the same event when they land the same way at the
        // same moment; a heads is the run's effect.
        let heads = |run: &CoinRun| run.flips.iter().copied().filter(|f| f.heads).collect::<Vec<_>>();
        let (ha, hb) = (heads(a), heads(b));
        Comparison::between(
            CompareSide { records: &a.flips, gists: &a.flips, effects: &ha },
            CompareSide { records: &b.flips, gists: &b.flips, effects: &hb },
            |x, y| x.at.cmp(&y.at),
        )
    }
    fn differences(a: &CoinRun, b: &CoinRun, diff: &Comparison<Flip, Flip>, fork: Option<Millis>) -> Vec<DiffLine> {
        let phrase = |f: &Flip| if f.heads { "heads".to_owned() } else { "tails".to_owned() };
        let mut lines = vec![divergence_line(diff, phrase, (Self::last_moment(a), Self::last_moment(b)))];
        let heads = |run: &CoinRun| run.heads_until(Self::last_moment(run)) as u64;
        lines.push(DiffLine { label: "Heads".to_owned(), text: counts(heads(a), heads(b), |n| n.to_string()) });
        lines.extend(fork.map(|at| fork_line(diff, at)));
        lines
    }
    fn presets() -> Vec<Preset> {
        vec![Preset { id: "fair", title: "Three flips, heads first" }]
    }
}

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn the_command_line_runs_a_new_lab_with_no_code_of_its_own() {
    // Four flips from heads: heads at 1 s and 3 s.
    assert_eq!(command::<CoinLab>(&args("--flips 4 --format json")).unwrap(), "{\"flips\": 4, \"heads\": 2}\n");
    assert_eq!(
        command::<CoinLab>(&args("--first tails --at-ms 2000")).unwrap(),
        "Model time: 2.00 s\nHeads so far: 1\n\nEvents:\n1.00 s  tails\n2.00 s  heads\n3.00 s  tails\n"
    );
    let refused = command::<CoinLab>(&args("--flips 11")).unwrap_err();
    assert_eq!(refused.0, "--flips: 11 is out of range; allowed: a whole number from 1 to 10");
    let refused = command::<CoinLab>(&args("--first edge")).unwrap_err();
    assert_eq!(refused.0, "--first: \"edge\" is not a known option; allowed: one of heads, tails");
    let refused = command::<CoinLab>(&args("--at-ms 3001")).unwrap_err();
    assert!(refused.0.starts_with("--at-ms: 3001 is beyond the run"), "{}", refused.0);
    let help = help::<CoinLab>();
    assert!(help.starts_with("idempotency-lab coin: a coin flipped once a second"), "{help}");
    assert!(help.contains("--flips") && help.contains("(default 3)") && help.contains("fair"), "{help}");
}

#[test]
fn links_carry_a_new_labs_settings_its_run_b_and_the_playhead() {
    let link = parse_query("flips=5&b.first=tails&at=2&theme=dark&utm_source=x", &COIN);
    assert_eq!(link.state.lab, &COIN, "a link without lab= is read as the page's lab");
    let read = read_lab::<CoinSettings>(&link);
    assert!(read.notices.is_empty() && read.is_link, "{:?}", read.notices);
    assert_eq!(read.settings.get(&FLIPS), 5);
    assert_eq!(read.b, Some(vec![(FIRST.def(), Side::Tails as u64)]));
    assert_eq!(link.state.page.at, Some(Millis(2_000)));
    // Written back by the lab, the link reads the same.
    let page = Page { at: link.state.page.at, theme: link.state.page.theme, ..Page::default() };
    let again = LinkState::of(&COIN, &read.settings, read.b.as_deref(), page);
    let query = to_query(&again);
    assert_eq!(query, "flips=5&b.first=tails&at=2&theme=dark");
    assert_eq!(read_lab::<CoinSettings>(&parse_query(&query, &COIN)), read);
    // A bad value of the new lab's is refused in its own words.
    let read = read_lab::<CoinSettings>(&parse_query("flips=99&b.moon=1", &COIN));
    assert_eq!(read.notices[0], "flips: 99 is out of range; allowed: a whole number from 1 to 10");
    assert!(
        read.notices[1]
            .starts_with("b.moon: not a setting of run B; allowed: b. and a setting's link name, such as b.first")
    );
}

#[test]
fn run_b_compares_a_new_labs_runs() {
    let a = CoinLab::simulate(&CoinSettings::opening()).unwrap();
    let b = CoinLab::simulate(&CoinSettings::opening().set(&FIRST, Side::Tails).unwrap()).unwrap();
    // Three flips at 1, 2 and 3 s: A heads, tails, heads; B tails, heads,
    // tails. They part at the first flip; A's heads at 1 s and 3 s have no
    // counterpart at those moments in B, B's at 2 s none in A.
    let diff = CoinLab::compare(&a, &b);
    let at = |ms, heads| Flip { at: Millis(ms), heads };
    assert_eq!(diff.divergence.map(|d| (d.index, d.a, d.b)), Some((0, Some(at(1_000, true)), Some(at(1_000, false)))));
    assert_eq!(
        (diff.only_a.clone(), diff.only_b.clone()),
        (vec![at(1_000, true), at(3_000, true)], vec![at(2_000, true)])
    );
    // In the words every lab's Differences panel uses, with the fork at
    // 0.5 s, before the runs part, and at 2 s, after.
    let lines = |fork| {
        CoinLab::differences(&a, &b, &diff, fork)
            .into_iter()
            .map(|l| format!("{}: {}", l.label, l.text))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lines(Some(Millis(500))),
        [
            "First divergence: at 1.00 s (event 1). A: heads. B: tails.",
            "Heads: A: 2, B: 1",
            "Fork: at 0.50 s: the runs agree on every event before the fork",
        ]
    );
    assert_eq!(
        lines(Some(Millis(2_000)))[2],
        "Fork: at 2.00 s, but the runs already differ at 1.00 s: the changed setting acts before the fork"
    );
    // A run against itself: nothing differs.
    let same = CoinLab::compare(&a, &a);
    assert!(same.identical());
    assert_eq!(
        CoinLab::differences(&a, &a, &same, None)[..2].iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        ["none: the runs agree on every event", "A: 2, B: 2 (the same)"]
    );
}
