//! Rows: a label goes in the first row of its lane where it overlaps
//! nothing, and a bar in the first row of bars free from its start. The
//! diagram grows (and the page scrolls it) instead of truncating text.

/// Space kept between two labels in one row.
pub const LABEL_PAD: f64 = 10.0;

/// The right edge of what each row holds so far.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    edges: Vec<f64>,
}

impl Rows {
    /// The first row whose content ends by `x - pad`, now taken up to `until`.
    pub fn take(&mut self, x: f64, until: f64, pad: f64) -> usize {
        let row = self.edges.iter().position(|&edge| edge + pad <= x).unwrap_or_else(|| {
            self.edges.push(f64::NEG_INFINITY);
            self.edges.len() - 1
        });
        self.edges[row] = until;
        row
    }

    pub fn len(&self) -> usize {
        self.edges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_spans_get_rows_of_their_own() {
        let mut rows = Rows::default();
        assert_eq!(rows.take(0.0, 100.0, LABEL_PAD), 0);
        assert_eq!(rows.take(50.0, 80.0, LABEL_PAD), 1);
        assert_eq!(rows.take(105.0, 200.0, LABEL_PAD), 1, "row 0 needs the padding too");
        assert_eq!(rows.take(110.0, 120.0, LABEL_PAD), 0);
        assert_eq!(rows.len(), 2);
    }
}
