// <idempotency-lab>: a lab as a custom element, for documentation pages. No
// iframe and no inline script: a page loads this module and writes the
// element.
//
//   <script type="module" src="https://lab.example/idempotency-lab-element.js"></script>
//   <idempotency-lab fault="lose-first" dedup="off" at="4.05" compact width="800" height="500"></idempotency-lab>
//
// Attributes are the link's names and values (`compact` is the link's
// `embed=1`; `lab` picks the lab, the lost-acknowledgement lab when left
// out); a bad value gets the same notice a bad link gets. `width` and
// `height` (pixels) size the element's box, as the Embed dialog writes
// them; a page may size it with its own CSS instead. In a box the page
// gives it, the compact lab fits: its diagram draws itself to the room the
// box leaves. Each element renders into its own open shadow root, with its
// own state, ids and live region, and the lab's styles stay inside it.
// The lab an element shows when it names none, or one with no bundle here
// (whose notice then names what was wrong). The others are found by their
// id, as the host page finds them: a bundle in the folder of that name.
const FIRST = "ack";
const ID = /^[a-z][a-z0-9-]{0,31}$/;
const SHARED_STYLES = ["base.css", "layout.css", "panels.css", "timeline.css", "compare.css"];
// Attributes that belong to the host page, not to the lab.
const HOST_ATTRIBUTES = new Set(["id", "class", "style", "slot", "title", "lang", "dir", "hidden", "tabindex", "part", "width", "height"]);

// Each lab's module, fetched and compiled once for every element of it.
const ready = new Map();

function start(lab) {
  if (!ready.has(lab)) {
    ready.set(
      lab,
      import(new URL(`${lab}/${lab}.js`, import.meta.url).href).then(async (module) => {
        await module.default({ module_or_path: new URL(`${lab}/${lab}_bg.wasm`, import.meta.url) });
        return module;
      }),
    );
  }
  return ready.get(lab);
}

/** A size attribute in pixels, as CSS; none for anything else. */
function pixels(value) {
  return /^\d{1,5}$/.test(value ?? "") ? `${value}px` : null;
}

/** The element's attributes as a link's query string. */
function queryOf(element) {
  const params = new URLSearchParams();
  for (const { name, value } of element.attributes) {
    if (HOST_ATTRIBUTES.has(name) || name.startsWith("aria-") || name.startsWith("data-")) continue;
    if (name === "compact") params.set("embed", value === "false" ? "0" : "1");
    else params.append(name, value);
  }
  return params.toString();
}

class IdempotencyLabElement extends HTMLElement {
  connectedCallback() {
    // Moving an element in the page keeps what it shows.
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    const named = this.getAttribute("lab") ?? "";
    const lab = ID.test(named) ? named : FIRST;
    // The page's size for the box, through the CSSOM (allowed by a strict
    // Content-Security-Policy, where a style attribute is not).
    const [width, height] = [pixels(this.getAttribute("width")), pixels(this.getAttribute("height"))];
    if (width) {
      this.style.width = width;
      this.style.maxWidth = "100%";
    }
    if (height) this.style.height = height;
    const styles = (files) =>
      files.map((file) => {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = new URL(file, import.meta.url).href;
        return link;
      });
    const mount = document.createElement("div");
    mount.className = "il-root";
    root.append(...styles([...SHARED_STYLES, `${lab}/${lab}.css`, "element.css"]), mount);
    // A box the page gave (with the height attribute or its own CSS): the
    // lab fits it, rather than growing past it.
    const fit = () => {
      if (height || this.scrollHeight > this.clientHeight + 1) mount.classList.add("fit");
    };
    new ResizeObserver(fit).observe(mount);
    // A lab with no bundle here is the first lab's to explain.
    const started = start(lab).then(
      (module) => [lab, module],
      (error) => (lab === FIRST ? Promise.reject(error) : start(FIRST).then((module) => [FIRST, module])),
    );
    started
      .then(([shown, module]) => {
        if (shown !== lab) mount.before(...styles([`${shown}/${shown}.css`, "element.css"]));
        module.mount_element(this, mount, queryOf(this), new URL("./", import.meta.url).href);
      })
      .catch((error) => {
        const message = document.createElement("p");
        message.className = "boot-error";
        message.textContent =
          "Idempotency Lab could not start in this browser (" + String(error) + "). It needs WebAssembly.";
        mount.replaceChildren(message);
      });
  }
}

if (!customElements.get("idempotency-lab")) {
  customElements.define("idempotency-lab", IdempotencyLabElement);
}
