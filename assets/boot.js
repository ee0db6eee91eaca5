// Hosts every lab on this page. Each lab is a WebAssembly bundle of its own
// that mounts into a root element here; the opening lab's bundle is the
// only one the page loads at first. Kept in its own file so the page needs
// no inline script and runs under a strict Content-Security-Policy.
//
// A lab's code is fetched and compiled when the pointer or the focus
// reaches the Lab switcher, and the lab is mounted and drawn once out of
// sight. A lab set aside stays in the page, hidden with `content-visibility:
// hidden`, which keeps its layout: turning to it again is a class change,
// and the browser draws it from what it kept instead of laying it out
// anew. Each lab keeps its state while set aside. The root element's
// `data-lab` names the shown lab: a lab set aside neither answers keys nor
// writes the address nor sets the theme. Labs share some ids (settings
// fields, the switcher's): in a lab set aside, every id another lab also
// has is parked under a prefix, now and whenever its page parts change,
// so no id is in the page twice and the shown lab's labels and references
// find its own elements.

// Each lab's bundle and styles, where its files are (for its worker),
// the page's title while it is shown (as on the lab's own page), and its
// whole build, if its bundle is an opening build.
//
// The first lab and the risk lab come in two builds each. The page loads
// the opening build, which carries what the lab shows at first; the whole
// build (the first lab's run B, presenter mode, checkpoints on screen,
// guided experiments and crash matrix; the risk lab's run B) is loaded
// when the reader first reaches for one of those, and takes its place in
// one step, started from its link.
const LABS = {
  ack: {
    module: "./idempotency-lab.js",
    styles: [],
    title: document.title,
    whole: { module: "./full/idempotency-lab.js", styles: ["./full/whole.css", "./full/compare.css"] },
  },
  risk: {
    module: "./risk/risk-page.js",
    styles: ["./risk/risk.css"],
    base: "risk/",
    title: "Idempotency Lab: the risk-review incident",
    whole: { module: "./risk/full/risk-page.js", styles: ["./risk/full/compare.css"] },
  },
  storms: {
    module: "./storms/storms-page.js",
    styles: ["./storms/storm.css"],
    base: "storms/",
    title: "Idempotency Lab: retry storms",
  },
};

const page = document.documentElement;
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
// lab -> its root element (the labs find theirs here), shown, set aside,
// or not yet in the page while its lab mounts
const roots = {};
const ready = new Map(); // lab -> promise of its root, once its app is mounted
const queries = new Map(); // lab -> its address query when it was set aside
const places = new Map(); // lab -> where the reader was in it then
const modules = new Map(); // lab -> its bundle's module, once loaded
const wholes = new Map(); // lab -> its whole build's root, from when it starts loading
let displayed = null; // the shown lab
let generation = 0; // the latest request to show a lab; older ones give way

// The lab a query names (the last `lab=` wins, as in the labs' own
// parsers); anything else is the first lab's to read and explain.
function labIn(search) {
  const named = new URLSearchParams(search).getAll("lab").pop();
  return named !== undefined && has(LABS, named) ? named : "ack";
}

function say(text) {
  const message = document.createElement("p");
  message.className = "boot-error";
  message.setAttribute("role", "alert");
  message.textContent = text;
  document.body.append(message);
}

function fail(error) {
  say("Idempotency Lab could not start in this browser (" + String(error) + "). It needs WebAssembly.");
}

// A stylesheet, and a promise that settles once it has loaded (or failed:
// the lab still works unstyled rather than not at all).
function stylesheet(href) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  document.head.append(link);
  return loaded;
}

// In a lab set aside, an id another lab also has is prefixed with
// "parked-" and the lab's name (so parked ids differ too), and a label
// naming one is parked under "unlabelled-", so that it labels nothing:
// neither another lab's control nor its own hidden one.
const parked = (root) => "parked-" + root.dataset.labRoot + "-";
const UNLABELLED = "unlabelled-";

// Parks, in every lab set aside, the ids another lab has, and gives the
// shown lab all of its own back.
function ownIds() {
  const all = Object.values(roots);
  if (all.length < 2) return;
  const parts = all.map((root) => ({
    root,
    prefix: parked(root),
    named: Array.from(root.querySelectorAll("[id]")),
    labels: Array.from(root.querySelectorAll("label[for]")),
  }));
  const plain = (part, id) => (id.startsWith(part.prefix) ? id.slice(part.prefix.length) : id);
  const count = new Map();
  for (const part of parts) {
    for (const id of new Set(part.named.map((el) => plain(part, el.id)))) count.set(id, (count.get(id) ?? 0) + 1);
  }
  for (const part of parts) {
    const shown = part.root === roots[displayed];
    for (const el of part.named) {
      const id = plain(part, el.id);
      const want = shown || count.get(id) < 2 ? id : part.prefix + id;
      if (el.id !== want) el.id = want;
    }
    for (const label of part.labels) {
      const id = label.htmlFor.startsWith(UNLABELLED) ? label.htmlFor.slice(UNLABELLED.length) : label.htmlFor;
      const want = shown || count.get(id) < 2 ? id : UNLABELLED + id;
      if (label.htmlFor !== want) label.htmlFor = want;
    }
  }
  // What this changed needs no second look.
  watcher.takeRecords();
}

