//! The checks a trace is judged by, over the whole trace and per intent,
//! and where it broke. Each judges the findings (what the spans show was
//! done), never a verdict a span wrote about itself; a check with nothing
//! to judge holds `None`.

use std::collections::HashMap;

use super::findings::{ClientStatus, Findings, db_operation};
use super::span::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckName {
    /// At most one effect per intent.
    CommittedAtMostOnce,
    /// A client told "succeeded" has exactly one effect behind it; one told
    /// "rejected" has none.
    StatusAgreesWithEffects,
    /// No effect is done after the client gave up (or was rejected).
    NoEffectAfterGivingUp,
    /// At most one effect per business key (for MCP calls that name one).
    OneReviewPerBusinessKey,
}

impl CheckName {
    pub const ALL: [CheckName; 4] = [
        CheckName::CommittedAtMostOnce,
        CheckName::StatusAgreesWithEffects,
        CheckName::NoEffectAfterGivingUp,
        CheckName::OneReviewPerBusinessKey,
    ];

    /// The machine name, as JSON gives it.
    pub fn name(self) -> &'static str {
        match self {
            CheckName::CommittedAtMostOnce => "committed_at_most_once",
            CheckName::StatusAgreesWithEffects => "status_agrees_with_effects",
            CheckName::NoEffectAfterGivingUp => "no_effect_after_giving_up",
            CheckName::OneReviewPerBusinessKey => "one_review_per_business_key",
        }
    }
}

/// One check's verdict and the figures behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub name: CheckName,
    pub holds: Option<bool>,
    pub figures: Vec<(&'static str, u64)>,
}

/// How many effects each business key has.
fn per_business_key(f: &Findings) -> HashMap<&str, u64> {
    let mut counts = HashMap::new();
    for e in &f.effects {
        if let Some(key) = e.intent.and_then(|i| f.intents[i].business_key.as_deref()) {
            *counts.entry(key).or_insert(0) += 1;
        }
    }
    counts
}

/// One intent's verdicts.
pub fn intent_checks(f: &Findings, i: usize) -> Vec<Verdict> {
    let intent = &f.intents[i];
    let n = intent.effects.len() as u64;
    let late = match (intent.status, intent.status_at) {
        (Some(ClientStatus::GaveUp | ClientStatus::Rejected), Some(at)) => {
            Some(intent.effects.iter().filter(|&&e| f.effects[e].at_ns > at).count() as u64)
        }
        _ => None,
    };
    let agrees = match intent.status {
        Some(ClientStatus::Succeeded) => Some(n == 1),
        Some(ClientStatus::Rejected) => Some(n == 0),
        _ => None,
    };
    let business = intent.business_key.as_deref().map(|k| per_business_key(f).get(k).copied().unwrap_or(0));
    vec![
        Verdict { name: CheckName::CommittedAtMostOnce, holds: Some(n <= 1), figures: vec![("effects", n)] },
        Verdict {
            name: CheckName::StatusAgreesWithEffects,
            holds: agrees,
            figures: vec![("effects", n), ("succeeded", u64::from(intent.status == Some(ClientStatus::Succeeded)))],
        },
        Verdict {
            name: CheckName::NoEffectAfterGivingUp,
            holds: late.map(|l| l == 0),
            figures: vec![("effects_after_giving_up", late.unwrap_or(0))],
        },
        Verdict {
            name: CheckName::OneReviewPerBusinessKey,
            holds: business.map(|b| b <= 1),
            figures: vec![("effects_for_business_key", business.unwrap_or(0))],
        },
    ]
}

/// The verdicts over the whole trace: a check holds when it holds for
/// every intent it judges, and has nothing to judge when it judges none.
pub fn checks(f: &Findings) -> Vec<Verdict> {
    let per: Vec<Vec<Verdict>> = (0..f.intents.len()).map(|i| intent_checks(f, i)).collect();
    let unattributed = f.effects.iter().filter(|e| e.intent.is_none()).count() as u64;
    CheckName::ALL
        .iter()
        .enumerate()
        .map(|(c, &name)| {
            let judged = per.iter().filter(|v| v[c].holds.is_some()).count() as u64;
            let failing = per.iter().filter(|v| v[c].holds == Some(false)).count() as u64;
            let mut figures = vec![("intents_judged", judged), ("intents_failing", failing)];
            match name {
                CheckName::CommittedAtMostOnce => {
                    figures.extend([("effects", f.effects.len() as u64), ("effects_of_no_intent", unattributed)]);
                }
                CheckName::OneReviewPerBusinessKey => {
                    let counts = per_business_key(f);
                    figures = vec![
                        ("business_keys", counts.len() as u64),
                        ("business_keys_failing", counts.values().filter(|&&n| n > 1).count() as u64),
                    ];
                    let holds = (!counts.is_empty()).then(|| counts.values().all(|&n| n <= 1));
                    return Verdict { name, holds, figures };
                }
                _ => {}
            }
            Verdict { name, holds: (judged > 0).then_some(failing == 0), figures }
        })
        .collect()
}

/// Where a trace's intent was first done twice, and why: the duplicate
/// effect and the span where it should have been recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// The duplicate effect and the first one (indices into
    /// [`Findings::effects`]).
    pub duplicate: usize,
    pub first: usize,
    /// The span where it broke, the service whose lane it is on (a store's
    /// when the store forgot), and the moment.
    pub span: usize,
    pub service: usize,
    pub at_ns: u64,
    pub place: Place,
}

