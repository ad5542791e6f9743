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
  if (!game || !window.EventSource) { return; }
  var version = game.getAttribute("data-version");
  var es = new EventSource(game.getAttribute("data-events"));
  var leaving = false;
  // A move being posted brings the new state by itself.
  document.addEventListener("submit", function () { leaving = true; es.close(); });
  es.addEventListener("version", function (e) {
    if (leaving || e.data === version) { return; }
    es.close();
    var live = document.getElementById("live");
    if (live) { live.hidden = false; }
    location.replace(location.pathname);
  });
  window.addEventListener("pagehide", function () { es.close(); });
})();
