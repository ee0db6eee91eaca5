#!/usr/bin/env bash
# Installs what the build and the tests need, skipping whatever is already
# present at the right version. Nothing downloads a tool at run time later:
# Trunk is pinned to these binaries in Trunk.toml.
#
#   scripts/tools.sh build   wasm target, Trunk, wasm-bindgen CLI, wasm-opt, terser
#   scripts/tools.sh test    the above, plus Chromium, chromedriver and the
#                            end-to-end suite's npm packages
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
TERSER_VERSION=5.51.4
# wasm-bindgen's CLI must match the library exactly; Cargo.lock says which.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)

say() { printf '\033[1mtools:\033[0m %s\n' "$*"; }

have_version() { # command, expected substring of `command --version`
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qF "$2"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

build_tools() {
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "wasm32 target present"
  else
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi

  for component in clippy rustfmt; do
    if rustup component list --installed | grep -q "^$component"; then
      say "$component present"
    else
      say "adding the $component component"
      rustup component add "$component"
    fi
  done

  if have_version trunk "trunk $TRUNK_VERSION"; then
    say "trunk $TRUNK_VERSION present"
  else
    say "installing trunk $TRUNK_VERSION (a few minutes, once)"
    cargo install --locked trunk --version "$TRUNK_VERSION"
  fi

  if [ -z "$WASM_BINDGEN_VERSION" ]; then
    say "Cargo.lock names no wasm-bindgen version"; exit 1
  fi
  if have_version wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION" \
    && command -v wasm-bindgen-test-runner >/dev/null; then
    say "wasm-bindgen-cli $WASM_BINDGEN_VERSION present"
  else
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
    # Not --locked: the CLI's own lock file names a crate the registry lacks.
    cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi

  if have_version wasm-opt "version_$BINARYEN_VERSION"; then
    say "wasm-opt version_$BINARYEN_VERSION present"
  else
    say "installing wasm-opt (binaryen $BINARYEN_VERSION)"
    npm install -g --no-audit --no-fund "binaryen@$BINARYEN_VERSION"
  fi

  if have_version terser "terser $TERSER_VERSION"; then
    say "terser $TERSER_VERSION present"
  else
    say "installing terser $TERSER_VERSION (minifies the JavaScript glue)"
    npm install -g --no-audit --no-fund "terser@$TERSER_VERSION"
  fi
}

test_tools() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    say "chromium and chromedriver present"
  else
    say "installing chromium and chromedriver from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi

  # npm ci only when the lock file changed since the last install.
  local stamp=e2e/node_modules/.installed-from-lock
  if [ -f "$stamp" ] && cmp -s e2e/package-lock.json "$stamp"; then
    say "end-to-end npm packages present"
  else
    say "installing the end-to-end npm packages"
    (cd e2e && npm ci --no-audit --no-fund)
    cp e2e/package-lock.json "$stamp"
  fi
}

case "${1:-build}" in
  build) build_tools ;;
  test) build_tools; test_tools ;;
  *) echo "usage: $0 [build|test]" >&2; exit 2 ;;
esac
