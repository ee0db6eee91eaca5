#!/usr/bin/env bash
# Trunk's post-build hook: minifies the JavaScript of a release build with
# terser (Trunk's own minifier does not parse wasm-bindgen's module syntax
# and leaves it as it is). ES modules are minified as modules; classic
# scripts (a worker's glue, which defines globals for importScripts) keep
# their top-level names. Debug builds are left readable.
set -euo pipefail
[ "${TRUNK_PROFILE:-}" = "release" ] || exit 0
for file in "$TRUNK_STAGING_DIR"/*.js; do
  [ -f "$file" ] || continue
  if grep -qE '^(import|export) |^export\{|[;}]export\{' "$file"; then
    terser "$file" --module --compress --mangle --output "$file.min"
  else
    terser "$file" --compress --mangle --output "$file.min"
  fi
  mv "$file.min" "$file"
done
