//! The shape the code keeps: no function in `src/` is longer than 100
//! lines, so a long match over a lab's facts is split by the actor that
//! emits them instead of growing in one place.

use std::path::{Path, PathBuf};

const LONGEST: usize = 100;

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The line with its string and character literals emptied and its
/// comment cut, so only the braces of the code are left to count.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A character literal ('{', '\''), not a lifetime ('a).
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

/// Whether `line` starts a function: `fn name`, after any of `pub`,
/// `pub(crate)`, `const`, `async`, `unsafe`.
fn starts_fn(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let before = rest;
        for word in ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe "] {
            rest = rest.strip_prefix(word).unwrap_or(rest);
        }
        if rest == before {
            break;
        }
    }
    let name = rest.strip_prefix("fn ")?;
    Some(name.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(name))
}

/// Every function of `text` longer than [`LONGEST`] lines: (its first
/// line, its name, its length).
fn long_functions(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<String> = text.lines().map(code_of).collect();
    let mut long = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = starts_fn(line) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        for (i, code) in lines.iter().enumerate().skip(start) {
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            // A declaration without a body (a trait's) ends at its `;`.
            if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                let length = i - start + 1;
                if length > LONGEST {
                    long.push((start + 1, name.to_owned(), length));
                }
                break;
            }
        }
    }
    long
}

#[test]
fn no_function_in_src_is_longer_than_a_hundred_lines() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 50, "the sources are there: {}", files.len());
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, name, length) in long_functions(&text) {
            long.push(format!("{}:{line} {name}: {length} lines", file.display()));
        }
    }
    assert!(long.is_empty(), "functions over {LONGEST} lines:\n{}", long.join("\n"));
}

#[test]
fn the_counter_sees_a_long_function_and_what_is_not_code() {
    let body: String = (0..LONGEST).map(|i| format!("    let x{i} = \"}}\"; // }}\n")).collect();
    let long = format!("pub(crate) fn long() {{\n{body}}}\n\nfn short() -> char {{\n    '{{'\n}}\n");
    assert_eq!(long_functions(&long), [(1, "long".to_owned(), LONGEST + 2)]);
    // Its first and last lines and 98 between them: 100 lines.
    let inner: String = body.lines().skip(2).map(|l| format!("{l}\n")).collect();
    let fits = format!("fn fits<'a>(x: &'a str) {{\n{inner}}}\n");
    assert_eq!(long_functions(&fits), []);
    assert_eq!(long_functions("trait T {\n    fn f(&self);\n}\n"), []);
}
