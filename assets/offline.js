// Registers the service worker that keeps the labs working offline after
// one visit (sw.js), and offers to reload when a new version has arrived
// in the background. Kept in its own file for the strict CSP.
// One notice, whose Reload starts the build waiting when it is pressed.
function offerReload(registration) {
  if (document.querySelector(".update-notice")) return;
  const notice = Object.assign(document.createElement("p"), { className: "update-notice" });
  notice.setAttribute("role", "status");
  const reload = Object.assign(document.createElement("button"), { type: "button", textContent: "Reload" });
  reload.addEventListener("click", () => registration.waiting?.postMessage("take-over"));
  notice.append("A new version of the lab is ready. ", reload);
  document.body.append(notice);
}

// Once a lab is on screen (its downloads done) and the page is idle: the
// offline copy never competes with the first visit's own files.
function whenLabShown(then) {
  const shown = () => document.documentElement.dataset.lab;
  if (shown()) return then();
  const watch = new MutationObserver(() => shown() && (watch.disconnect(), then()));
  watch.observe(document.documentElement, { attributes: true, attributeFilter: ["data-lab"] });
}

function register() {
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !document.querySelector(".update-notice")) return;
    reloading = true;
    location.reload();
  });
  navigator.serviceWorker
    .register("sw.js")
    .then((registration) => {
      if (registration.waiting && navigator.serviceWorker.controller) offerReload(registration);
      registration.addEventListener("updatefound", () => {
        const next = registration.installing;
        next?.addEventListener("statechange", () => {
          if (next.state === "installed" && navigator.serviceWorker.controller) offerReload(registration);
        });
      });
    })
    // Without a service worker the lab still works, online.
    .catch(() => {});
}

if ("serviceWorker" in navigator) whenLabShown(() => (window.requestIdleCallback ?? setTimeout)(register));
