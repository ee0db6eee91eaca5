// The page that hosts every lab: it mounts the bundle (`<lab>/<lab>.js`,
// its WebAssembly and `<lab>/<lab>.css`) of the lab the link names. The
// Lab switcher unmounts the lab shown and mounts the chosen one in its
// place; settings, playhead and theme travel in the address, so Back
// returns to the lab before as it was. Bundles are fetched when the pointer
// or the focus reaches the switcher. (Performance marks say when a module
// was ready and mounting began and ended, for `make bench`.)

import { failed, hold, takeOver } from "./opening.js";

const page = document.documentElement;
// The labs, by the registry's ids (src/view/labs.rs), the opening one
// first: the build writes them into the page (scripts/labs.sh).
const LABS = (page.dataset.labs ?? "").split(" ").filter(Boolean);
const loaded = new Map(); // lab -> promise of its module, ready to mount
const left = new Map(); // lab -> where the reader left it: { search, place }
let shown = null; // { lab, module, root }
let generation = 0; // the latest request to show a lab; older ones give way

// The lab a query names (the last `lab=` wins, as in the labs' own
// parsers); anything else is the first lab's to read and explain.
function labIn(search) {
  const named = new URLSearchParams(search).getAll("lab").pop();
  return LABS.includes(named) ? named : LABS[0];
}

function say(text, before) {
  const message = Object.assign(document.createElement("p"), { className: "boot-error", textContent: text });
  message.setAttribute("role", "alert");
  if (before) before.before(message);
  else document.body.append(message);
}

// A stylesheet, and a promise that settles once it has loaded or failed.
function stylesheet(href) {
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  document.head.append(link);
  return new Promise((resolve) => (link.onload = link.onerror = resolve));
}

// Fetches and starts `lab`'s bundle and styles once (a failure may be tried
// again): all asked for at once, the WebAssembly compiled as it streams.
function load(lab) {
  if (!loaded.has(lab)) {
    const wasm = fetch(`./${lab}/${lab}_bg.wasm`);
    wasm.catch(() => {}); // a failure is reported where the module awaits it
    const module = import(`./${lab}/${lab}.js`).then((m) =>
      m.default({ module_or_path: wasm }).then(() => (performance.mark(`idempotency-lab:ready:${lab}`), m)),
    );
    const loading = Promise.all([module, stylesheet(`./${lab}/${lab}.css`)]).then(([m]) => m);
    loading.catch(() => loaded.delete(lab));
    loaded.set(lab, loading);
  }
  return loaded.get(lab);
}

// `search` with the reader's theme in it.
function withTheme(search) {
  const params = new URLSearchParams(search);
  const theme = page.dataset.theme;
  if (theme && theme !== "auto") params.set("theme", theme);
  else params.delete("theme");
  const query = params.toString();
  return query ? "?" + query : "";
}

// Where the reader is in the lab on screen: the panel at the top of the
// window (the first not wholly above it, which may have begun above it)
// and how far its top is from the window's. (A scroll offset alone would
// not do: panels out of view are laid out at a placeholder size, so the
// same offset lands elsewhere in a lab drawn anew.)
function place(root) {
  // The stage's panels first: a column of settings beside them may have
  // begun far above the window and still be in it.
  const panels = [...root.querySelectorAll(".stage .panel[aria-labelledby]"), ...root.querySelectorAll(".panel[aria-labelledby]")];
  for (const panel of panels) {
    const { top, bottom } = panel.getBoundingClientRect();
    if (bottom > 0) return { name: panel.getAttribute("aria-labelledby"), top };
  }
  return null;
}

