//! Markup every lab's page shares: the notices. It is a pure function to
//! escaped HTML, so it is tested natively and a page sets it as a region's
//! content and listens once for clicks: a notice's Dismiss carries its id
//! as `data-dismiss`. One listener per region instead of a Leptos view per
//! line keeps every page's bundle small.

use std::fmt::Write;

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
}
