//! Every file the README or the command line's help names is in the
//! repository: the model documents under docs/ most of all, which the
//! README, each lab's help line and the code cite.

use std::path::{Component, Path, PathBuf};
use std::process::Command;

use idempotency_lab::view::labs::LABS;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What `word` names, if it names a file or a folder of the repository:
/// a path with a folder in it that ends in a file's name (`src/view/labs.rs`)
/// or in a slash (`tests/it/`), or a document (`docs/model.md`,
/// `README.md`). Not what a reader fills in (`styles/<lab>.css`,
/// `lessons/*.lesson`), links, addresses and media types (`/?lab=risk`,
/// `https://…`, `application/wasm`), the build's output (`dist/`,
/// `target/`, a lab's folder in the build such as `ack/ack.js`), nor the
/// files a new lab would add (the README's worked example, `coin`).
fn named(word: &str) -> Option<&str> {
    let word = word.trim_matches(['\'', '"']).trim_end_matches(['.', ',', ';', ':']);
    let template = word.chars().any(|c| "<>{}*?$=&|#@".contains(c));
    if word.is_empty() || template || word.starts_with(['/', '-']) || word.contains("://") {
        return None;
    }
    let parts: Vec<&str> = word.split('/').filter(|p| !p.is_empty()).collect();
    let document = word.ends_with(".md");
    let file_or_folder = word.ends_with('/') || parts.last().is_some_and(|last| last.contains('.'));
    if !document && (parts.len() < 2 || !file_or_folder) {
        return None;
    }
    let built = ["dist", "target"].contains(&parts[0]) || LABS.iter().any(|l| l.id == parts[0]);
    let example = parts.iter().any(|p| p.split('.').next() == Some("coin")) && !word.starts_with("tests/");
    (!built && !example).then_some(word)
}

/// Where `path` is, from the top of the repository or, as the README's
/// codemap names modules, from src/; None if it is in neither or leaves
/// the repository.
fn found(path: &str) -> Option<PathBuf> {
    if Path::new(path).components().any(|c| matches!(c, Component::ParentDir)) {
        return None;
    }
    [root().join(path), root().join("src").join(path)].into_iter().find(|p| p.exists())
}

fn missing(words: impl Iterator<Item = String>) -> Vec<String> {
    let mut missing: Vec<String> = words
        .filter(|w| named(w).is_some_and(|path| found(path).is_none()))
        .map(|w| named(&w).unwrap().to_owned())
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

#[test]
fn every_file_the_readme_names_exists() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    // Code spans, a word at a time, and every document named anywhere.
    let spans = readme.split('`').skip(1).step_by(2).flat_map(|span| span.split([' ', ',', '(', ')', '\n']));
    let documents =
        readme.split([' ', '(', ')', '\n', ',', '`']).filter(|w| w.trim_end_matches([':', '.', ';']).ends_with(".md"));
    let missing = missing(spans.chain(documents).map(str::to_owned));
    assert!(missing.is_empty(), "the README names files that are not in the repository: {missing:?}");
}

#[test]
fn every_file_the_help_names_exists() {
    let cli = env!("CARGO_BIN_EXE_idempotency-lab");
    let mut commands: Vec<Vec<&str>> = vec![vec!["--help"]];
    for command in LABS.iter().map(|l| l.id).chain(["explore", "bench", "labs", "opening"]) {
        commands.push(vec![command, "--help"]);
    }
    let mut text = String::new();
    for args in &commands {
        let out = Command::new(cli).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        text += &String::from_utf8(out.stdout).unwrap();
    }
    let words = text.split([' ', '(', ')', '\n', ',']).map(str::to_owned);
    let cited: Vec<String> =
        text.split([' ', '(', ')', '\n']).filter(|w| w.ends_with(".md")).map(str::to_owned).collect();
    assert!(cited.len() >= 3, "each lab's line cites its model: {cited:?}");
    let missing = missing(words);
    assert!(missing.is_empty(), "the help names files that are not in the repository: {missing:?}");
}

#[test]
fn a_file_outside_the_repository_or_missing_from_it_is_found_missing() {
    // The citations as they were before the models were in the repository.
    let words =
        ["../shared/MODEL.md", "RISK-MODEL.md", "STORMS.md.", "src/view/nothing.rs", "docs/model.md", "ack/ack.js"];
    let missing = missing(words.iter().map(|w| (*w).to_owned()));
    assert_eq!(missing, ["../shared/MODEL.md", "RISK-MODEL.md", "STORMS.md", "src/view/nothing.rs"]);
}