// Page parts a lab adds later (a settings group that appears, a dialog's
// contents) are parked the same way, before anything can look them up.
let pending = false;
const named = (node) => node instanceof Element && (node.id || node.querySelector("[id], label[for]"));
const watcher = new MutationObserver((records) => {
  if (pending || !records.some((r) => r.type === "attributes" || Array.from(r.addedNodes).some(named))) return;
  pending = true;
  queueMicrotask(() => {
    pending = false;
    ownIds();
  });
});
function watch(root) {
  watcher.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["id", "for"] });
}

// Puts a lab made ready into the page out of sight: drawn once, hidden
// and out of the flow, then set aside, keeping what was drawn.
function setAside(lab, root) {
  if (displayed === lab) return;
  ownIds();
  watch(root);
  root.classList.add("lab-drawn-unseen");
  document.body.append(root);
  requestAnimationFrame(() =>
    setTimeout(() => {
      root.classList.remove("lab-drawn-unseen");
      if (displayed !== lab) root.classList.add("lab-aside");
    }),
  );
}

// Loads `lab`'s bundle and styles and mounts its app into a root of its
// own, started from `query`; the root is shown in the page if `inPage`,
// and otherwise set aside once mounted. The app mounts once its styles
// are in, so it never shows unstyled.
function prepare(lab, query, inPage) {
  if (!ready.has(lab)) {
    const spec = LABS[lab];
    const styles = spec.styles.map(stylesheet);
    const root = document.createElement("div");
    root.className = "lab-root";
    root.dataset.labRoot = lab;
    root.dataset.query = query;
    if (spec.base) root.dataset.base = spec.base;
    roots[lab] = root;
    if (inPage) {
      document.body.append(root);
      displayed = lab;
      watch(root);
    }
    const mounted = Promise.all([import(spec.module), ...styles])
      .then(([module]) => {
        modules.set(lab, module);
        return module.default();
      })
      .then(() => {
        if (!inPage) setAside(lab, root);
        return root;
      });
    // A lab that failed to load may be tried again.
    mounted.catch(() => ready.delete(lab));
    ready.set(lab, mounted);
  }
  return ready.get(lab);
}

// Where the reader is in the shown lab: the first panel that starts in
// view, and how far it is from the top of the window. (A scroll offset
// alone would not do: panels out of view are laid out at a placeholder
// size, so the same offset lands elsewhere once the lab is back.)
function place(root = roots[displayed]) {
  for (const panel of root.querySelectorAll(".panel")) {
    const box = panel.getBoundingClientRect();
    if (box.top >= 0 && box.top < window.innerHeight) return { panel, top: box.top };
  }
  return null;
}

// Shows `lab`. The first lab mounts in the page; any other is made ready
// out of sight and then takes the shown lab's place in one step, while the
// shown lab stays usable until then. `query` starts a lab that is not
// ready yet; `push` adds a history entry for the switch (Back and Forward
// have moved the address already).
async function show(lab, query, push) {
  const mine = ++generation;
  // A hand-over to a lab's whole build finishes first.
  if (handing) await handing;
  if (mine !== generation) return;
  if (!displayed) {
    page.dataset.lab = lab;
    document.title = LABS[lab].title;
    await prepare(lab, query, true);
    return;
  }
  if (lab === displayed) return;
  let root;
  try {
    root = await prepare(lab, query, false);
  } catch (error) {
    if (mine === generation) {
      say("The " + lab + " lab could not be loaded (" + String(error) + "). The lab on screen still works.");
    }
    return;
  }
  if (mine !== generation) return;
  if (push) queries.set(displayed, location.search);
  places.set(displayed, window.scrollY > 0 ? place() : null);
  const leaving = roots[displayed];
  const hadFocus = leaving.contains(document.activeElement);
  // Nothing of the lab set aside keeps the focus or stays open over the
  // page (a modal dialog would leave the page inert behind it).
  if (hadFocus) document.activeElement.blur();
  for (const dialog of leaving.querySelectorAll("dialog[open]")) dialog.close();
  // The address first, while the control that asked for the switch is
  // still on screen: a browser that sees the control it last saw changed
  // vanish in a navigation may take that for a form sent and read every
  // form control in the page.
  if (push) history.pushState(null, "", location.pathname + (queries.get(lab) ?? "?" + query));
  page.dataset.lab = lab;
  displayed = lab;
  ownIds();
  root.classList.remove("lab-aside", "lab-drawn-unseen");
  leaving.classList.add("lab-aside");
  document.title = LABS[lab].title;
  const back = places.get(lab);
  if (back && back.panel.isConnected) window.scrollBy(0, back.panel.getBoundingClientRect().top - back.top);
  else window.scrollTo(0, 0);
  // The lab takes the theme the reader had, writes its own address and
  // measures its layout again (scroll positions inside it among them).
  window.dispatchEvent(new Event("idempotency-lab:shown"));
  // Whoever switched from the keyboard keeps their place: the new lab's
  // switcher takes the focus once the lab is on screen (focusing costs a
  // frame's worth of work of its own).
  const switcher = root.querySelector("#lab-switch");
  if (hadFocus && switcher) {
    requestAnimationFrame(() => setTimeout(() => displayed === lab && switcher.focus()));
  }
}

