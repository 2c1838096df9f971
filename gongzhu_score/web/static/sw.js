"use strict";
/* The page's service worker: it keeps the page's shell (the page, its script, style, icons and
   manifest) and the last answer of GET api/state for each match, so that with the server gone
   a reload still shows the last standings; the page then says they are read-only (app.js).
   Everything else (every change, the live feed) goes to the server and fails without it.
   Browsers run a service worker only in a secure context: http://127.0.0.1 and localhost, or
   https; on a LAN address over plain http the page keeps its last state itself (app.js). */

const CACHE = "gongzhu-v3";

self.addEventListener("install", (event) => {
  const key = new URL(self.location).searchParams.get("key");
  const q = `?key=${encodeURIComponent(key)}`;
  const shell = ["./", "static/app.js", "static/style.css", "manifest.webmanifest",
    "static/icon.svg", "static/icon-192.png"].map((p) => (p === "./" ? `./${q}` : p + q));
  const keep = async () => {
    const c = await caches.open(CACHE);
    for (const path of shell) {
      const request = new Request(new URL(path, self.location).href);
      const answer = await fetch(request);
      if (answer.ok) await c.put(cacheKey(request), answer);
    }
  };
  event.waitUntil(keep().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The shell and the state: the network first (always fresh), the copy kept when it fails.
const KEPT = ["/", "/api/state", "/static/app.js", "/static/style.css", "/manifest.webmanifest",
  "/static/icon.svg", "/static/icon-192.png"];
function kept(request) {
  const url = new URL(request.url);
  const hand = /\/api\/hands\/\d+$/.test(url.pathname); // (a hand's detail, as last seen)
  return url.origin === self.location.origin && (KEPT.includes(url.pathname) || hand);
}

// A cached copy is found by its path and the match asked for (the language aside).
function cacheKey(request) {
  const url = new URL(request.url);
  // (the page's shell is one whatever match its address names; the state is per match)
  const match = url.pathname.includes("/api/") ? url.searchParams.get("match") || "" : "";
  const key = url.searchParams.get("key") || "";
  return `${url.origin}${url.pathname}?key=${encodeURIComponent(key)}&match=${encodeURIComponent(match)}`;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !kept(request)) return;
  event.respondWith(
    fetch(request)
      .then((answer) => {
        if (answer.ok) {
          const copy = answer.clone();
          caches.open(CACHE).then((c) => c.put(cacheKey(request), copy));
        }
        return answer;
      })
      .catch(() =>
        caches.open(CACHE).then(async (c) => {
          const found = await c.match(cacheKey(request));
          if (!found) return Response.error();
          // Tell the page this answer is the kept copy, not the server's.
          const headers = new Headers(found.headers);
          headers.set("X-Gongzhu-Kept", "1");
          return new Response(await found.blob(), { status: found.status, headers });
        }),
      ),
  );
});
