// A lab's opening run, written at build time, until the live lab takes its
// place: the first lab's is in the page (view::ack::opening), another
// lab's is put in place by first-paint.js when it has come
// (`<lab>/opening.html`), and either may stand in for a loading notice
// below. first-paint.js has said before the first paint whose it is
// (`data-opening` on the page: "page" or "embed" for the opening link,
// "stale" for anything else, and nothing if it did not run, which counts
// as stale).
const page = document.documentElement;
// What stands where the lab will be, as the page holds it now.
const written = () => [...document.querySelectorAll(".prerendered, .lab-loading")];
const shownCopy = () => written().find((root) => root.checkVisibility?.() ?? root.offsetParent !== null);

// For the opening link the written copy says it is loading; for any other
// a loading notice of the size of the copy it hides stands in its place.
export function hold() {
  const copies = written();
  if (!copies.length) return;
  if (["page", "embed"].includes(page.dataset.opening)) {
    copies.forEach((root) => root.setAttribute("aria-busy", "true"));
    // The theme the link names, as the live lab's picker will say.
    if (page.dataset.theme) for (const picker of document.querySelectorAll(".prerendered .theme-picker select")) picker.value = page.dataset.theme;
    return;
  }
  // Which copy the link would show, as first-paint.js found (if it ran).
  page.dataset.openingFor ??= new URLSearchParams(location.search).getAll("embed").pop() === "1" ? "embed" : "page";
  page.dataset.opening = "stale";
  const copy = copies.find((root) => root.classList.contains(`${page.dataset.openingFor}-opening`)) ?? copies[0];
  const wait = Object.assign(document.createElement("p"), { className: "lab-loading", textContent: "Loading the lab…" });
  wait.setAttribute("role", "status");
  wait.style.minHeight = `${copy.offsetHeight}px`;
  copy.before(wait);
  copies.forEach((root) => root.remove());
}

// An element's name that holds in the written copy and in the live lab:
// its id (the embed's end in "-embed"), else its classes, else its
// parent's name and its tag; with its place among the elements so named.
function named(root, el) {
  const name = (e) =>
    e.id
      ? `#${CSS.escape(e.id.replace(/-(embed|narrow)$/, ""))}`
      : e.classList.length
        ? `${e.tagName}.${[...e.classList].map(CSS.escape).join(".")}`
        : `${name(e.parentElement)} > ${e.tagName}`;
  const selector = name(el);
  return { selector, index: [...root.querySelectorAll(selector)].indexOf(el) };
}
const find = (root, { selector, index }) => root.querySelectorAll(selector)[index];

// What the reader did with the written copy that the live lab keeps: where
// they had scrolled to (the first panel in view), which disclosures they
// opened, and what had the focus.
function state(root) {
  const panel = [...root.querySelectorAll(".panel[aria-labelledby], .results")].find((p) => {
    const top = p.getBoundingClientRect().top;
    return p.checkVisibility() && top >= 0 && top < window.innerHeight;
  });
  return {
    panel: window.scrollY > 0 && panel && { name: panel.getAttribute("aria-labelledby").replace(/-(embed|narrow)$/, ""), top: panel.getBoundingClientRect().top },
    opened: [...root.querySelectorAll("details")].filter((d) => d.open).map((d) => named(root, d)),
    focus: root.contains(document.activeElement) && named(root, document.activeElement),
  };
}

// Puts the live lab in `root` in the written copy's place, as the reader
// left it; `mount` mounts it there. The written copy stays on screen until
// the lab answers its reader (`data-ready` on its root: at its first frame
// for a lab that replays a run, once its worker has answered for the storm
// lab), the lab meanwhile laid out where it will be but not shown
// (styles/opening.css), so the picture never goes blank in between.
export function takeOver(root, mount) {
  const copy = shownCopy();
  if (!copy?.classList.contains("prerendered")) {
    mount();
    written().forEach((r) => r.remove());
    return;
  }
  root.classList.add("arriving");
  mount();
  whenReady(root, () => {
    // (Another lab chosen meanwhile has taken the place.)
    if (!root.isConnected) return;
    const kept = copy.isConnected ? state(copy) : null;
    root.classList.remove("arriving");
    written().forEach((r) => r.remove());
    if (!kept) return;
    for (const d of kept.opened) find(root, d)?.setAttribute("open", "");
    if (kept.focus) find(root, kept.focus)?.focus({ preventScroll: true });
    if (kept.panel) align(root, kept.panel, 4);
  });
}

// Calls `then` once `root` has `data-ready`, or after ten seconds if it
// never says so (a lab whose worker failed is shown as it is).
function whenReady(root, then) {
  if (root.hasAttribute("data-ready")) return then();
  const late = setTimeout(() => {
    seen.disconnect();
    then();
  }, 10_000);
  const seen = new MutationObserver(() => {
    if (!root.hasAttribute("data-ready")) return;
    seen.disconnect();
    clearTimeout(late);
    then();
  });
  seen.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
}

// Scrolls the panel `name` back to `top`, for a few frames (the lab redraws
// its diagram for its box once it has measured it).
function align(root, { name, top }, frames) {
  const at = root.querySelector(`[aria-labelledby="${CSS.escape(name)}"]`);
  if (at) window.scrollBy(0, at.getBoundingClientRect().top - top);
  if (frames > 1) requestAnimationFrame(() => align(root, { name, top }, frames - 1));
}

// The lab could not start: the written copy is all there is, and says so.
export function failed() {
  const copies = written();
  for (const root of copies) {
    root.removeAttribute("aria-busy");
    root.querySelector('[role="status"]')?.remove();
    if (root.classList.contains("lab-loading")) root.remove();
  }
  return copies.find((r) => r.isConnected);
}
