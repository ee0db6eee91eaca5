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

/// The risk lab's terms, in the order a reader meets them: in the
/// patterns' names, the table's columns and the timeline's labels.
pub const RISK_TERMS: &[Term] = &[
    Term {
        term: "request_key",
        means: "The idempotency key of one tool call's intent (rk-0001): the agent sends it again with every                 retry of that call, and a unique index on it keeps one row per key.",
    },
    Term {
        term: "business_key",
        means: "What the order itself is (O20260728001 and its generation): two calls for the same order under                 different request_keys still share it, so a unique index on it keeps one review per order.",
    },
    Term {
        term: "Review",
        means: "What the downstream Risk API creates for an order, RV-1 and so on; a second review for one order                 is the incident's damage.",
    },
    Term {
        term: "Idempotent create",
        means: "Calling the Risk API with the request_key as its own idempotency key, so a repeated create                 returns the review it already made instead of making another.",
    },
    Term {
        term: "UNKNOWN",
        means: "A row's status when its create timed out: it may or may not have happened, so the row is                 neither SUCCEEDED nor FAILED until a worker finds out.",
    },
    Term {
        term: "FindByRequestKey",
        means: "A worker asking the Risk API whether a review for the row's request_key exists, before it                 resends anything.",
    },
    Term {
        term: "Lease",
        means: "How long a worker's claim on a row lasts; another worker may claim the row once it has ended.",
    },
    Term {
        term: "Compare-and-set",
        means: "A write that succeeds only if the row still has the version the writer read (UPDATE … WHERE                 version = n), so of two workers claiming one row at once only one wins.",
    },
    Term {
        term: "Replica",
        means: "One of the tool server's copies behind the load balancer (A, B, …); each takes calls on its own.",
    },
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
        for terms in [ACK_TERMS, RISK_TERMS] {
            let mut names: Vec<&str> = terms.iter().map(|t| t.term).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), terms.len());
            assert!(terms.iter().all(|t| t.means.ends_with('.') && t.means.len() > 40));
        }
        assert!(meaning(ACK_TERMS, "deduplication hits").unwrap().starts_with("Requests the server answered"));
    }
}
