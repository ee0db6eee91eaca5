//! Markup every lab's page shares: the notices and the recent events. Each
//! is a pure function to escaped HTML, so it is tested natively and a page
//! sets it as a region's content and listens once for clicks: a notice's
//! Dismiss carries its id as `data-dismiss`, an event its moment as
//! `data-t` (model milliseconds). One listener per region instead of a
//! Leptos view per line keeps every page's bundle small.

use std::fmt::Write;

use crate::sim::Millis;

use super::timeline::escape;

/// Each notice with a button to dismiss it (`data-dismiss` its id).
pub fn notice_items<'a>(notices: impl IntoIterator<Item = (u32, &'a str)>) -> String {
    let mut out = String::new();
    for (id, text) in notices {
        // Writing to a `String` cannot fail.
        let _ = write!(
            out,
            "<p class=\"notice\"><span class=\"notice-text\">{}</span>\
             <button type=\"button\" class=\"dismiss\" data-dismiss=\"{id}\">Dismiss</button></p>",
            escape(text)
        );
    }
    out
}

/// The keyboard shortcuts as the lines of a description list.
pub fn shortcut_items(shortcuts: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (key, what) in shortcuts {
        let _ =
            write!(out, "<div class=\"shortcut\"><dt><kbd>{}</kbd></dt><dd>{}</dd></div>", escape(key), escape(what));
    }
    out
}

/// Buttons in list items, each carrying its choice as `data-choice`, with
/// its label (`aria-pressed` false: a list of things to start).
pub fn choice_items<'a>(choices: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    for (choice, label) in choices {
        let _ = write!(
            out,
            "<li><button type=\"button\" aria-pressed=\"false\" data-choice=\"{}\">{}</button></li>",
            escape(choice),
            escape(label)
        );
    }
    out
}

/// One line of the recent events, as its lab words it.
pub struct EventLine {
    /// The record's kind, a class on the line.
    pub kind: &'static str,
    pub t: Millis,
    /// The moment as the lab shows it (model time, or a wall clock).
    pub time: String,
    pub sentence: String,
}

/// The newest `limit` of the first `count` records, newest first, each a
/// button to its moment.
pub fn event_items<R>(records: &[R], count: usize, limit: usize, line: impl Fn(&R) -> EventLine) -> String {
    let mut out = String::with_capacity(limit.min(count) * 300);
    for r in records[..count.min(records.len())].iter().rev().take(limit) {
        let EventLine { kind, t, time, sentence } = line(r);
        let _ = write!(
            out,
            "<li class=\"event {kind}\"><button type=\"button\" data-t=\"{}\"><span class=\"event-time\">{}</span> \
             <span class=\"event-text\">{}</span></button></li>",
            t.ms(),
            escape(&time),
            escape(&sentence)
        );
    }
    out
}

/// What the recent events add below their hint when they show only the
/// newest `limit` of `count`.
pub fn events_cut(count: usize, limit: usize) -> Option<String> {
    (count > limit).then(|| format!("The newest {limit} of {count} events so far."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_escaped_and_dismissable() {
        let html = notice_items([(3, "preset: \"<b>\" is not a known option")]);
        assert_eq!(
            html,
            "<p class=\"notice\"><span class=\"notice-text\">preset: &quot;&lt;b&gt;&quot; is not a known option</span>\
             <button type=\"button\" class=\"dismiss\" data-dismiss=\"3\">Dismiss</button></p>"
        );
    }

    #[test]
    fn shortcuts_and_choices_are_escaped() {
        assert_eq!(
            shortcut_items(&[("<", "Back & forth")]),
            "<div class=\"shortcut\"><dt><kbd>&lt;</kbd></dt><dd>Back &amp; forth</dd></div>"
        );
        assert_eq!(
            choice_items([("a\"b", "409 <or> join")]),
            "<li><button type=\"button\" aria-pressed=\"false\" data-choice=\"a&quot;b\">409 &lt;or&gt; join</button></li>"
        );
    }

    #[test]
    fn events_are_newest_first_and_cut_at_the_limit() {
        let records = [(1, "a"), (2, "b <c>"), (3, "d")];
        let line = |r: &(u64, &str)| EventLine {
            kind: "send",
            t: Millis(r.0),
            time: format!("{} ms", r.0),
            sentence: r.1.to_owned(),
        };
        let html = event_items(&records, 2, 1, line);
        assert_eq!(
            html,
            "<li class=\"event send\"><button type=\"button\" data-t=\"2\"><span class=\"event-time\">2 ms</span> \
             <span class=\"event-text\">b &lt;c&gt;</span></button></li>"
        );
        assert_eq!(event_items(&records, 9, 9, line).matches("<li").count(), 3);
        assert_eq!(events_cut(2, 1).as_deref(), Some("The newest 1 of 2 events so far."));
        assert_eq!(events_cut(2, 2), None);
    }
}
