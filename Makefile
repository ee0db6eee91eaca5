# The two commands of the README are `make serve` and `make test`.
# Both install what they need first (scripts/tools.sh skips what is there).
# While changing the app, `trunk serve` at the top is the loop (Trunk.toml).

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

E2E_PORT ?= 47801
export CHROMEDRIVER ?= /usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON ?= $(CURDIR)/tests/browser/webdriver.json
export WASM_BINDGEN_TEST_TIMEOUT ?= 120

.PHONY: help serve test lint test-native test-wasm test-e2e test-dev dist bench tools tools-test

help:
	@echo "make serve   build and serve the app at http://127.0.0.1:8080 (release builds)"
	@echo "trunk serve  the same, in debug builds that rebuild and reload on a change"
	@echo "make test    run every test: native, wasm in Chromium, end-to-end, trunk serve"
	@echo "make bench   print size and speed figures"

tools:
	@scripts/tools.sh build

tools-test:
	@scripts/tools.sh test

# The page that hosts every lab (index.html) is built into dist/, and with
# it (Trunk's hook, scripts/labs.sh) each lab of the registry in
# src/view/labs.rs into dist/<lab>/. Everything is served with the same
# strict CSP the tests use. The command line then writes the first lab's
# opening run into the host page, so it shows before any WebAssembly, and
# each other lab's that has one beside its bundle (<lab>/opening.html, which
# the page puts in place for a link to that lab); the service worker gets the build's file list; and each file that compresses
# gets a brotli and a gzip copy beside it, which the server sends to a
# browser that accepts them (README, "Serving the build").
serve: tools dist
	@echo "Serving http://127.0.0.1:8080/"
	node e2e/serve.mjs --root dist --port 8080

test: tools-test
	$(MAKE) --no-print-directory lint test-native test-wasm test-e2e test-dev

# Formatting, and clippy with warnings as errors (clippy.toml bounds a
# function's length), on the native code and on the browser's.
lint:
	cargo fmt --check
	cargo clippy --locked --all-targets -- -D warnings
	cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --test browser -- -D warnings

# The core, the view layer and the command line.
test-native:
	cargo test --locked

# Components mounted in headless Chromium.
test-wasm:
	cargo test --locked --target wasm32-unknown-unknown --test browser

dist:
	trunk build --release --locked
	cargo build --locked --release
	./target/release/idempotency-lab opening --dir dist > target/openings.txt
	./target/release/idempotency-lab opening | node scripts/opening.mjs dist/index.html $$(cat target/openings.txt)
	node scripts/offline.mjs dist
	node scripts/compress.mjs dist

# The release bundle, served with the strict CSP, driven by Playwright
# (some tests compare the page with the command line's release build).
test-e2e: dist
	cargo build --locked --release
	cd e2e && E2E_PORT=$(E2E_PORT) npx playwright test

# The development loop: `trunk serve` from a fresh build folder serves the
# first lab, and reloads the page after a change (debug builds, reusing
# target/).
test-dev:
	cd e2e && E2E_PORT=$(E2E_PORT) npx playwright test --config dev.config.mjs

bench: tools-test dist
	@scripts/bench.sh
