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

/// The text's lines with their string, raw string and character literals
/// emptied and their comments cut, so only the braces of the code are left
/// to count. A string or a block comment may run over several lines.
fn code_lines(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut lines = vec![String::new()];
    let mut i = 0;
    // Appends `c` to the code, or only its line break inside a literal.
    let keep = |lines: &mut Vec<String>, c: char, code: bool| {
        if c == '\n' {
            lines.push(String::new());
        } else if code {
            lines.last_mut().expect("a line").push(c);
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                keep(&mut lines, chars[i], false);
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && !chars.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"...", r#"..."#, with no escapes.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                keep(&mut lines, c, true);
                i += 1;
                continue;
            }
            i += hashes + 2;
            let closes = |j: usize| chars[j] == '"' && (1..=hashes).all(|h| chars.get(j + h) == Some(&'#'));
            while i < chars.len() && !closes(i) {
                keep(&mut lines, chars[i], false);
                i += 1;
            }
            i += hashes + 1;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                keep(&mut lines, chars[i], false);
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('{', '\'', '\u{7d}'), not a lifetime ('a).
            let close = if next == Some('\\') {
                chars[i + 2..].iter().position(|&d| d == '\'').map(|p| i + 2 + p)
            } else {
                Some(i + 2).filter(|&j| chars.get(j) == Some(&'\''))
            };
            match close {
                Some(j) => i = j + 1,
                None => {
                    keep(&mut lines, c, true);
                    i += 1;
                }
            }
        } else {
            keep(&mut lines, c, true);
            i += 1;
        }
    }
    lines
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
    let lines = code_lines(text);
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
    // Braces in escapes, strings over several lines, raw strings and block
    // comments are not code; the function below is 13 lines long.
    let tricky = "fn tricky() {\n    let a = '\\u{7d}';\n    let b = \"}\\\n    }\";\n    let c = r#\"}\"}\"#;\n    /* }\n    } */\n    let d = '}';\n    if a == d {\n        return;\n    }\n    let _ = (b, c);\n}\n";
    let lines = code_lines(tricky);
    assert_eq!(lines.len(), 14, "13 lines and the empty one after the last break: {lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.contains('}')).count(),
        2,
        "only the if's and the function's closing braces: {lines:?}"
    );
    let padded = tricky.replacen("{\n", &format!("{{\n{}", "    let _ = 0;\n".repeat(LONGEST - 12)), 1);
    assert_eq!(long_functions(&padded), [(1, "tricky".to_owned(), LONGEST + 1)]);
}
