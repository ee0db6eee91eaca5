// <idempotency-lab>: the lost-acknowledgement lab as a custom element, for
// documentation pages. No iframe and no inline script: a page loads this
// module and writes the element.
//
//   <script type="module" src="https://lab.example/idempotency-lab-element.js"></script>
//   <idempotency-lab fault="lose-first" dedup="off" at="4.05" compact></idempotency-lab>
//
// Attributes are the link's names and values (`compact` is the link's
// `embed=1`); a bad value gets the same notice a bad link gets. Each
// element renders into its own open shadow root, with its own state, ids
// and live region, and the lab's styles stay inside it.
import init, { mount_element } from "./ack/ack.js";

const STYLES = ["base.css", "layout.css", "panels.css", "timeline.css", "compare.css", "ack/ack.css", "element.css"];
// Attributes that belong to the host page, not to the lab.
const HOST_ATTRIBUTES = new Set(["id", "class", "style", "slot", "title", "lang", "dir", "hidden", "tabindex", "part"]);

let ready = null;

function start() {
  // The WebAssembly module is fetched and compiled once for every element.
  ready ??= init({ module_or_path: new URL("ack/ack_bg.wasm", import.meta.url) });
  return ready;
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
    for (const file of STYLES) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL(file, import.meta.url).href;
      root.append(link);
    }
    const mount = document.createElement("div");
    mount.className = "il-root";
    root.append(mount);
    start()
      .then(() => mount_element(this, mount, queryOf(this), new URL("./", import.meta.url).href))
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
