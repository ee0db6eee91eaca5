// A lab's own folder: the page that hosts every lab loads the lab's
// bundle from here. Opened directly, this page sends the reader to that
// host with the same link; the page's own query (`?lab=risk`) comes first,
// since the link may name another lab and the last `lab=` wins. Kept in its
// own file so the page needs no inline script and runs under a strict
// Content-Security-Policy.
const [path, own = ""] = document.body.dataset.forward.split("?");
const query = [own, location.search.slice(1)].filter(Boolean).join("&");
location.replace(path + (query ? "?" + query : "") + location.hash);
