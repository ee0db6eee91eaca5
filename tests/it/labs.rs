//! The registry of labs (src/view/labs.rs) is the one list of labs.
//! What reads it cannot disagree with it; what cannot read it (the host
//! page's script, the pages Trunk builds, the Makefile, the bundles' Cargo
//! binaries) is checked against it here, so a lab half added fails a test
//! instead of a reader.

use std::path::Path;
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

#[test]
fn the_host_pages_scripts_list_the_registrys_labs_in_its_order() {
    for script in ["assets/boot.js", "assets/first-paint.js"] {
        let text = read(script);
        let line = text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with("const LABS = ["))
            .expect("the script has its list of labs");
        let list = line.split(']').next().unwrap_or_default();
        let listed: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
        assert_eq!(listed, ids(), "{script}: {line}");
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
fn every_lab_has_its_page_its_bundle_and_its_styles() {
    let cargo = read("Cargo.toml");
    for id in ids() {
        let page = read(&format!("{id}/index.html"));
        assert!(page.contains(&format!("data-bin=\"{id}\"")), "{id}/index.html builds the Cargo binary {id}");
        assert!(page.contains(&format!("href=\"../styles/{id}.css\"")), "{id}/index.html brings styles/{id}.css");
        assert!(page.contains(&format!("data-forward=\"../?lab={id}\"")), "{id}/index.html sends readers to the host");
        assert!(root().join(format!("styles/{id}.css")).is_file(), "styles/{id}.css");
        let bin = read(&format!("src/bin/{id}.rs"));
        assert!(bin.contains("lab_bundle!"), "src/bin/{id}.rs exports mount and unmount");
        assert!(
            cargo.contains(&format!("[[bin]]\nname = \"{id}\"\npath = \"src/bin/{id}.rs\"")),
            "Cargo.toml has the binary {id}"
        );
    }
}

#[test]
fn the_makefile_builds_exactly_the_registrys_pages() {
    // The Makefile builds every folder whose page builds a Rust bundle:
    // those folders must be the labs, and every lab must be one.
    let makefile = read("Makefile");
    assert!(makefile.contains("LAB_PAGES := $(shell grep -l 'data-trunk rel=\"rust\"' */index.html)"));
    assert!(makefile.contains("for page in $(LAB_PAGES); do trunk build $$page"));
    let mut built: Vec<String> = std::fs::read_dir(root())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter(|e| {
            std::fs::read_to_string(e.path().join("index.html")).is_ok_and(|p| p.contains("data-trunk rel=\"rust\""))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    built.sort();
    let mut labs = ids();
    labs.sort();
    assert_eq!(built, labs);
    // The host page builds none, and the dist step builds it first.
    assert!(!read("host/index.html").contains("rel=\"rust\""));
    assert!(makefile.contains("trunk build host/index.html --release --locked --dist dist\n\tfor page"));
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
    for lab in &LABS {
        for name in std::iter::once(&lab.id).chain(lab.aliases) {
            let out = Command::new(cli).args([name, "--help"]).output().unwrap();
            assert!(out.status.success(), "idempotency-lab {name} --help");
        }
    }
}
