// Runs before the page's first paint (a classic script in the head, after
// the styles). The page holds the first lab's opening run, written at
// build time (view::ack::opening), as the full page and as the embed. It
// must never pass for another run: a link that opens anything else (other
// settings, another lab, a moment) or a reader whose saved settings the
// page opens with gets it hidden before it is painted, and the host shows
// a loading state in its place. And the lab the link names is asked for at
// once (its module, its WebAssembly and its styles), before the host's
// script runs.
// A block, so that its names stay its own (a classic script's would be the page's).
{
  const LABS = ["ack", "risk", "storms"]; // as in boot.js (a test checks both)
  const THEMES = ["auto", "light", "dark"];
  const page = document.documentElement;
  const params = new URLSearchParams(location.search);
  // The opening run is the page's, or the embed's (`embed=1`), for a link
  // that names nothing else but the first lab and a theme.
  const own = [...params].every(
    ([name, value]) =>
      (name === "lab" && value === LABS[0]) || (name === "theme" && THEMES.includes(value)) || (name === "embed" && value === "1"),
  );
  // The full page opens with the settings a reader last used, if any
  // (the key is view::ack::opening::SAVED_SETTINGS_KEY); the embed never does.
  let saved = null;
  try {
    saved = localStorage.getItem("idempotency-lab.settings.v1");
  } catch {
    // Storage refused (a sandboxed frame): nothing was saved.
  }
  if (!own || (saved !== null && !params.has("embed"))) page.dataset.opening = "stale";
  else if (params.has("embed")) page.dataset.opening = "embed";
  if (own && params.has("theme")) page.dataset.theme = params.get("theme");
  const named = params.getAll("lab").pop();
  const lab = LABS.includes(named) ? named : LABS[0];
  const ask = (rel, href, as) => {
    const link = Object.assign(document.createElement("link"), { rel, href });
    if (as) link.as = as;
    if (as === "fetch") link.crossOrigin = "anonymous";
    document.head.append(link);
  };
  ask("modulepreload", `./${lab}/${lab}.js`);
  ask("preload", `./${lab}/${lab}_bg.wasm`, "fetch");
  if (!document.querySelector(`link[rel="stylesheet"][href="./${lab}/${lab}.css"]`)) ask("preload", `./${lab}/${lab}.css`, "style");
}
