//! The diagram as a standalone SVG file: the same items the browser draws,
//! with a stylesheet of its own (a file has no page around it).

use std::fmt::Write;

use crate::sim::Millis;
use crate::view::num::{d0, d1};

use super::{Diagram, LaneBand, Orientation, page};

impl Diagram {
    /// A standalone SVG document, with the playhead at `playhead` if given.
    pub fn to_svg(&self, playhead: Option<Millis>) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             role=\"img\" aria-labelledby=\"title desc\">\n<title id=\"title\">Idempotency Lab timeline</title>\n\
             <desc id=\"desc\">{}</desc>\n<style>{}</style>\n",
            escape(&self.summary),
            EXPORT_STYLE,
            w = d0(self.width),
            h = d0(self.height)
        );
        for (i, lane) in self.lanes.iter().enumerate() {
            let (_, _, w, h) = self.band(lane);
            if w <= 0.0 || h <= 0.0 {
                // The sequence diagram's time has no column of its own.
                continue;
            }
            page::band(&mut out, self, i);
            let _ = match self.orientation {
                Orientation::Across => writeln!(
                    out,
                    "<text class=\"lane-title\" x=\"8\" y=\"{}\">{}</text>",
                    d1(lane.top + 16.0),
                    escape(&lane.title)
                ),
                Orientation::Down => writeln!(out, "{}", column_title(lane)),
            };
        }
        for item in &self.items {
            page::item(&mut out, item, "", "", "arrow");
            out.push('\n');
        }
        if let Some(t) = playhead {
            page::playhead(&mut out, self, t, "");
            out.push('\n');
        }
        page::arrowhead_defs(&mut out, "arrow");
        out.push_str("\n</svg>\n");
        out
    }
}

/// A sequence diagram's column title, centred at the top of its column
/// (its short form where the column is narrow; the description names every
/// column in full).
pub fn column_title(band: &LaneBand) -> String {
    format!(
        "<text class=\"lane-title column-title\" x=\"{}\" y=\"17\" text-anchor=\"middle\">{}</text>",
        d1(band.top + band.height / 2.0),
        escape(&band.short)
    )
}

/// Escapes text for SVG/XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Colours for the exported file, which has no page stylesheet around it.
const EXPORT_STYLE: &str = "\
svg{font:12px ui-monospace,Menlo,Consolas,monospace;background:#fff}\
.lane-band{fill:#f6f7f9}.lane-1,.lane-3,.lane-5,.lane-7{fill:#eef1f5}.lane-title{font-weight:bold;fill:#333}\
text{fill:#222}.axis-label{fill:#555}.gridline{stroke:#d8dce2;stroke-width:1}\
path{fill:none;stroke:#444;stroke-width:1.5}.request{stroke:#2b6cb0}.response.success{stroke:#2f855a}\
.response.unavailable,.response.rejected,.response.conflict,.response.unprocessable,.response.refused{stroke:#b7791f}\
.response.lost{stroke:#c53030;stroke-dasharray:4 3}\
.response.late{stroke:#718096;stroke-dasharray:2 3}.backoff{stroke:#805ad5;stroke-dasharray:6 4;stroke-width:2}\
.window{fill:#bee3f8;stroke:none}.window-rest{fill:none;stroke:#90cdf4;stroke-dasharray:3 3}\
.operation{fill:#fbd38d;stroke:none}.reserved{fill:#e9d8fd;stroke:none}.reserved.lapsed{fill:none;stroke:#9f7aea;stroke-dasharray:3 3}\
.reserved.orphaned{fill:#fed7d7;stroke:none}.stored{fill:#c6f6d5;stroke:none}.down{fill:#fed7d7;stroke:#c53030}\
.mark{stroke:#222;stroke-width:2}.mark.lost,.mark.crash{stroke:#c53030;stroke-width:3}.mark.increment{fill:#2f855a;stroke:none}\
.mismatch,.crash-label{fill:#c53030;font-weight:bold}\
.playhead{stroke:#d53f8c;stroke-width:2}.leader{stroke:#a0aec0;stroke-width:1;stroke-dasharray:1 3}marker path{fill:#444;stroke:none}.lane-title{font-weight:bold}";

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<a href='x'>&</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
    }
}
