// Loads the WebAssembly app of a lab's own page: the module the page
// preloads. A page whose body names another address (`data-forward`)
// sends the reader there instead, with the same query after its own. Kept in its own
// file so the page needs no inline script and runs under a strict
// Content-Security-Policy.
const forward = document.body.dataset.forward;
const module = document.querySelector('link[rel="modulepreload"]')?.href;

if (forward !== undefined) {
  // The forward's own query (`?lab=risk`) comes first: the link's may
  // name another lab, and the last `lab=` wins.
  const [path, own = ""] = forward.split("?");
  const query = [own, location.search.slice(1)].filter(Boolean).join("&");
  location.replace(path + (query ? "?" + query : "") + location.hash);
}
else import(module)
  .then((app) => app.default())
  .catch((error) => {
    const message = document.createElement("p");
    message.className = "boot-error";
    message.textContent =
      "Idempotency Lab could not start in this browser (" + String(error) + "). It needs WebAssembly.";
    document.body.append(message);
  });
