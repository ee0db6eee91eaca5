//! Real traces in and out: every preset of both labs exported as OTLP/JSON
//! and read back gives the lab's verdicts and its "Where it broke"; the
//! export has the protocol's shape; the committed traces recorded by a
//! real instrumented program get the verdicts worked by hand; hostile files
//! are refused with the line and the field.

use idempotency_lab::sim::Millis;
use idempotency_lab::sim::ack::{Run as AckRun, checks as ack_checks};
use idempotency_lab::sim::trace::checks::{checks, where_it_broke};
use idempotency_lab::sim::trace::{CheckName, Findings, Limits, Rules, read};
use idempotency_lab::view::ack::broke::Place;
use idempotency_lab::view::ack::experiments::EXPERIMENTS;
use idempotency_lab::view::ack::otlp::{self as ack_otlp, place_of};

fn findings(text: &str) -> Findings {
    Findings::of(read(text, Limits::default()).expect("the export reads back"), &Rules::default())
}

fn holds(f: &Findings, name: CheckName) -> Option<bool> {
    checks(f).into_iter().find(|v| v.name == name).and_then(|v| v.holds)
}

#[test]
fn every_preset_of_the_first_lab_reads_back_with_its_verdicts_and_break() {
    let mut places = Vec::new();
    for e in EXPERIMENTS {
        let run = AckRun::simulate(&e.settings()).unwrap();
        let f = findings(&ack_otlp::run_to_otlp(&run));
        let broken = ack_checks::broken(run.records());
        for (lab, trace) in [
            (ack_checks::CheckName::CommittedAtMostOnce, CheckName::CommittedAtMostOnce),
            (ack_checks::CheckName::StatusAgreesWithLedger, CheckName::StatusAgreesWithEffects),
            (ack_checks::CheckName::NoIncrementAfterGivingUp, CheckName::NoEffectAfterGivingUp),
        ] {
            assert_eq!(broken.contains(&lab), holds(&f, trace) == Some(false), "{}: {}", e.id, lab.name());
        }
        let lab = idempotency_lab::view::ack::broke::where_it_broke(&run).map(|b| (b.place, b.t(&run)));
        let read_back = where_it_broke(&f).map(|b| {
            (
                place_of(&f.trace.services[b.service]).expect("a lane of the lab"),
                Millis((b.at_ns - ack_otlp::EPOCH_NS) / 1_000_000),
            )
        });
        assert_eq!(read_back, lab, "{}", e.id);
        places.extend(lab.map(|(p, _)| p));
    }
    // The presets break in every lane the lab names but the network, so
    // each of the trace's rules is exercised.
    for p in [Place::Client, Place::Server, Place::DedupStore] {
        assert!(places.contains(&p), "{p:?}");
    }
}

#[test]
fn every_preset_of_the_risk_lab_reads_back_with_its_verdicts_and_break() {
    use idempotency_lab::sim::risk::{CheckName as RiskCheck, Preset, Run as RiskRun, Settings as RiskSettings};
    use idempotency_lab::view::risk::otlp as risk_otlp;
    let mut broke = 0;
    for preset in Preset::ALL {
        for mode in ["naive", "patterns"] {
            let settings = RiskSettings::from_pairs(&[
                (idempotency_lab::sim::risk::settings::PRESET.def(), preset.value()),
                (idempotency_lab::sim::risk::settings::MODE.def(), mode),
            ])
            .unwrap();
            let run = RiskRun::simulate(&settings).unwrap();
            let f = findings(&risk_otlp::run_to_otlp(&run));
            let id = format!("{} {mode}", preset.value());
            // The lab's own check of one review per order.
            let lab = run.checks().into_iter().find(|c| c.name == RiskCheck::OneReviewPerBusinessKey).unwrap().holds;
            assert_eq!(holds(&f, CheckName::OneReviewPerBusinessKey), lab, "{id}");
            // At most one review per request_key, from the Risk API's ledger.
            let mut per_key = std::collections::HashMap::new();
            for r in run.reviews() {
                *per_key.entry(r.request_key).or_insert(0) += 1;
            }
            let once = per_key.values().all(|&n| n <= 1);
            assert_eq!(holds(&f, CheckName::CommittedAtMostOnce).unwrap_or(true), once, "{id}");
            // Where it broke: where the lab places the second review for an
            // order (its check of one review per order failing).
            let lab = idempotency_lab::view::risk::broke::broke(&run).and_then(|b| {
                let m = b.missing.iter().find(|m| m.check == RiskCheck::OneReviewPerBusinessKey)?;
                Some(run.records()[m.place].t)
            });
            let read_back = where_it_broke(&f).map(|b| {
                let e = &f.trace.spans[f.effects[b.duplicate].span];
                assert_eq!(f.trace.services[e.service], risk_otlp::RISK_API, "{id}");
                Millis((f.effects[b.duplicate].at_ns - risk_otlp::EPOCH_NS) / 1_000_000)
            });
            assert_eq!(read_back, lab, "{id}");
            broke += usize::from(lab.is_some());
        }
    }
    assert!(broke >= 3, "the naive presets break: {broke}");
}

