//! The words the labs use for idempotency, each defined once: the page
//! shows a term with its definition on hover and lists them all in a
//! "Words" panel, and every label that uses a term takes it from here.

/// A term and what it means, in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub term: &'static str,
    pub means: &'static str,
}

/// The first lab's terms, in the order a reader meets them.
pub const ACK_TERMS: &[Term] = &[
    Term {
        term: "Idempotency key",
        means: "A name the client gives one intent and sends with every attempt at it, so a server that \
                remembers it can recognise a retry. Also called an operation key.",
    },
    Term {
        term: "Logical intent key",
        means: "The idempotency key of the intent itself (intent-1), the same for every attempt; a new key \
                per attempt (attempt-2) names the attempt instead, and a server cannot tell a retry by it.",
    },
    Term {
        term: "Deduplication",
        means: "The server looking up each request's idempotency key before it acts: a key it has seen gets \
                the stored result (or joins the operation still running) instead of a second increment.",
    },
    Term {
        term: "Deduplication hits",
        means: "Requests the server answered from what it remembered of their key (a stored result, or an \
                operation still running) instead of performing them again.",
    },
    Term {
        term: "Dedup store",
        means: "Where the server keeps what it knows of each key: a reservation while the key's operation \
                runs, then its result, for the retention.",
    },
    Term {
        term: "Retention",
        means: "How long a stored result is kept; a retry that comes later finds nothing and runs again.",
    },
    Term {
        term: "Reservation lease",
        means: "How long a reservation blocks its key; a retry after the lease ends runs the operation again, \
                even if the first is still running.",
    },
    Term {
        term: "Ledger",
        means: "Every increment the server really performed. Only the ledger tells the truth: the client's \
                status may say one success while the ledger holds two.",
    },
    Term { term: "Model time", means: "The simulated clock of the run, from 0 when the client sends attempt 1." },
];

/// What `term` means, if it is one of `terms`.
pub fn meaning(terms: &[Term], term: &str) -> Option<&'static str> {
    terms.iter().find(|t| t.term.eq_ignore_ascii_case(term)).map(|t| t.means)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_is_defined_once_in_a_sentence() {
        let mut names: Vec<&str> = ACK_TERMS.iter().map(|t| t.term).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ACK_TERMS.len());
        assert!(ACK_TERMS.iter().all(|t| t.means.ends_with('.') && t.means.len() > 40));
        assert!(meaning(ACK_TERMS, "deduplication hits").unwrap().starts_with("Requests the server answered"));
    }
}
