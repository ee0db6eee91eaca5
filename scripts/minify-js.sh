#!/usr/bin/env bash
# Trunk's post-build hook: minifies the JavaScript glue of a release build
# with terser (Trunk's own minifier does not parse wasm-bindgen's module
# syntax and leaves it as it is). Debug builds are left readable.
set -euo pipefail
[ "${TRUNK_PROFILE:-}" = "release" ] || exit 0
for file in "$TRUNK_STAGING_DIR"/*.js; do
  [ -f "$file" ] || continue
  terser "$file" --module --compress --mangle --output "$file.min"
  mv "$file.min" "$file"
done
