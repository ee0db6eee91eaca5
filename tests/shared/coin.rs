//! A fourth lab, written as a new lab's author would (README, "Growing
//! it"), but only here: its parameters, its run, its words and
//! `LabModel`. The native tests (tests/it/fourth_lab.rs) run it from the
//! command line beside the registry's labs; the browser tests
//! (tests/browser/fourth_lab.rs) mount it.

use idempotency_lab::sim::compare::{Comparison, Side as CompareSide, Timed};
use idempotency_lab::sim::params::{FieldError, Group, Kind, Param, ParamDef, Schema, choice};
use idempotency_lab::sim::{Millis, Surely};
use idempotency_lab::view::compare::{DiffLine, counts, divergence_line, fork_line};
use idempotency_lab::view::lab::{LabModel, Preset};
use idempotency_lab::view::labs::{Lab, LabEntry};

pub static COIN: LabEntry = LabEntry {
    id: "coin",
    aliases: &[],
    label: "Coin flips",
    title: "Idempotency Lab: coin flips",
    summary: "a coin flipped once a second",
    workers: &[],
};

choice! {
    /// The side the first flip lands on; the flips alternate after it.
    pub enum Side {
        Heads("heads", "Heads"),
        Tails("tails", "Tails"),
    }
}

pub static FLIPS: Param<u64> = Param::new(ParamDef {
    name: "flips",
    flag: "--flips",
    link: "flips",
    label: "Flips",
    kind: Kind::Count { min: 1, max: 10 },
    default: 3,
    group: Group::Basics,
});
pub static FIRST: Param<Side> = Param::new(ParamDef {
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
pub struct CoinSettings {
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
pub struct Flip {
    pub at: Millis,
    pub heads: bool,
}

impl Timed for Flip {
    fn at(&self) -> Millis {
        self.at
    }
}

/// One flip a second, from 1 s.
pub struct CoinRun {
    settings: CoinSettings,
    flips: Vec<Flip>,
}

impl CoinRun {
    pub fn heads_until(&self, t: Millis) -> usize {
        self.flips.iter().filter(|f| f.heads && f.at <= t).count()
    }
}

pub struct CoinLab;

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
