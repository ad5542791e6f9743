// pbem pages: remember the browser's time zone (so times are told in the
// player's terms) and follow the game live (server-sent events).
(function () {
  "use strict";
  var tz = "";
  try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { tz = ""; }
  if (tz && /^[A-Za-z0-9_+\-\/]{1,64}$/.test(tz)) {
    var want = "pbem_tz=" + tz; // checked above: safe in a cookie
    if (document.cookie.split("; ").indexOf(want) < 0) {
      document.cookie = want + "; path=/; max-age=31536000; samesite=lax";
      var set = document.cookie.split("; ").indexOf(want) >= 0;
      var told = document.body.getAttribute("data-tz");
      // Re-tell the page's times once, only on pages reached by GET.
      if (set && told !== tz && document.querySelector("time") && !sessionStorage.getItem("pbem_tz_reload")) {
        sessionStorage.setItem("pbem_tz_reload", "1");
        location.reload();
        return;
      }
    }
  }
  // The lobby: a new game or number of players shows the form again with
  // that choice's options (the Update button does it without script).
  var refresh = document.getElementById("refresh");
  if (refresh) {
    document.documentElement.classList.add("js");
    Array.prototype.forEach.call(document.querySelectorAll("[data-refresh]"), function (el) {
      el.addEventListener("change", function () { refresh.click(); });
    });
  }
  var game = document.querySelector("#game[data-version]");
  if (!game || !window.EventSource || !window.fetch || !window.DOMParser) { return; }
  var es = new EventSource(game.getAttribute("data-events"));
  var leaving = false, busy = false, again = false;
  // The lines that came after the page was loaded are marked as they come.
  var loaded = +game.getAttribute("data-version");
  // A move being posted brings the new state by itself.
  document.addEventListener("submit", function () { leaving = true; es.close(); });
  // Without the fresh page, fall back to a plain reload.
  function reload() {
    es.close();
    var live = document.getElementById("live");
    if (live) { live.hidden = false; }
    location.replace(location.pathname);
  }
  // The twin of el (an element being replaced) in the fresh page, found by
  // id, or for a move button by its move, or for a link by its target,
  // within the fresh region of the same id.
  function twin(el, region) {
    if (el.id) { return document.getElementById(el.id); }
    var root = document.getElementById(region) || document;
    var a = el.name && el.value ? "[name=\"" + CSS.escape(el.name) + "\"][value=\"" + CSS.escape(el.value) + "\"]" :
      el.getAttribute("href") ? "[href=\"" + CSS.escape(el.getAttribute("href")) + "\"]" : "";
    return a ? root.querySelector(el.tagName + a) : null;
  }
  // update fetches the page and swaps in the parts that changed (the
  // [data-live] regions), keeping the scroll position and the focus; the
  // lines of "Since your last turn" that are new are marked.
  function update() {
    if (busy) { again = true; return; }
    busy = true;
    var from = game.getAttribute("data-from") || "";
    fetch(location.pathname + (from ? "?from=" + encodeURIComponent(from) : ""), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("game");
        if (!fresh) { throw new Error("no game"); }
        var y = window.scrollY, focused = document.activeElement;
        var region = focused && focused.closest ? (focused.closest("[data-live]") || {}).id : "";
        Array.prototype.forEach.call(fresh.querySelectorAll("[data-live][id]"), function (n) {
          var old = document.getElementById(n.id);
          if (old && old.innerHTML !== n.innerHTML) { old.replaceWith(document.importNode(n, true)); }
        });
        Array.prototype.forEach.call(document.querySelectorAll("#catchup li[data-v]"), function (li) {
          if (+li.getAttribute("data-v") > loaded) { li.classList.add("fresh-line"); }
        });
        ["data-version", "data-from"].forEach(function (a) {
          if (fresh.hasAttribute(a)) { game.setAttribute(a, fresh.getAttribute(a)); }
        });
        document.title = doc.title;
        if (focused && focused !== document.body && !document.body.contains(focused)) {
          var t = twin(focused, region);
          if (t) { t.focus({ preventScroll: true }); }
        }
        window.scrollTo(0, y);
        if (location.search) { history.replaceState(null, "", location.pathname); }
      })
      .catch(reload)
      .then(function () {
        busy = false;
        if (again) { again = false; update(); }
      });
  }
  es.addEventListener("version", function (e) {
    if (leaving || e.data === game.getAttribute("data-version")) { return; }
    update();
  });
  window.addEventListener("pagehide", function () { es.close(); });
})();
