//! The JSON document type, reader and pretty writer of every lab's settings
//! files and of the first two labs' run reports and traces. Their pages read
//! and write JSON with it and carry no general serialisation framework: the
//! first lab's WebAssembly is 10.1 kB smaller with brotli (11.9 kB with
//! gzip, 24.9 kB raw) than with `serde_json` reading and writing the same
//! files (README, "Sizes"). The storm lab's worker protocol and reports,
//! built from many nested types, use `serde_json`, and carry settings as
//! this writer's object ([`Json`] implements `serde::Serialize`).
//!
//! The reader keeps numbers as the text they were written with, so a
//! setting's own validation judges them (and names them in its messages),
//! and it refuses documents nested deeper than [`MAX_DEPTH`].

use std::fmt::{self, Write};

/// How deeply arrays and objects may nest before a document is refused.
pub const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number, as written (the reader checks it is valid JSON number syntax).
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    /// Members in the order they were written.
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn num(n: impl fmt::Display) -> Json {
        Json::Num(n.to_string())
    }

    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// An object whose members are in the order given.
    pub fn obj<'a>(members: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Obj(members.into_iter().map(|(name, value)| (name.to_owned(), value)).collect())
    }

    /// `Some(v)` as `f(v)`, `None` as null.
    pub fn opt<T>(value: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
        value.map_or(Json::Null, f)
    }

    /// The member `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// "a string", "an object": how messages name a value's type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }

    /// The document indented by two spaces, one member or element per line.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, 0);
        out
    }

    fn write_pretty(&self, out: &mut String, indent: usize) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n * 2));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(n),
            Json::Str(s) => write_string(out, s),
            Json::Arr(items) if items.is_empty() => out.push_str("[]"),
            Json::Obj(members) if members.is_empty() => out.push_str("{}"),
            Json::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    pad(out, indent + 1);
                    item.write_pretty(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push(']');
            }
            Json::Obj(members) => {
                out.push_str("{\n");
                for (i, (name, value)) in members.iter().enumerate() {
                    pad(out, indent + 1);
                    write_string(out, name);
                    out.push_str(": ");
                    value.write_pretty(out, indent + 1);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push('}');
            }
        }
    }
}

/// A document as `serde` sees it, for the documents built with `serde`
/// that carry one (the storm lab's settings). A number is written as the
/// integer or the float its text reads as.
impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap, SerializeSeq};
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Num(n) => match (n.parse::<u64>(), n.parse::<i64>(), n.parse::<f64>()) {
                (Ok(u), _, _) => serializer.serialize_u64(u),
                (_, Ok(i), _) => serializer.serialize_i64(i),
                (_, _, Ok(f)) => serializer.serialize_f64(f),
                _ => Err(S::Error::custom(format!("not a number: {n}"))),
            },
            Json::Str(s) => serializer.serialize_str(s),
            Json::Arr(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Obj(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Why a text is not a JSON document, and where (line and column from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub what: &'static str,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.what, self.line, self.column)
    }
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, what: &'static str) -> Result<T, ParseError> {
        // A refusal can come halfway through a character (a backslash
        // before a multi-byte one): report the character's position.
        let mut at = self.at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(before.chars().count(), |i| before[i + 1..].chars().count()) + 1;
        Err(ParseError { what, line, column })
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, ParseError> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            self.fail("expected a value")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, ParseError> {
        self.skip_space();
        match self.peek() {
            None => self.fail("unexpected end of the document"),
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[' | b'{') if depth >= MAX_DEPTH => self.fail("nested too deeply"),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.skip_space();
                if self.eat(b']') {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.skip_space();
                    if self.eat(b']') {
                        return Ok(Json::Arr(items));
                    }
                    if !self.eat(b',') {
                        return self.fail("expected , or ]");
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                self.skip_space();
                if self.eat(b'}') {
                    return Ok(Json::Obj(members));
                }
                loop {
                    self.skip_space();
                    if self.peek() != Some(b'"') {
                        return self.fail("expected a member name in quotes");
                    }
                    let name = self.string()?;
                    self.skip_space();
                    if !self.eat(b':') {
                        return self.fail("expected :");
                    }
                    let value = self.value(depth + 1)?;
                    members.push((name, value));
                    self.skip_space();
                    if self.eat(b'}') {
                        return Ok(Json::Obj(members));
                    }
                    if !self.eat(b',') {
                        return self.fail("expected , or }");
                    }
                }
            }
            Some(_) => self.fail("expected a value"),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Json, ParseError> {
        let start = self.at;
        self.eat(b'-');
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.fail("invalid number"),
        }
        if self.eat(b'.') && self.digits() == 0 {
            return self.fail("invalid number");
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return self.fail("invalid number");
            }
        }
        Ok(Json::Num(self.text[start..self.at].to_owned()))
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self.text.get(self.at..self.at + 4).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(v) => {
                self.at += 4;
                Ok(v)
            }
            None => self.fail("invalid \\u escape"),
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return self.fail("unterminated string");
            };
            self.at += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.peek() else {
                        return self.fail("unterminated string");
                    };
                    self.at += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&first) && self.text[self.at..].starts_with("\\u") {
                                self.at += 2;
                                let second = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&second) {
                                    return self.fail("invalid surrogate pair");
                                }
                                0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
                            } else {
                                first
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        _ => return self.fail("invalid escape"),
                    }
                }
                c if (c as u32) < 0x20 => return self.fail("control character in a string"),
                c => out.push(c),
            }
        }
    }
}

