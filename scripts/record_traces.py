#!/usr/bin/env python3
"""Records real traces of retried HTTP calls for the trace reader's tests.

A real HTTP server (the standard library's, on 127.0.0.1) increments a
counter in a SQLite database; a real HTTP client calls it and retries when
the connection drops. Both are instrumented with the OpenTelemetry SDK from
the package registry: each has its own tracer provider and service name
(client, server), the client's context travels in the W3C traceparent
header, and the spans are encoded by the SDK's own OTLP/JSON encoder
(opentelemetry-exporter-otlp-json-common). Attributes follow the semantic
conventions: http.request.method, http.route, http.response.status_code,
http.request.resend_count on retries, the Idempotency-Key header captured as
http.request.header.idempotency-key, error.type, and on database statements
db.system.name, db.operation.name, db.collection.name, db.query.text (with
the key as db.query.parameter.key where a statement uses it).

Incidents (one file each in tests/data/traces/, one JSON document per line
as the Collector's file exporter writes; all-incidents.jsonl holds all four):

- lost-response-key-dedup: the server commits, then the connection drops
  before the response; the client retries with the same key; the server
  finds the key and replays the stored response.
- lost-response-no-key-no-dedup: the same loss, with no key and a server
  that does not deduplicate: the retry increments again.
- new-key-per-attempt: the same loss, deduplication on, but the client
  sends a new key with the retry: the server increments again.
- no-retry: one call, answered.

Usage: pip install opentelemetry-sdk opentelemetry-exporter-otlp-json-common
       python3 scripts/record_traces.py [OUT_DIR]
"""

import http.client
import http.server
import json
import os
import sqlite3
import sys
import threading
import time

from opentelemetry import context, propagate, trace
from opentelemetry.exporter.otlp.json.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, Status, StatusCode

EXPORTER = InMemorySpanExporter()


def provider(service):
    p = TracerProvider(resource=Resource.create({"service.name": service}))
    p.add_span_processor(SimpleSpanProcessor(EXPORTER))
    return p


CLIENT = provider("client").get_tracer("record_traces.client")
SERVER = provider("server").get_tracer("record_traces.server")


class Server:
    """The counter's state and how the server behaves in an incident."""

    def __init__(self, dedup, drop_first):
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute("CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)")
        self.db.execute("CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, response TEXT NOT NULL)")
        self.lock = threading.Lock()
        self.dedup = dedup
        self.drop_first = drop_first
        self.requests = 0

    def statement(self, op, table, query, params, key=None):
        attrs = {
            "db.system.name": "sqlite",
            "db.operation.name": op,
            "db.collection.name": table,
            "db.query.text": query,
        }
        if key is not None:
            attrs["db.query.parameter.key"] = key
        with SERVER.start_as_current_span(f"{op} {table}", kind=SpanKind.CLIENT, attributes=attrs) as span:
            rows = self.db.execute(query, params).fetchall()
            if op == "SELECT":
                span.set_attribute("db.response.returned_rows", len(rows))
            return rows


def handler(state):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            parent = propagate.extract(dict(self.headers))
            key = self.headers.get("Idempotency-Key")
            attrs = {"http.request.method": "POST", "http.route": "/increment", "url.path": self.path}
            if key is not None:
                attrs["http.request.header.idempotency-key"] = [key]
            span = SERVER.start_span("POST /increment", context=parent, kind=SpanKind.SERVER, attributes=attrs)
            token = context.attach(trace.set_span_in_context(span))
            try:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with state.lock:
                    state.requests += 1
                    first = state.requests == 1
                    body = self.work(key)
                time.sleep(0.02)
                if first and state.drop_first:
                    # The response is lost after the commit: the connection
                    # closes before a byte of it is sent.
                    span.set_attribute("error.type", "connection_aborted")
                    span.set_status(Status(StatusCode.ERROR, "connection closed before the response"))
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                span.set_attribute("http.response.status_code", 200)
            finally:
                context.detach(token)
                span.end()

        def work(self, key):
            if state.dedup and key is not None:
                rows = state.statement(
                    "SELECT", "idempotency_keys", "SELECT response FROM idempotency_keys WHERE key = ?", (key,), key
                )
                if rows:
                    return rows[0][0].encode()
            time.sleep(0.01)
            state.statement("INSERT", "ledger", "INSERT INTO ledger (amount) VALUES (?)", (1,))
            (count,) = state.db.execute("SELECT COUNT(*) FROM ledger").fetchone()
            body = json.dumps({"counter": count})
            if state.dedup and key is not None:
                state.statement(
                    "INSERT",
                    "idempotency_keys",
                    "INSERT INTO idempotency_keys (key, response) VALUES (?, ?)",
                    (key, body),
                    key,
                )
            state.db.commit()
            return body.encode()

    return Handler


def attempt(port, key, resend):
    attrs = {"http.request.method": "POST", "url.full": f"http://127.0.0.1:{port}/increment", "server.port": port}
    if resend:
        attrs["http.request.resend_count"] = resend
    if key is not None:
        attrs["http.request.header.idempotency-key"] = [key]
    with CLIENT.start_as_current_span("POST", kind=SpanKind.CLIENT, attributes=attrs) as span:
        headers = {"Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        propagate.inject(headers)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("POST", "/increment", body=b'{"amount": 1}', headers=headers)
            response = conn.getresponse()
            response.read()
            span.set_attribute("http.response.status_code", response.status)
            return response.status == 200
        except (OSError, http.client.HTTPException) as e:
            span.set_attribute("error.type", type(e).__name__)
            span.set_status(Status(StatusCode.ERROR, str(e)))
            return False
        finally:
            conn.close()


def incident(name, out_dir, dedup, drop_first, keys, max_attempts):
    state = Server(dedup, drop_first)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(state))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    port = httpd.server_address[1]
    EXPORTER.clear()
    with CLIENT.start_as_current_span("increment", kind=SpanKind.INTERNAL) as root:
        ok = False
        for n in range(max_attempts):
            if n:
                time.sleep(0.1)
            ok = attempt(port, keys[n] if n < len(keys) else None, n)
            if ok:
                break
        root.set_status(Status(StatusCode.OK) if ok else Status(StatusCode.ERROR, "gave up"))
    httpd.shutdown()
    httpd.server_close()
    document = encode_spans(EXPORTER.get_finished_spans()).to_json()
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        f.write(document + "\n")
    return document


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "traces")
    os.makedirs(out_dir, exist_ok=True)
    docs = [
        incident("lost-response-key-dedup", out_dir, True, True, ["order-7"] * 3, 3),
        incident("lost-response-no-key-no-dedup", out_dir, False, True, [], 3),
        incident("new-key-per-attempt", out_dir, True, True, ["attempt-1", "attempt-2", "attempt-3"], 3),
        incident("no-retry", out_dir, True, False, ["order-8"], 1),
    ]
    with open(os.path.join(out_dir, "all-incidents.jsonl"), "w") as f:
        f.write("\n".join(docs) + "\n")


if __name__ == "__main__":
    main()
