// Loads the WebAssembly app. Kept in its own file so the page needs no
// inline script and runs under a strict Content-Security-Policy.
import init from "./idempotency-lab.js";

init().catch((error) => {
  const message = document.createElement("p");
  message.className = "boot-error";
  message.textContent =
    "Idempotency Lab could not start in this browser (" + String(error) + "). It needs WebAssembly.";
  document.body.append(message);
});
