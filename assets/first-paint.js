// Runs before the page's first paint (a classic script, first in the
// head). The page holds the first lab's opening run, written at
// build time (view::ack::opening), as the full page and as the embed. It
// must never pass for another run: a link that opens anything else (other
// settings, another lab, a moment) or a reader whose saved settings the
// page opens with gets it hidden before it is painted, and the host shows
// a loading state in its place. And the lab the link names is asked for at
// once (its module, its WebAssembly and its styles), before the host's
// script runs.
// A block, so that its names stay its own (a classic script's would be the page's).
{
  const THEMES = ["auto", "light", "dark"];
  const page = document.documentElement;
  // The labs, by the registry's ids, the opening one first (written into
  // the page by the build, scripts/labs.sh).
  const LABS = (page.dataset.labs ?? "").split(" ").filter(Boolean);
  const params = new URLSearchParams(location.search);
  // The opening run is the page's, or the embed's (`embed=1`), for a link
  // that names nothing else but the first lab and a theme (the last of a
  // name counts, as in the lab's own reading of links).
  const last = (name) => params.getAll(name).pop();
  const own = [...params].every(([name]) => ["lab", "theme", "embed"].includes(name)) &&
    [undefined, LABS[0]].includes(last("lab")) &&
    [undefined, ...THEMES].includes(last("theme")) &&
    [undefined, "1"].includes(last("embed"));
  // The full page opens with the settings a reader last used, if any
  // (the key is view::ack::opening::SAVED_SETTINGS_KEY); the embed never does.
  let saved = null;
  try {
    saved = localStorage.getItem("idempotency-lab.settings.v1");
  } catch {
    // Storage refused (a sandboxed frame): nothing was saved.
  }
  const embed = last("embed") === "1";
  page.dataset.openingFor = embed ? "embed" : "page";
  page.dataset.opening = own && (embed || saved === null) ? page.dataset.openingFor : "stale";
  if (THEMES.includes(last("theme"))) page.dataset.theme = last("theme");
  const named = last("lab");
  const lab = LABS.includes(named) ? named : LABS[0];
  const ask = (rel, href, as) => {
    const link = Object.assign(document.createElement("link"), { rel, href });
    if (as) link.as = as;
    if (as === "fetch") link.crossOrigin = "anonymous";
    document.head.append(link);
  };
  ask("modulepreload", `./${lab}/${lab}.js`);
  ask("preload", `./${lab}/${lab}_bg.wasm`, "fetch");
  ask("preload", `./${lab}/${lab}.css`, "style");

  // Another lab's opening run, written at build time beside its bundle
  // (`<lab>/opening.html`; the build lists the labs that have one), for a
  // link that names that lab and nothing else but a theme: put in the page
  // in place of the first lab's (or of the loading notice standing in for
  // it, assets/opening.js) once it has come and the page's own markup is
  // parsed (before the page's module scripts run), with the lab's styles
  // after the page's own; not if they fail, nor once the lab has taken the
  // place (nothing then stands in it).
  const openings = (page.dataset.openings ?? "").split(" ");
  const onlyLab =
    [...params].every(([name]) => ["lab", "theme"].includes(name)) && [undefined, ...THEMES].includes(last("theme"));
  if (lab !== LABS[0] && openings.includes(lab) && onlyLab && !embed) {
    const markup = fetch(`./${lab}/opening.html`)
      .then((response) => (response.ok ? response.text() : ""))
      .catch(() => "");
    const parsed = new Promise((resolve) =>
      document.readyState === "loading" ? document.addEventListener("readystatechange", resolve, { once: true }) : resolve(),
    );
    const styled = parsed.then(
      () =>
        new Promise((resolve) => {
          const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `./${lab}/${lab}.css` });
          link.onload = () => resolve(true);
          link.onerror = () => resolve(false);
          document.head.append(link);
        }),
    );
    Promise.all([markup, styled]).then(([html, styles]) => {
      const place = document.querySelector(".prerendered, .lab-loading");
      if (!styles || !html.startsWith('<div class="lab-root prerendered ') || !place) return;
      const others = document.querySelectorAll(".prerendered, .lab-loading");
      place.insertAdjacentHTML("beforebegin", html);
      const written = place.previousElementSibling;
      others.forEach((other) => other.remove());
      written.setAttribute("aria-busy", "true");
      // The theme the link names, as the live lab's picker will say.
      const picker = written.querySelector(".theme-picker select");
      if (picker && page.dataset.theme) picker.value = page.dataset.theme;
      page.dataset.opening = "page";
    });
  }
}
