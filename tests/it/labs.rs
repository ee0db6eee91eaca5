//! The registry (src/view/labs.rs) is the one list of labs: everything
//! else that names them all reads it, at run time or at build time (the
//! host page's list and each lab's page are written by the command line).
//! Here the labs are taken from the registry, and the code, the scripts
//! and the pages are searched for any other list of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use idempotency_lab::view::labs::{LAB_OPTIONS, LABS};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ids() -> Vec<&'static str> {
    LABS.iter().map(|l| l.id).collect()
}

/// Every name of every lab: ids and the command line's older aliases.
fn names() -> Vec<(&'static str, &'static str)> {
    LABS.iter().flat_map(|l| std::iter::once(l.id).chain(l.aliases.iter().copied()).map(move |n| (n, l.id))).collect()
}

/// The files of the program, its build and its pages: what a list of labs
/// could hide in. (Tests may name the labs they test; the README and the
/// model documents describe them.)
fn sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut walk = vec![
        root().join("src"),
        root().join("assets"),
        root().join("scripts"),
        root().join("styles"),
        root().join("examples"),
    ];
    while let Some(dir) = walk.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() { walk.push(path) } else { files.push(path) }
        }
    }
    for file in std::fs::read_dir(root()).unwrap().map(Result::unwrap).map(|e| e.path()) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let kept = ["Makefile", "Cargo.toml", "Trunk.toml"].contains(&name.as_str()) || name.ends_with(".html");
        if file.is_file() && kept {
            files.push(file);
        }
    }
    // The end-to-end suite's own scripts (its tests apart), and every page
    // in a folder of its own.
    for file in std::fs::read_dir(root().join("e2e")).unwrap().map(|e| e.unwrap().path()) {
        if file.is_file() && !file.ends_with("package-lock.json") {
            files.push(file);
        }
    }
    for dir in std::fs::read_dir(root()).unwrap().map(|e| e.unwrap().path()) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if dir.is_dir() && !["target", "dist", "e2e", "src", ".git", ".tools"].contains(&name.as_str()) {
            files.extend(
                std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|f| f.ends_with("index.html")),
            );
        }
    }
    files.sort();
    files
}

/// The labs `line` names as code or markup names a lab: in quotes
/// (`"risk"`, `'risk'`, `` `risk` ``), as a folder (`risk/`), as a key
/// (`risk:` but not the path `risk::`) or among choices (`ack|risk`). A
/// comment names none: it is read by people, not by the program.
fn named(line: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    let trimmed = line.trim_start();
    if ["//", "#", "<!--", "*", "/*"].iter().any(|c| trimmed.starts_with(c)) {
        return found;
    }
    for (name, id) in names() {
        let bytes = line.as_bytes();
        for (at, _) in line.match_indices(name) {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + name.len()).copied();
            let after2 = bytes.get(at + name.len() + 1).copied();
            let word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if word(before) || word(after) {
                continue;
            }
            let quoted = matches!(
                (before, after),
                (Some(b'"'), Some(b'"')) | (Some(b'\''), Some(b'\'')) | (Some(b'`'), Some(b'`'))
            );
            let folder = after == Some(b'/') && before != Some(b'/') && before != Some(b'.');
            let key = after == Some(b':') && after2 != Some(b':') && before != Some(b':');
            let choice = before == Some(b'|') || after == Some(b'|');
            if (quoted || folder || key || choice) && !found.contains(&id) {
                found.push(id);
            }
        }
    }
    found
}

#[test]
fn the_registry_is_the_only_list_of_labs() {
    // A list is two labs or more named within four lines. (A unit test at
    // the end of a Rust file may name the labs it tests, as tests do.)
    let mut lists = Vec::new();
    for file in sources() {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        let code = if file.extension().is_some_and(|e| e == "rs") {
            text.split("\n#[cfg(test)]").next().unwrap_or_default()
        } else {
            &text
        };
        let lines: Vec<&str> = code.lines().collect();
        for (i, window) in lines.windows(4.min(lines.len()).max(1)).enumerate() {
            let mut labs: Vec<&str> = window.iter().flat_map(|l| named(l)).collect();
            labs.sort_unstable();
            labs.dedup();
            if labs.len() >= 2 {
                let shown = file.strip_prefix(root()).unwrap().display();
                lists.push(format!("{shown}:{}: {}", i + 1, window.join(" ⏎ ").trim()));
            }
        }
    }
    lists.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
    assert!(lists.is_empty(), "labs listed outside the registry:\n{}", lists.join("\n"));
}

#[test]
fn the_search_finds_the_lists_it_looks_for() {
    // Lists as they were written before the registry was the only one.
    for list in [
        r#"const LABS = ["ack", "risk", "storms"];"#,
        r#"const READY = { ack: ".mirror-text", risk: ".risk .check-list li" };"#,
        "explore --lab ack|risk [--max-faults 1|2|3]",
        r#"<link data-trunk rel="rust" data-bin="storms" /> <link data-trunk rel="rust" data-bin="risk" />"#,
        r#"[("ack", lab::command::<AckLab>), ("risk", lab::command::<RiskLab>)]"#,
        "for page in ack/index.html risk/index.html; do",
    ] {
        assert!(named(list).len() >= 2, "{list}");
    }
    // Words about one lab, or paths into its modules, are not lists.
    for not_a_list in [
        "use crate::sim::risk::Settings; use crate::view::ack::AckLab;",
        "the first lab and the risk lab explore; the storm lab runs in a worker",
        r#"page.goto(`${origin}/?lab=risk&preset=overload`); ["bench", "--lab", "risk"]"#,
    ] {
        assert!(named(not_a_list).len() < 2, "{not_a_list}");
    }
}

#[test]
fn the_first_paint_script_knows_the_pages_themes() {
    use idempotency_lab::view::page::Theme;
    let script = read("assets/first-paint.js");
    let line = script.lines().map(str::trim_start).find(|l| l.starts_with("const THEMES = [")).expect("its themes");
    let listed: Vec<&str> = line.split(']').next().unwrap_or_default().split('"').skip(1).step_by(2).collect();
    let themes: Vec<&str> = Theme::OPTIONS.iter().map(|o| o.value).collect();
    assert_eq!(listed, themes, "assets/first-paint.js: {line}");
}

#[test]
fn every_lab_has_its_bundle_and_its_styles() {
    // A lab's own files, named by its id: what Trunk builds from the page
    // the registry writes for it.
    for id in ids() {
        assert!(root().join(format!("styles/{id}.css")).is_file(), "styles/{id}.css");
        let bin = read(&format!("src/bin/{id}.rs"));
        assert!(bin.contains("lab_bundle!"), "src/bin/{id}.rs exports mount and unmount");
    }
    // Cargo finds every binary by itself, each lab's bundle among them.
    assert!(!read("Cargo.toml").contains("[[bin]]"));
}

#[test]
fn the_switcher_and_the_command_line_offer_the_registrys_labs() {
    assert_eq!(LAB_OPTIONS.map(|o| o.value).to_vec(), ids());
    let cli = env!("CARGO_BIN_EXE_idempotency-lab");
    let out = Command::new(cli).args(["labs"]).output().unwrap();
    assert!(out.status.success());
    let listed: Vec<String> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| l.split('\t').next().unwrap().to_owned()).collect();
    assert_eq!(listed, ids());
    for lab in LABS {
        for name in std::iter::once(&lab.id).chain(lab.aliases) {
            let out = Command::new(cli).args([name, "--help"]).output().unwrap();
            assert!(out.status.success(), "idempotency-lab {name} --help");
        }
    }
}