// Scrolls `root` back to `place` as its panels are drawn: frame after
// frame for two seconds (a lab builds the panels below its first screen
// in stages, and a panel that fits itself to its box changes height after
// its first frame), until the reader scrolls, clicks or types.
function restore(root, at) {
  if (!at) return window.scrollTo(0, 0);
  const until = performance.now() + 2000;
  let stopped = false;
  const stop = () => (stopped = true);
  const acts = ["wheel", "touchstart", "keydown", "pointerdown"];
  for (const act of acts) window.addEventListener(act, stop, { once: true, capture: true, passive: true });
  const frame = (now) => {
    if (stopped || now > until || !root.isConnected) {
      for (const act of acts) window.removeEventListener(act, stop, { capture: true });
      return;
    }
    // (A panel built in a later stage is not there yet.)
    const panel = root.querySelector(`.panel[aria-labelledby="${CSS.escape(at.name)}"]`);
    const off = panel ? panel.getBoundingClientRect().top - at.top : 0;
    if (Math.abs(off) > 1) window.scrollBy(0, off);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

// Until the first lab starts: the opening run, or a loading notice (opening.js).
hold();

// Shows `lab` in place of the lab on screen. `push` adds a history entry
// for the switch (Back and Forward have moved the address already);
// `search`, if given, is the address to show it at (a lesson's next step,
// which may be the lab on screen again).
async function show(lab, push, search) {
  const mine = ++generation;
  // Back and Forward have put the address of the lab to show already (the
  // lab on screen, stopping, may write its own over it).
  const arrived = location.search;
  // Another lab chosen: the one on screen stops playing now, at the moment
  // the reader left it, while the other one loads.
  if (shown && shown.lab !== lab) shown.module.pause?.();
  let module;
  try {
    module = await load(lab);
  } catch (error) {
    if (mine !== generation) return;
    if (!shown) return say(`Idempotency Lab could not start in this browser (${error}). It needs WebAssembly.`, failed());
    say(`The ${lab} lab could not be loaded (${error}). The lab on screen still works.`);
    const switcher = shown.root.querySelector("#lab-switch");
    if (switcher) switcher.value = shown.lab;
    return;
  }
  if (mine !== generation || (shown?.lab === lab && search === undefined)) return;
  const first = !shown;
  const hadFocus = !!shown?.root.contains(document.activeElement);
  if (shown) {
    const at = window.scrollY > 0 ? place(shown.root) : null;
    // Unmounting writes the lab's last moment into the address: its own,
    // which after Back or Forward goes back to the lab arriving.
    shown.module.unmount();
    left.set(shown.lab, { search: location.search, place: at });
    if (!push) history.replaceState(null, "", location.pathname + arrived);
    shown.root.remove();
  }
  const back = left.get(lab);
  if (push) history.pushState(null, "", location.pathname + withTheme(search ?? back?.search ?? `?lab=${lab}`));
  const root = Object.assign(document.createElement("div"), { className: "lab-root" });
  document.body.append(root);
  page.dataset.lab = lab;
  shown = { lab, module, root };
  performance.mark("idempotency-lab:mount");
  // The first lab mounted takes the opening run's place as the reader left it.
  takeOver(root, () => module.mount(root, location.search, `${lab}/`));
  performance.mark("idempotency-lab:mounted");
  if (!first) restore(root, push && search !== undefined ? null : back?.place);
  // Whoever switched from the keyboard keeps their place: the new lab's
  // switcher takes the focus.
  if (hadFocus) root.querySelector("#lab-switch")?.focus();
}

// The other labs, fetched when the reader reaches for the switcher.
function reach(event) {
  // (Not the opening run's switcher, which waits for the first lab.)
  if (event.target instanceof Element && event.target.closest("#lab-switch") && !event.target.closest(".prerendered")) {
    for (const lab of LABS) load(lab).catch(() => {});
  }
}
document.addEventListener("pointerover", reach);
document.addEventListener("focusin", reach);

// Back and Forward move between labs, and between a lesson's steps.
window.addEventListener("popstate", () => show(labIn(location.search), false, location.search));

// The Lab switcher calls this, and a lesson moving to its next step.
window.idempotencyLab = { switchTo: (lab, search) => LABS.includes(lab) && show(lab, true, search) };

show(labIn(location.search), false);

export {}; // a module: its names are its own, and the minifier may shorten them
