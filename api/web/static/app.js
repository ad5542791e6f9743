// pbem pages: remember the browser's time zone (so times are told in the
// player's terms), follow the game live (server-sent events) and post the
// play page's forms in one round trip (the answer is the fresh page).
(function () {
  "use strict";
  var tz = "";
  try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { tz = ""; }
  // The device's zone goes with the play page's "follow this device"
  // (filled in as the form leaves: a live update may have replaced it).
  document.addEventListener("submit", function (e) {
    var el = e.target.querySelector ? e.target.querySelector('input[name="device"]') : null;
    if (el) { el.value = tz; }
  }, true);
  // A zone the player chose (page_zone.go) is kept: no detection then.
  var chosen = document.cookie.split("; ").indexOf("pbem_tz_set=1") >= 0;
  if (!chosen && tz && /^[A-Za-z0-9_+\-\/]{1,64}$/.test(tz)) {
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
    // The device told its zone: the question is one line (page_zone.go).
    var zq = document.getElementById("zone");
    if (zq) { zq.open = false; }
  }
  // Folded panels (details[data-wide-open]: the full list of moves) are
  // unfolded on a screen wider than a phone's; the action bar's link to
  // the decision to make unfolds the panel that holds it.
  function unfoldWide() {
    if (!window.matchMedia || !window.matchMedia("(min-width:44rem)").matches) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("details[data-wide-open]"), function (d) { d.open = true; });
  }
  // Each fold's line tells whether it is open (aria-expanded, issue #43),
  // set here and kept true as it toggles: without script the browser's
  // own state of the details element tells it.
  function tellFolds() {
    Array.prototype.forEach.call(document.querySelectorAll("details > summary"), function (s) {
      s.setAttribute("aria-expanded", s.parentNode.open ? "true" : "false");
    });
  }
  document.addEventListener("toggle", function (e) {
    var s = e.target.querySelector ? e.target.querySelector(":scope > summary") : null;
    if (s) { s.setAttribute("aria-expanded", e.target.open ? "true" : "false"); }
  }, true);
  // The page keeps room for the action bar under its last line: the bar's
  // own height (9rem without script, enough for its tallest state). The
  // page of an ended game has no bar (its region is empty): no room then.
  function roomForBar() {
    var bar = document.getElementById("action-bar"), g = document.getElementById("game");
    if (bar && g) { g.style.paddingBottom = bar.classList.contains("actionbar") ? (bar.offsetHeight + 16) + "px" : ""; }
  }
  unfoldWide();
  tellFolds();
  roomForBar();
  window.addEventListener("resize", roomForBar);
  // The link's target is the list of moves (or the one kind's fieldset):
  // it is unfolded and its first move takes the focus (scrolled into view
  // above the bar), ready for a tap or a key.
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a.bar-decide") : null;
    var to = a ? document.getElementById(a.hash.slice(1)) : null;
    var d = to && to.closest ? to.closest("details") : null;
    if (d) { d.open = true; }
    var first = to ? to.querySelector("button[name=move]") : null;
    if (first) { e.preventDefault(); first.focus(); }
  }, true);
  // The language menu takes effect as soon as a language is chosen (its
  // button does it without script).
  Array.prototype.forEach.call(document.querySelectorAll("[data-autosubmit]"), function (el) {
    document.documentElement.classList.add("js");
    el.addEventListener("change", function () { if (el.form) { el.form.submit(); } });
  });
  // The lobby: a new game or number of players shows the form again with
  // that choice's options (the Update button does it without script).
  var refresh = document.getElementById("refresh");
  if (refresh) {
    document.documentElement.classList.add("js");
    Array.prototype.forEach.call(document.querySelectorAll("[data-refresh]"), function (el) {
      el.addEventListener("change", function () { refresh.click(); });
    });
  }
  // The lobby: a seat a bot plays has no name, email or language to fill
  // in (the server names it); choosing who plays shows or hides them.
  Array.prototype.forEach.call(document.querySelectorAll("select[data-kind]"), function (el) {
    el.addEventListener("change", function () {
      var person = el.closest(".seatrow").querySelector(".person");
      var bot = el.value !== "person";
      person.hidden = bot;
      Array.prototype.forEach.call(person.querySelectorAll("input, select"), function (f) { f.disabled = bot; });
    });
  });
  // A refused form's summary of its problems takes the focus, so that a
  // screen reader reads it first; each of its links takes the focus to
  // its field (an anchor alone only scrolls to it).
  var problems = document.getElementById("problems");
  if (problems) {
    problems.focus();
    problems.addEventListener("click", function (e) {
      var a = e.target.closest ? e.target.closest("a[href^='#']") : null;
      var to = a ? document.getElementById(a.hash.slice(1)) : null;
      if (to) { e.preventDefault(); to.focus(); }
    });
  }
  var game = document.querySelector("#game[data-version]");
  if (!game || !window.EventSource || !window.fetch || !window.DOMParser || !window.URLSearchParams) { return; }
  var es = new EventSource(game.getAttribute("data-events"));
  // leaving: the page is being left; latest: the version the stream told
  // last, and synced the one the last live update was for; busy: a live
  // update is under way; posting: a form is being posted by the script;
  // asked and shown number the pages requested and the newest one shown
  // (an answer older than the page shown is dropped).
  var leaving = false, latest = "", synced = "", busy = false, posting = false, asked = 0, shown = 0;
  // The lines that came after the page was loaded are marked as they come.
  var loaded = +game.getAttribute("data-version");
  function leave() { leaving = true; es.close(); }
  // Without the fresh page, fall back to a plain reload.
  function reload() {
    leave();
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
  // parse reads a page.
  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }
  // show swaps in the parts of a fresh play page (doc, the answer to
  // request n) that changed (the [data-live] regions), keeping the scroll
  // position and the focus; the lines of "Since your last turn" that are
  // new are marked. It returns false for an answer older than the page
  // shown, and throws if doc is not a play page.
  function show(doc, n) {
    var fresh = doc.getElementById("game");
    if (!fresh) { throw new Error("no game"); }
    if (n < shown) { return false; }
    shown = n;
    var y = window.scrollY, focused = document.activeElement;
    var region = focused && focused.closest ? (focused.closest("[data-live]") || {}).id : "";
    // The game ends with this page: its bar (fixed at the bottom) goes.
    var ends = !!document.querySelector("#action-bar.actionbar") && !!fresh.querySelector("#action-bar:not(.actionbar)");
    // A fold the player unfolded stays unfolded in the fresh page (not the
    // time-zone question: its answer folds it).
    var unfolded = Array.prototype.map.call(document.querySelectorAll("details.fold[id][open]"), function (d) { return d.id; });
    Array.prototype.forEach.call(fresh.querySelectorAll("[data-live][id]"), function (f) {
      var old = document.getElementById(f.id);
      if (old && old.innerHTML !== f.innerHTML) { old.replaceWith(document.importNode(f, true)); }
    });
    unfolded.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
    unfoldWide();
    tellFolds();
    roomForBar();
    // The live regions that tell whose turn it is and what became of a
    // table-talk line keep their nodes (a screen reader announces a change
    // of their text, not a new node); their look follows (class).
    Array.prototype.forEach.call(fresh.querySelectorAll("[data-announce][id]"), function (f) {
      var old = document.getElementById(f.id);
      if (old && old.textContent !== f.textContent) { old.textContent = f.textContent; }
      if (old) { old.className = f.className; }
    });
    Array.prototype.forEach.call(document.querySelectorAll("#catchup li[data-v]"), function (li) {
      if (+li.getAttribute("data-v") > loaded) { li.classList.add("fresh-line"); }
    });
    ["data-version", "data-from"].forEach(function (a) {
      if (fresh.hasAttribute(a)) { game.setAttribute(a, fresh.getAttribute(a)); }
    });
    document.title = doc.title;
    var gone = focused && focused !== document.body && !document.body.contains(focused);
    if (gone) {
      // The tapped control is gone: its twin, else what the action bar
      // now asks for (a confirmation, a take-back), else at the end of the
      // game its "Play again".
      var t = twin(focused, region) || document.querySelector("#action-bar button") || document.getElementById("rematch");
      if (t) { t.focus({ preventScroll: true }); }
    }
    // The page that ends the game is shown from its top (the notice that
    // the last move was played, the result, "Play again"): the bar that
    // told it at the reader's place is gone. Not while the reader writes
    // (the focus in a field that stays).
    window.scrollTo(0, ends && (gone || !focused || focused === document.body) ? 0 : y);
    return true;
  }
  // sync brings the page to the version the stream told (update), unless
  // a form's answer is on its way (it brings the fresh page itself) or the
  // page already shows that version or a newer one (the stream may tell a
  // version from before a form's answer that brought a newer page).
  function sync() {
    if (leaving || busy || posting || !latest || latest === synced || +latest <= +game.getAttribute("data-version")) { return; }
    update();
  }
  // update fetches the page and shows it.
  function update() {
    busy = true;
    synced = latest;
    var n = ++asked, from = game.getAttribute("data-from") || "";
    fetch(location.pathname + (from ? "?from=" + encodeURIComponent(from) : ""), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) {
        if (show(parse(html), n) && location.search) { history.replaceState(null, "", location.pathname); }
      })
      .catch(reload)
      .then(function () { busy = false; sync(); });
  }
  es.addEventListener("version", function (e) { latest = e.data; sync(); });
  // data-stream tells whether the live stream is connected ("open"), for
  // the browser tests to wait for it rather than for a time.
  es.addEventListener("open", function () { game.setAttribute("data-stream", "open"); });
  es.addEventListener("error", function () { game.setAttribute("data-stream", "closed"); });
  // The play page's forms (a move, its confirmation, a take-back, a chat
  // line) are posted by the script with the header X-Pbem-Fetch: the answer
  // is the fresh page itself (not a redirect to it, api/page_fetch.go),
  // shown as a live update is, its URL (Content-Location) put in the
  // address bar: one round trip. An error page (a refused form) replaces
  // the page, as it would without script; if the post fails on the way,
  // the form is posted again the usual way. One form at a time: a tap
  // while one is on its way is ignored (a double tap posts once).
  var native = false;
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (native || !("submitter" in e) || !game.contains(form) || (form.getAttribute("method") || "").toLowerCase() !== "post") {
      leave();
      return;
    }
    e.preventDefault();
    if (!posting) { post(form, e.submitter); }
  });
  function post(form, by) {
    var body = new FormData(form);
    if (by && by.name) { body.append(by.name, by.value); }
    var action = (by && by.getAttribute("formaction")) || form.getAttribute("action") || location.pathname;
    var n = ++asked;
    posting = true;
    fetch(action, { method: "POST", body: new URLSearchParams(body), credentials: "same-origin", headers: { "X-Pbem-Fetch": "1" } })
      .then(function (r) {
        return r.text().then(function (html) { answered(r, html, n, action, form); });
      })
      .catch(function () { resubmit(form, by); })
      .then(function () { posting = false; sync(); });
  }
  // answered shows the answer to a form: the fresh play page, or another
  // page (an error's) in place of this one.
  // Its URL is the one the browser would show without script: where the
  // redirect leads (Content-Location, or the redirect followed), else the
  // form's own (a move to confirm). The form is emptied as a new page would
  // have it (the chat line sent).
  function answered(r, html, n, action, form) {
    var doc = parse(html);
    if (r.ok && doc.getElementById("game")) {
      if (show(doc, n)) { history.replaceState(null, "", r.headers.get("Content-Location") || (r.redirected ? r.url : action)); }
      if (document.contains(form)) { form.reset(); }
      return;
    }
    if (!/^text\/html/.test(r.headers.get("Content-Type") || "")) { throw new Error(r.status); }
    leave();
    document.replaceChild(document.importNode(doc.documentElement, true), document.documentElement);
    window.scrollTo(0, 0);
  }
  // resubmit posts a form the usual way (the page is left for the answer).
  function resubmit(form, by) {
    if (!document.contains(form)) { reload(); return; }
    native = true;
    if (form.requestSubmit) { form.requestSubmit(by && by.form === form ? by : null); } else { leave(); form.submit(); }
  }
  window.addEventListener("pagehide", function () { es.close(); });
})();