/// What the span where it broke did or failed to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The retry carried another key than the attempt that made the first
    /// effect (`None`: no key at all).
    NewKey { first: Option<String>, then: Option<String> },
    /// A service received the same key again and did not look it up.
    NotLookedUp { key: String },
    /// The operation that made the first effect ended without recording its
    /// result under the key.
    NotRecorded { key: String },
    /// The store deleted the key before the retry came.
    Forgotten { key: String },
    /// The store had no record of the key, for no reason the trace shows.
    NotFound { key: String },
    /// A second effect for a business key, from another intent.
    SecondForBusinessKey { key: String },
}

/// The first duplicate effect: of an intent, or of a business key.
fn first_duplicate(f: &Findings) -> Option<(usize, usize, bool)> {
    let mut by_intent: HashMap<usize, usize> = HashMap::new();
    let mut by_business: HashMap<&str, usize> = HashMap::new();
    for (n, e) in f.effects.iter().enumerate() {
        let Some(i) = e.intent else { continue };
        if let Some(&first) = by_intent.get(&i) {
            return Some((first, n, false));
        }
        by_intent.insert(i, n);
        if let Some(k) = f.intents[i].business_key.as_deref() {
            if let Some(&first) = by_business.get(k) {
                return Some((first, n, true));
            }
            by_business.insert(k, n);
        }
    }
    None
}

/// Where it broke, if an intent or a business key has two effects.
pub fn where_it_broke(f: &Findings) -> Option<Break> {
    let (first, duplicate, business) = first_duplicate(f)?;
    let e2 = &f.effects[duplicate];
    let span2 = &f.trace.spans[e2.span];
    if business {
        let key = e2.intent.and_then(|i| f.intents[i].business_key.clone()).unwrap_or_default();
        return Some(Break {
            duplicate,
            first,
            span: e2.span,
            service: span2.service,
            at_ns: e2.at_ns,
            place: Place::SecondForBusinessKey { key },
        });
    }
    let (span, service, at_ns, place) = cause(f, first, duplicate);
    Some(Break { duplicate, first, span, service, at_ns, place })
}

/// The attempt an effect was done under, if any.
fn attempt_of(f: &Findings, effect: usize) -> Option<usize> {
    let span = f.effects[effect].span;
    f.ancestors(span).find_map(|a| f.attempts.iter().position(|t| t.span == a))
}

/// The nearest SERVER span at or above `span` that received `key`, or else
/// the nearest SERVER span.
fn receiver(f: &Findings, span: usize, key: &str) -> Option<usize> {
    let chain: Vec<usize> = std::iter::once(span).chain(f.ancestors(span)).collect();
    let servers = chain.iter().copied().filter(|&s| f.trace.spans[s].kind == Kind::Server);
    let mut keyed = servers.clone().filter(|&s| f.trace.spans[s].mentions(key));
    keyed.next().or_else(|| servers.clone().next())
}

fn under(f: &Findings, span: usize, top: usize) -> bool {
    f.ancestors(span).any(|a| a == top)
}

fn cause(f: &Findings, first: usize, duplicate: usize) -> (usize, usize, u64, Place) {
    let spans = &f.trace.spans;
    let (a1, a2) = (attempt_of(f, first), attempt_of(f, duplicate));
    let key1 = a1.and_then(|a| f.attempts[a].key.clone());
    if let Some(a2) = a2 {
        let key2 = f.attempts[a2].key.clone();
        if key2.is_none() || key2 != key1 {
            let s = &spans[f.attempts[a2].span];
            return (f.attempts[a2].span, s.service, s.start_ns, Place::NewKey { first: key1, then: key2 });
        }
    }
    let key = key1.unwrap_or_default();
    let e2 = f.effects[duplicate].span;
    let Some(s2) = receiver(f, e2, &key) else {
        return (e2, spans[e2].service, f.effects[duplicate].at_ns, Place::NotLookedUp { key });
    };
    let server = spans[s2].service;
    // A lookup: a span under the receiver, on another service, that names
    // the key and is not itself an effect.
    let effect_spans: Vec<usize> = f.effects.iter().map(|e| e.span).collect();
    let lookup = (0..spans.len()).find(|&i| {
        spans[i].service != server
            && spans[i].mentions(&key)
            && !effect_spans.contains(&i)
            && spans[i].start_ns <= spans[e2].end_ns
            && under(f, i, s2)
    });
    let Some(lookup) = lookup else {
        return (s2, server, spans[s2].start_ns, Place::NotLookedUp { key });
    };
    let store = spans[lookup].service;
    // The operation that made the first effect: did it record its result?
    let e1 = f.effects[first].span;
    if let Some(s1) = receiver(f, e1, &key) {
        let recorded = (0..spans.len()).any(|i| {
            spans[i].service == store
                && spans[i].mentions(&key)
                && spans[i].start_ns >= f.effects[first].at_ns
                && under(f, i, s1)
        });
        if !recorded {
            return (s1, store, spans[s1].end_ns, Place::NotRecorded { key });
        }
    }
    // The store forgot: the last deletion of the key (or of every key)
    // before the receiver looked.
    let forgot = (0..spans.len())
        .filter(|&i| {
            let s = &spans[i];
            s.service == store
                && s.start_ns <= spans[s2].start_ns
                && db_operation(s).as_deref() == Some("DELETE")
                && (s.mentions(&key)
                    || !s.str_attr("db.query.text").is_some_and(|q| q.to_ascii_uppercase().contains("WHERE")))
        })
        .max_by_key(|&i| (spans[i].start_ns, i));
    match forgot {
        Some(i) => (i, store, spans[i].start_ns, Place::Forgotten { key }),
        None => (s2, server, spans[s2].start_ns, Place::NotFound { key }),
    }
}