// The element in `root` that stands where `element` stood in the lab it
// replaces: the one with the same id, or else the same kind of element
// with the same text (a button), if there is one.
function counterpart(element, root) {
  const same = element.id && root.querySelector("#" + CSS.escape(element.id));
  if (same) return same;
  const text = element.textContent.trim();
  return Array.from(root.querySelectorAll(element.localName)).find((e) => e.textContent.trim() === text) ?? null;
}

// Puts `lab`'s whole build in place of its opening build, started from
// `query` (the opening build's link), told `intent` (what the reader
// asked for that the link does not say) and given the `notices` on
// screen. Asked again before its module has loaded, the latest of each
// win.
//
// While it loads, the opening build takes no clicks (`inert`) and no keys
// (`handing` holds them back): what they did would be lost with it. A
// switch to another lab waits until the whole build is in place. Then the
// opening build is unmounted and removed, and the reader stays where they
// were: the same panel at the same height in the window, the focus on the
// same control.
let handing = null;
window.addEventListener(
  "keydown",
  (event) => {
    if (handing) event.stopImmediatePropagation();
  },
  true,
);
function loadWhole(lab, query, intent, notices) {
  const spec = has(LABS, lab) ? LABS[lab].whole : undefined;
  if (!spec) return;
  const tell = (root) => {
    root.dataset.query = query;
    if (intent) root.dataset.intent = intent;
    root.dataset.notices = notices ?? "";
  };
  const started = wholes.get(lab);
  if (started) {
    if (!started.isConnected) tell(started);
    return;
  }
  const opening = roots[lab];
  if (!opening || !modules.has(lab)) return;
  const focused = opening.contains(document.activeElement) ? document.activeElement : null;
  opening.inert = true;
  opening.setAttribute("aria-busy", "true");
  const whole = document.createElement("div");
  whole.className = "lab-root lab-drawn-unseen";
  whole.dataset.labRoot = lab;
  if (opening.dataset.base) whole.dataset.base = opening.dataset.base;
  tell(whole);
  wholes.set(lab, whole);
  const mine = Promise.all([import(spec.module), ...spec.styles.map(stylesheet)])
    .then(([module]) => {
      opening.after(whole);
      roots[lab] = whole;
      return module.default().then(() => module);
    })
    .then((module) => {
      const here = window.scrollY > 0 ? place(opening) : null;
      modules.get(lab).unmount?.();
      modules.set(lab, module);
      opening.remove();
      ready.set(lab, Promise.resolve(whole));
      whole.classList.remove("lab-drawn-unseen");
      watch(whole);
      // Another lab may have been shown meanwhile (by Back, say): this one
      // then waits set aside.
      if (displayed !== lab) {
        whole.classList.add("lab-aside");
        ownIds();
        return;
      }
      ownIds();
      const named = here && here.panel.getAttribute("aria-labelledby");
      const same = named && whole.querySelector(`.panel[aria-labelledby="${CSS.escape(named)}"]`);
      if (same) window.scrollBy(0, same.getBoundingClientRect().top - here.top);
      const target = focused && counterpart(focused, whole);
      if (target) target.focus();
      window.dispatchEvent(new Event("idempotency-lab:shown"));
    })
    .catch((error) => {
      whole.remove();
      wholes.delete(lab);
      roots[lab] = opening;
      opening.inert = false;
      opening.removeAttribute("aria-busy");
      if (focused) focused.focus();
      say(
        opening.childElementCount > 0
          ? "The rest of the lab could not be loaded (" + String(error) + "). The lab on screen still works."
          : "The lab this link opens could not be loaded (" + String(error) + "). Open the page without the link's second run (b., compare, fork), presenter mode or checkpoints to use the lab.",
      );
    })
    .finally(() => {
      // A hand-over of another lab that started since keeps its hold.
      if (handing === mine) handing = null;
    });
  handing = mine;
}

// The other labs, made ready when the reader reaches for the switcher.
function reach(event) {
  if (!(event.target instanceof Element) || !event.target.closest("#lab-switch")) return;
  const theme = page.dataset.theme;
  for (const lab of Object.keys(LABS)) {
    if (ready.has(lab)) continue;
    prepare(lab, "lab=" + lab + (theme && theme !== "auto" ? "&theme=" + theme : ""), false).catch(() => {});
  }
}
document.addEventListener("pointerover", reach);
document.addEventListener("focusin", reach);

// Back and forward move between labs too.
window.addEventListener("popstate", () => {
  show(labIn(location.search), location.search.slice(1), false).catch(fail);
});

// The Lab switcher calls this.
window.idempotencyLab = {
  roots,
  switchTo(lab, query) {
    if (has(LABS, lab)) show(lab, query, true).catch(fail);
  },
  loadWhole,
};

show(labIn(location.search), location.search.slice(1), false).catch(fail);

// A module (the page loads it as one): its names are its own, and the
// minifier may shorten them.
export {};
