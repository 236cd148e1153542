// The calculator's service worker (docs/web.md, "Calculator"): it keeps /calc and the files it needs,
// so the page opens without a network. Network first (an update shows as soon as the server is
// reachable), the cache when the fetch fails. The API is never cached: scoring needs the server, and
// the page says so when it is offline.
const CACHE = "tjmj-calc-v1";
const FILES = ["/calc", "/static/calc.js", "/static/calckeys.js", "/static/app.css", "/static/i18n.js",
  "/static/registry.js", "/static/family.js", "/static/render.js", "/static/icon.svg", "/tiles/sprite.svg",
  "/tiles/5z.svg?wild=1", "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("tjmj-calc-") && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  // only what the calculator keeps: every other page and the API go to the network as usual
  const page = url.pathname === "/calc"; // with any query (?lang=en): the one page
  if (req.method !== "GET" || url.origin !== location.origin || !(page || FILES.includes(url.pathname + url.search))) return;
  event.respondWith(fetch(req).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(page ? "/calc" : req, copy));
    }
    return res;
  }).catch(() => caches.match(page ? "/calc" : req, { ignoreVary: true }).then((hit) => hit || Response.error())));
});
