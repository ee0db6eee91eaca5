//! A fourth lab, written only in a test (tests/shared/coin.rs) as a new
//! lab's author would (README, "Growing it"). Put in a list of labs beside
//! the registry's, as its line in the registry would put it, everything
//! generic works for it unchanged: its command on the command line (flags,
//! help, refusals, text and JSON), the help and the list of labs that
//! `make bench` reads, its page for Trunk, links (its settings, run B, the
//! playhead, round trips) and run B's comparison. (tests/browser mounts it.)

#[path = "../shared/coin.rs"]
mod coin;

use coin::{COIN, CoinLab, CoinSettings, FIRST, FLIPS, Flip, Side};
use idempotency_lab::cli::lab::{command, help};
use idempotency_lab::cli::main_among;
use idempotency_lab::sim::Millis;
use idempotency_lab::sim::params::Schema;
use idempotency_lab::view::ack::AckLab;
use idempotency_lab::view::lab::LabModel;
use idempotency_lab::view::page::Page;
use idempotency_lab::view::risk::RiskLab;
use idempotency_lab::view::storm::StormLab;
use idempotency_lab::view::url::{LinkState, parse_query, read_lab, to_query};

/// The registry's labs, and the coin after them.
type FourLabs = (AckLab, RiskLab, StormLab, CoinLab);

/// The command line over the four labs: (exit status, stdout, stderr).
fn cli(line: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = line.iter().map(|s| (*s).to_owned()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = main_among::<FourLabs>(&args, &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

#[test]
fn a_fourth_lab_runs_from_the_command_line_and_is_in_the_list_make_bench_reads() {
    // Two flips from tails: heads at 2 s.
    let (code, out, _) = cli(&["coin", "--flips=2", "--first", "tails", "--format", "json"]);
    assert_eq!((code, out.as_str()), (0, "{\"flips\": 2, \"heads\": 1}\n"));
    let (code, out, _) = cli(&["coin", "--help"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("idempotency-lab coin: a coin flipped once a second"), "{out}");
    let (code, _, err) = cli(&["coin", "--flips", "0"]);
    assert_eq!(
        (code, err.as_str()),
        (2, "idempotency-lab: --flips: 0 is out of range; allowed: a whole number from 1 to 10\n")
    );
    // The help, the labs `make bench` measures (`labs --format json`),
    // `bench --lab` and the list of commands all have it.
    let (_, out, _) = cli(&["--help"]);
    assert!(out.contains("idempotency-lab coin     [options]  a coin flipped once a second"), "{out}");
    let (_, out, _) = cli(&["labs", "--format", "json"]);
    let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = listed.as_array().unwrap().iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ack", "risk", "storms", "coin"]);
    assert_eq!(listed[3]["title"], "Idempotency Lab: coin flips");
    let (code, out, _) = cli(&["bench", "--lab", "coin", "--runs", "5"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("runs\t5\nfailed runs\t0\n"), "{out}");
    let (_, _, err) = cli(&["moon"]);
    assert!(err.contains("allowed: ack, risk, storms, coin, explore, trace, bench, labs, opening, --help"), "{err}");
    // It does not explore: explore offers the labs that do.
    let (code, _, err) = cli(&["explore", "--lab", "coin"]);
    assert_eq!(code, 2);
    assert!(err.contains("--lab: \"coin\" is not allowed; allowed: ack or risk"), "{err}");
}

#[test]
fn a_fourth_labs_page_for_trunk_is_written_with_the_others() {
    // The page names the lab's bundle, its styles and where it forwards
    // to; it brings no worker (the coin neither explores nor has one).
    let dir = format!("target/test-pages-{}", std::process::id());
    let (code, out, err) = cli(&["labs", "--pages", &dir]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out.ends_with(&format!("{dir}/coin/index.html\n")), "{out}");
    let page = std::fs::read_to_string(format!("{dir}/coin/index.html")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(page.contains("<title>Idempotency Lab: coin flips</title>"), "{page}");
    assert!(page.contains("href=\"../../../Cargo.toml\" data-bin=\"coin\""), "{page}");
    assert!(page.contains("href=\"../../../styles/coin.css\""), "{page}");
    assert!(page.contains("<body data-forward=\"../?lab=coin\">"), "{page}");
    assert!(!page.contains("data-type=\"worker\""), "{page}");
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