/// Reads one JSON document (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, ParseError> {
    let mut reader = Reader { text, at: 0 };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at < text.len() {
        return reader.fail("trailing characters");
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_value() {
        let doc = parse(
            r#" {"a": [1, -2.5e3, 0], "b": {"c": null, "d": true, "e": false}, "s": "x\"\\\/\n\u00e9\ud83d\ude00"} "#,
        )
        .unwrap();
        assert_eq!(doc.get("a"), Some(&Json::Arr(vec![Json::num(1), Json::Num("-2.5e3".into()), Json::num(0)])));
        assert_eq!(doc.get("b").and_then(|b| b.get("d")), Some(&Json::Bool(true)));
        assert_eq!(doc.get("s"), Some(&Json::str("x\"\\/\né😀")));
        assert_eq!(parse("[]").unwrap(), Json::Arr(vec![]));
        assert_eq!(parse("{}").unwrap(), Json::Obj(vec![]));
    }

    #[test]
    fn refuses_what_is_not_json_and_says_where() {
        for (text, what) in [
            ("", "unexpected end of the document"),
            ("retry everything", "expected a value"),
            ("{\"a\" 1}", "expected :"),
            ("{\"a\": 1,}", "expected a member name in quotes"),
            ("[1 2]", "expected , or ]"),
            ("01", "trailing characters"),
            ("1.", "invalid number"),
            ("-", "invalid number"),
            ("\"abc", "unterminated string"),
            ("\"\\q\"", "invalid escape"),
            ("\"\\é\"", "invalid escape"),
            ("\"\\u12\"", "invalid \\u escape"),
            ("\"a\u{1}\"", "control character in a string"),
            ("{} {}", "trailing characters"),
        ] {
            assert_eq!(parse(text).unwrap_err().what, what, "{text:?}");
        }
        let e = parse("{\n  \"a\": ?\n}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert_eq!(e.to_string(), "expected a value at line 2 column 8");
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let deep = "[".repeat(100_000);
        assert_eq!(parse(&deep).unwrap_err().what, "nested too deeply");
        let fine = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&fine).is_ok());
    }

    #[test]
    fn writes_what_it_reads() {
        let doc = Json::Obj(vec![
            ("n".into(), Json::num(3)),
            ("s".into(), Json::str("a \"b\"\n\u{1}é")),
            ("empty".into(), Json::Arr(vec![])),
            ("list".into(), Json::Arr(vec![Json::Null, Json::Bool(false)])),
            ("o".into(), Json::Obj(vec![("x".into(), Json::Obj(vec![]))])),
        ]);
        let text = doc.pretty();
        assert_eq!(
            text,
            "{\n  \"n\": 3,\n  \"s\": \"a \\\"b\\\"\\n\\u0001é\",\n  \"empty\": [],\n  \"list\": [\n    null,\n    false\n  ],\n  \"o\": {\n    \"x\": {}\n  }\n}"
        );
        assert_eq!(parse(&text).unwrap(), doc);
    }

    fn doc() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(Json::num),
            any::<String>().prop_map(Json::Str),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Json::Arr),
                proptest::collection::vec((any::<String>(), inner), 0..6).prop_map(Json::Obj),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in proptest::prelude::any::<String>()) {
            let _ = parse(&text);
        }

        #[test]
        fn every_document_reads_back_as_written(d in doc()) {
            proptest::prop_assert_eq!(parse(&d.pretty()).unwrap(), d);
        }

        #[test]
        fn serde_writes_a_document_as_its_own_writer_does(d in doc()) {
            // serde_json's objects keep their members in order here only
            // when written straight from the document, not through a Value.
            proptest::prop_assert_eq!(serde_json::to_string_pretty(&d).unwrap(), d.pretty());
        }
    }

    #[test]
    fn agrees_with_serde_json_on_what_it_writes() {
        // The pretty form is serde_json's, so files written before read the same.
        let doc =
            Json::Obj(vec![("a".into(), Json::Arr(vec![Json::num(1), Json::str("x")])), ("b".into(), Json::Null)]);
        let theirs: serde_json::Value = serde_json::from_str(&doc.pretty()).unwrap();
        assert_eq!(serde_json::to_string_pretty(&theirs).unwrap(), doc.pretty());
    }
}
