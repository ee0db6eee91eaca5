#!/usr/bin/env bash
# Trunk's post-build hook for index.html, the page that hosts every lab:
# builds each lab of the registry (src/view/labs.rs) into its folder
# beside the page, and writes the registry's list of labs into the page
# for its scripts. The command line reads the registry: `idempotency-lab
# labs` lists the labs, and `labs --pages` writes the page Trunk builds
# each lab's bundle from (target/lab-pages/<lab>/index.html).
#
# `trunk build --release` (`make dist`) builds release bundles, `trunk
# serve` debug ones. `LAB=<id> trunk serve` builds that lab alone, and the
# page opens it: a quicker loop while working on one lab. The labs' own
# builds run this hook too, and skip it.
set -euo pipefail
[ -z "${IDEMPOTENCY_LAB_BUNDLE:-}" ] || exit 0
release=()
[ "${TRUNK_PROFILE:-}" = "release" ] && release=(--release)
cli() { cargo run --quiet --locked "${release[@]}" --bin idempotency-lab -- "$@"; }

labs=$(cli labs | cut -f1)
if [ -n "${LAB:-}" ]; then
  if ! grep -qx "$LAB" <<<"$labs"; then
    echo "LAB=$LAB: not a lab; allowed: $(echo $labs | sed "s/ /, /g")" >&2
    exit 2
  fi
  labs=$LAB
fi
pages=$(cli labs --pages target/lab-pages)
for lab in $labs; do
  IDEMPOTENCY_LAB_BUNDLE="$lab" trunk build "$(grep "/$lab/index.html$" <<<"$pages")" "${release[@]}" --locked \
    --dist "$TRUNK_STAGING_DIR/$lab"
done

# `trunk serve` reloads the page with a script of its own written inline,
# which the page's policy would refuse: a build that is not a release one
# leaves the policy's line out.
[ "${TRUNK_PROFILE:-}" = "release" ] || sed -i '/http-equiv="Content-Security-Policy"/d' "$TRUNK_STAGING_DIR/index.html"

# The page's scripts read the labs from its root element, the opening one first.
sed -i "0,/<html /s//<html data-labs=\"$(echo $labs)\" /" "$TRUNK_STAGING_DIR/index.html"