fn committed(name: &str) -> Findings {
    let path = format!("{}/tests/data/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    findings(&std::fs::read_to_string(path).unwrap())
}

fn verdicts(f: &Findings) -> Vec<Option<bool>> {
    checks(f).into_iter().map(|v| v.holds).collect()
}

#[test]
fn the_recorded_traces_get_the_verdicts_worked_from_the_program() {
    use idempotency_lab::sim::trace::ClientStatus;
    use idempotency_lab::sim::trace::checks::Place as TracePlace;
    // scripts/record_traces.py: the server commits (INSERT INTO ledger),
    // then drops the connection; the client retries once, 100 ms later,
    // and the retry is answered 200.
    // With the key and deduplication: the retry's SELECT finds order-7, so
    // the ledger has one INSERT: one intent, two attempts, one effect, the
    // client succeeded with one effect behind it; nobody gave up and no
    // business key is named.
    let f = committed("lost-response-key-dedup.json");
    assert_eq!((f.intents.len(), f.attempts.len(), f.effects.len()), (1, 2, 1));
    assert_eq!(f.intents[0].status, Some(ClientStatus::Succeeded));
    assert_eq!(verdicts(&f), [Some(true), Some(true), None, None]);
    assert_eq!(where_it_broke(&f), None);
    // Without a key or deduplication: two INSERTs for one intent (the two
    // attempts are one intent because the second has resend_count 1 under
    // the same "increment" span), and a success over two effects.
    let f = committed("lost-response-no-key-no-dedup.json");
    assert_eq!((f.intents.len(), f.attempts.len(), f.effects.len()), (1, 2, 2));
    assert_eq!(verdicts(&f), [Some(false), Some(false), None, None]);
    let b = where_it_broke(&f).unwrap();
    // It broke in the client: the retry carried no key at all.
    assert_eq!(f.trace.services[b.service], "client");
    assert_eq!(b.place, TracePlace::NewKey { first: None, then: None });
    assert_eq!(f.trace.spans[b.span].int_attr("http.request.resend_count"), Some(1));
    // A new key per attempt: attempt-1 then attempt-2, each new to the
    // server, so each inserts: the same verdicts, broken in the client by
    // the retry's new key.
    let f = committed("new-key-per-attempt.json");
    assert_eq!((f.intents.len(), f.attempts.len(), f.effects.len()), (1, 2, 2));
    assert_eq!(f.intents[0].keys, ["attempt-1", "attempt-2"]);
    assert_eq!(verdicts(&f), [Some(false), Some(false), None, None]);
    let b = where_it_broke(&f).unwrap();
    assert_eq!(b.place, TracePlace::NewKey { first: Some("attempt-1".to_owned()), then: Some("attempt-2".to_owned()) });
    // One call, answered: one attempt, one effect, everything holds.
    let f = committed("no-retry.json");
    assert_eq!((f.intents.len(), f.attempts.len(), f.effects.len()), (1, 1, 1));
    assert_eq!(verdicts(&f), [Some(true), Some(true), None, None]);
    // All four, one document per line: four intents, 2 + 2 + 2 + 1 = 7
    // attempts, 1 + 2 + 2 + 1 = 6 effects; two intents fail the first two
    // checks.
    let f = committed("all-incidents.jsonl");
    assert_eq!((f.intents.len(), f.attempts.len(), f.effects.len()), (4, 7, 6));
    let whole = checks(&f);
    assert_eq!(
        whole[0].figures,
        [("intents_judged", 4), ("intents_failing", 2), ("effects", 6), ("effects_of_no_intent", 0)]
    );
}

#[test]
fn an_export_has_the_protocols_shape() {
    use serde_json::Value as J;
    let run = AckRun::simulate(&EXPERIMENTS[1].settings()).unwrap();
    let risk = idempotency_lab::sim::risk::Run::simulate(&idempotency_lab::sim::risk::Settings::default()).unwrap();
    for text in [ack_otlp::run_to_otlp(&run), idempotency_lab::view::risk::otlp::run_to_otlp(&risk)] {
        let doc: J = serde_json::from_str(&text).unwrap();
        let mut ids = std::collections::HashSet::new();
        let mut parents = Vec::new();
        let mut services = std::collections::HashSet::new();
        for rs in doc["resourceSpans"].as_array().unwrap() {
            let attrs = rs["resource"]["attributes"].as_array().unwrap();
            let name = attrs.iter().find(|a| a["key"] == "service.name").unwrap();
            assert!(
                services.insert(name["value"]["stringValue"].as_str().unwrap().to_owned()),
                "one resource per service"
            );
            for ss in rs["scopeSpans"].as_array().unwrap() {
                for s in ss["spans"].as_array().unwrap() {
                    let trace = s["traceId"].as_str().unwrap();
                    let span = s["spanId"].as_str().unwrap();
                    assert_eq!(trace.len(), 32);
                    assert_eq!(span.len(), 16);
                    assert!(trace.chars().chain(span.chars()).all(|c| c.is_ascii_hexdigit()));
                    assert!(ids.insert((trace.to_owned(), span.to_owned())));
                    if let Some(p) = s.get("parentSpanId") {
                        parents.push((trace.to_owned(), p.as_str().unwrap().to_owned()));
                    }
                    let kind = s["kind"].as_u64().unwrap();
                    assert!((1..=5).contains(&kind), "a kind as an integer");
                    let start: u64 = s["startTimeUnixNano"].as_str().unwrap().parse().unwrap();
                    let end: u64 = s["endTimeUnixNano"].as_str().unwrap().parse().unwrap();
                    assert!(start <= end && start >= 1_785_000_000_000_000_000);
                    for a in s["attributes"].as_array().unwrap() {
                        let value = a["value"].as_object().unwrap();
                        assert_eq!(value.len(), 1, "one typed value");
                        let typ = value.keys().next().unwrap();
                        assert!(
                            ["stringValue", "intValue", "boolValue", "doubleValue", "arrayValue"]
                                .contains(&typ.as_str())
                        );
                        if typ == "intValue" {
                            assert!(value[typ].is_string(), "64-bit integers as strings");
                        }
                    }
                }
            }
        }
        for p in parents {
            assert!(ids.contains(&p), "every parent exists: {p:?}");
        }
    }
}

#[test]
fn the_risk_incident_is_on_the_reports_wall_clock() {
    use idempotency_lab::view::traces::clock;
    let run = idempotency_lab::sim::risk::Run::simulate(&idempotency_lab::sim::risk::Settings::default()).unwrap();
    let f = findings(&idempotency_lab::view::risk::otlp::run_to_otlp(&run));
    // The first tool call at 10:31:08.120; the second review 4.411 s later.
    assert_eq!(clock(f.trace.start_ns()), "10:31:08.120");
    let b = where_it_broke(&f).unwrap();
    assert_eq!(clock(f.effects[b.duplicate].at_ns), "10:31:12.531");
}

/// A minimal span, written as the protocol writes it.
fn span_json(id: u64, parent: Option<u64>, start: &str, end: &str) -> String {
    let parent = parent.map_or(String::new(), |p| format!("\"parentSpanId\": \"{p:016x}\",\n"));
    format!(
        "{{\"traceId\": \"0af7651916cd43dd8448eb211c80319c\",\n\"spanId\": \"{id:016x}\",\n{parent}\"name\": \"s\",\n\"kind\": 2,\n\"startTimeUnixNano\": \"{start}\",\n\"endTimeUnixNano\": \"{end}\"}}"
    )
}

fn document(spans: &[String]) -> String {
    format!(
        "{{\"resourceSpans\": [{{\"resource\": {{\"attributes\": [{{\"key\": \"service.name\", \"value\": {{\"stringValue\": \"svc\"}}}}]}},\n\"scopeSpans\": [{{\"spans\": [\n{}\n]}}]}}]}}",
        spans.join(",\n")
    )
}

#[test]
fn hostile_files_are_refused_with_the_line_and_the_field() {
    let good = span_json(1, None, "10", "20");
    let refusal = |text: &str| read(text, Limits::default()).unwrap_err().to_string();
    // Malformed: a missing comma after the name (line 5), found at the
    // member after it, on line 6.
    let broken = document(&[good.replace("\"name\": \"s\",", "\"name\": \"s\"")]);
    assert_eq!(
        refusal(&broken),
        "line 6, resourceSpans[0].scopeSpans[0].spans[0]: malformed JSON: expected , or } after a member"
    );
    // A wrong type: the kind as a string of digits.
    let wrong = document(&[good.replace("\"kind\": 2", "\"kind\": \"2\"")]);
    assert!(refusal(&wrong).starts_with("line 6, resourceSpans[0].scopeSpans[0].spans[0].kind: \"2\" is not allowed"));
    // An unknown enum: a kind past 5, and a kind written by its name.
    let unknown = document(&[good.replace("\"kind\": 2", "\"kind\": 9")]);
    assert_eq!(
        refusal(&unknown),
        "line 6, resourceSpans[0].scopeSpans[0].spans[0].kind: 9 is not a known value; allowed: an integer from 0 to 5 (OTLP/JSON writes enums as integers)"
    );
    let named = document(&[good.replace("\"kind\": 2", "\"kind\": \"SPAN_KIND_SERVER\"")]);
    assert!(refusal(&named).contains("\"SPAN_KIND_SERVER\" is not allowed"));
    // A span that ends before it starts.
    let backwards = document(&[span_json(1, None, "20", "10")]);
    assert_eq!(
        refusal(&backwards),
        "line 8, resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano: 10 is before the start, 20; allowed: a span that ends when or after it starts"
    );
    // A missing parent: read as a root, with a warning naming its line.
    let orphan = document(&[span_json(2, Some(7), "10", "20")]);
    let reading = read(&orphan, Limits::default()).unwrap();
    assert_eq!(reading.trace.spans[0].parent, None);
    assert_eq!(
        reading.warnings[0].to_string(),
        "line 3, parentSpanId: span \"s\" names parent 0000000000000007, which is not in the file; it is read as a root"
    );
    // Attribute text is kept as text, markup and all.
    let markup = document(&[good.replace("\"name\": \"s\"", "\"name\": \"<script>alert(1)</script>\"")]);
    assert_eq!(read(&markup, Limits::default()).unwrap().trace.spans[0].name, "<script>alert(1)</script>");
    // Bad ids, an empty file, and a document that is not a trace.
    assert!(refusal(&document(&[good.replace("0af7651916cd43dd", "0af76519")])).contains("allowed: 32 hex digits"));
    assert_eq!(refusal("  \n"), "line 2: the file is empty; allowed: an OTLP/JSON trace export");
    assert_eq!(refusal("{\"a\": 1}"), "line 1: a document without resourceSpans; allowed: an OTLP/JSON trace export");
}

#[test]
fn a_million_spans_stop_at_the_limit_and_a_large_file_at_its_size() {
    // A million spans, one a line: refused at the 200 001st, on its line
    // (the document's opening takes two lines, so span n is on line n + 2).
    let spans: Vec<String> = (1..=1_000_000u64).map(|i| span_json(i, None, "1", "2").replace('\n', "")).collect();
    let text = document(&spans);
    let e = read(&text, Limits { bytes: usize::MAX, spans: idempotency_lab::sim::trace::read::MAX_SPANS }).unwrap_err();
    assert_eq!(e.line, 200_001 + 2);
    assert!(e.problem.starts_with("more than 200000 spans"), "{e}");
    // With the default limits the same text is refused for its size first.
    let e = read(&text, Limits::default()).unwrap_err();
    assert!(
        e.problem.starts_with(&format!("the file is {} bytes; allowed: at most 67108864 bytes", text.len())),
        "{e}"
    );
}

#[test]
fn a_100_mb_file_is_refused_before_it_is_read_whole() {
    // A sparse file of 100 MB: the command line's one bounded reader stops
    // one byte past the 64 MiB limit and names it.
    let path = std::env::temp_dir().join(format!("idempotency-lab-100mb-{}.json", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(100_000_000).unwrap();
    let args = vec!["trace".to_owned(), path.to_str().unwrap().to_owned()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = idempotency_lab::cli::main_with(&args, &mut out, &mut err);
    std::fs::remove_file(&path).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("is longer than 67108864 bytes (the limit), so it was not read"), "{err}");
}
