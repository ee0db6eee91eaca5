#!/usr/bin/env bash
# Trunk's post-build hook for the page that hosts every lab: builds each
# lab of the registry (src/view/labs.rs) into its folder beside the page,
# and writes the registry's list of labs into the page for its scripts.
# The command line reads the registry: `idempotency-lab labs` lists the
# labs, and `labs --pages` writes the page Trunk builds each lab's bundle
# from (into target/lab-pages/<lab>/index.html). A release build
# (`trunk build --release`, `make dist`) builds release bundles; `trunk
# serve` builds debug ones. The labs' own builds run this hook too, and
# skip it.
set -euo pipefail
[ -z "${IDEMPOTENCY_LAB_BUNDLE:-}" ] || exit 0
release=()
[ "${TRUNK_PROFILE:-}" = "release" ] && release=(--release)
cli() { cargo run --quiet --locked "${release[@]}" --bin idempotency-lab -- "$@"; }

labs=$(cli labs | cut -f1 | tr '\n' ' ')
for page in $(cli labs --pages target/lab-pages); do
  lab=$(basename "$(dirname "$page")")
  IDEMPOTENCY_LAB_BUNDLE="$lab" trunk build "$page" "${release[@]}" --locked --dist "$TRUNK_STAGING_DIR/$lab"
done

# The host page's scripts read the labs from its root element.
sed -i "0,/<html /s//<html data-labs=\"${labs% }\" /" "$TRUNK_STAGING_DIR/index.html"
