// Live Code (linked into every page by _ext/theme_fixes.py). The launch menu's "Live Code" button
// loads thebe (served by this site, _static/_vendor/thebe/) and asks mybinder.org for a kernel.
// When no kernel can be had - offline, mybinder.org down or blocked, or no kernel within the time
// limit - the page says so in words and points at the Binder and Colab buttons of the same menu.
// The code cells thebe turned into editors are then given back as they were (code and stored
// outputs): no editor is left whose run button does nothing. The sliders compute in the browser.
// Once a kernel connects, thebe's widget manager fetches require.js; it gets the site's copy.
(function () {
  "use strict";
  var LIMIT_MS = 90000; // a Binder launch from a cached image takes well under a minute
  var FAILED = ["failed", "unreachable", "closed", "error", "dead"];
  // thebe 0.9.3 fetches require.js from this CDN (tests/browser/test_live_code.py reads the URL from
  // the bundle); the site serves require.js itself, from npm (package-lock.json).
  var CDN_REQUIREJS = "https://cdnjs.cloudflare.com/ajax/libs/require.js/";
  var state = { armed: false, done: false, failed: false, timer: null, saved: [], box: null };
  var watching = false;

  function siteUrl(path) {
    return new URL(path, new URL(document.documentElement.dataset.content_root || "./", document.baseURI)).href;
  }

  // The cells sphinx-thebe hands to thebe (its `thebe_selector`, set in the page), copied as they are.
  function saveCells() {
    var selector = typeof thebe_selector === "string" ? thebe_selector : ".cell"; // eslint-disable-line no-undef
    state.saved = Array.prototype.map.call(document.querySelectorAll(selector), function (cell) {
      return [cell, cell.cloneNode(true)];
    });
  }

  // Put every saved cell back in place of what thebe made of it.
  function restoreCells() {
    state.saved.forEach(function (pair) {
      if (pair[0].isConnected) pair[0].replaceWith(pair[1]);
    });
    state.saved = [];
  }

  // thebe's request for require.js goes to the site's copy.
  function requireJsFromSite() {
    var fetch0 = window.fetch;
    if (!fetch0 || fetch0.attnbook) return;
    var local = function (input, init) {
      var url = typeof input === "string" ? input : input && input.url;
      if (typeof url === "string" && url.indexOf(CDN_REQUIREJS) === 0) {
        return fetch0.call(window, siteUrl("_static/_vendor/requirejs/require.js"), init);
      }
      return fetch0.apply(window, arguments);
    };
    local.attnbook = true;
    window.fetch = local;
  }

  function limitMs() {
    var v = Number(window.ATTNBOOK_LIVE_CODE_TIMEOUT_MS); // tests shorten it
    return v > 0 ? v : LIMIT_MS;
  }

  // The launch menu's link to `host` (Bootstrap moves the links' titles away for its tooltips).
  function link(host, text) {
    var a = document.querySelector('.dropdown-launch-buttons a[href*="' + host + '"]');
    if (!a) return document.createTextNode(text);
    var copy = document.createElement("a");
    copy.href = a.href;
    copy.target = "_blank";
    copy.rel = "noopener";
    copy.textContent = text;
    return copy;
  }

  function say(reason) {
    if (state.done) return;
    state.done = true;
    state.failed = true;
    clearTimeout(state.timer);
    restoreCells();
    var box = document.createElement("div");
    box.className = "admonition warning attnbook-live-code-message";
    box.setAttribute("role", "alert");
    var title = document.createElement("p");
    title.className = "admonition-title";
    title.textContent = "Live Code could not start";
    var what = document.createElement("p");
    what.textContent = reason + " Live Code runs the cells of this page on a kernel from mybinder.org, " +
      "which needs a network connection to that service. Everything else on this page works without " +
      "it: the code and its outputs are here as before, and the sliders compute in your browser.";
    var instead = document.createElement("p");
    instead.append("To run the code, open this chapter in JupyterLab on ", link("mybinder.org", "Binder"),
      " or in Google ", link("colab.research.google.com", "Colab"),
      " (both are also in the rocket menu at the top of the page), or clone the book and run it locally.");
    box.append(title, what, instead);
    state.box = box;
    var anchor = document.querySelector(".thebe-launch-button") || document.querySelector("main h1");
    if (anchor) anchor.insertAdjacentElement("afterend", box);
    else document.body.prepend(box);
    var button = document.querySelector(".thebe-launch-button");
    if (button) button.textContent = "Live Code: no kernel";
  }

  function watchThebe() {
    if (watching || state.done) return;
    if (!window.thebelab || typeof window.thebelab.on !== "function") {
      setTimeout(watchThebe, 200);
      return;
    }
    watching = true;
    window.thebelab.on("status", function (evt, data) {
      var status = String((data && data.status) || "");
      if (status === "ready") {
        state.done = true; // a kernel answered
        state.saved = [];
        clearTimeout(state.timer);
      } else if (FAILED.indexOf(status) >= 0) {
        var detail = data && data.message ? " (" + String(data.message).replace(/<[^>]*>/g, "").slice(0, 200) + ")" : "";
        say("The connection to mybinder.org failed" + detail + ".");
      }
    });
  }

  function arm() {
    if (state.failed) {
      // Live Code clicked again after it failed: a new attempt, with the cells as they are now
      if (state.box) state.box.remove();
      state = { armed: false, done: false, failed: false, timer: null, saved: [], box: null };
    }
    if (state.armed) return;
    state.armed = true;
    saveCells(); // before the button's own handler gives them to thebe
    requireJsFromSite();
    if (!document.querySelector(".attnbook-thebe-config")) {
      // thebe's own styles and options, from this site: no MathJax 2 from a CDN for the outputs (the
      // page has MathJax 3 already).
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = siteUrl("_static/_vendor/thebe/thebe.css");
      document.head.append(css);
      var options = document.createElement("script");
      options.type = "text/x-thebe-config";
      options.className = "attnbook-thebe-config";
      options.textContent = "{ mathjaxUrl: false }";
      document.body.append(options);
    }
    state.timer = setTimeout(function () {
      say("No kernel answered within " + Math.round(limitMs() / 1000) + " seconds.");
    }, limitMs());
    watchThebe();
  }

  // Capture phase: armed before the button's own handler (initThebeSBT) loads thebe.
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target && target.closest && target.closest(".btn-launch-thebe, .thebe-launch-button"))) return;
    arm();
    setTimeout(function () { // sphinx-thebe says "Loading thebe from CDN...": it comes from this site
      var button = document.querySelector(".thebe-launch-button");
      if (button && /CDN/.test(button.textContent)) button.textContent = "Loading Live Code…";
    }, 0);
  }, true);
  // thebe reports a failed Binder request as a rejected promise as well.
  window.addEventListener("unhandledrejection", function () {
    if (state.armed && !state.done && window.thebelab) say("The connection to mybinder.org failed.");
  });
  // The thebe script itself failed to load (e.g. a broken copy of the site).
  document.addEventListener("error", function (event) {
    var t = event.target;
    if (state.armed && t && t.tagName === "SCRIPT" && /thebe/.test(t.src || "")) say("Live Code's script could not be loaded.");
  }, true);
})();
