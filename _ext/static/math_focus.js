// Formulas that do not fit the text column (a phone is 390 px wide), once MathJax has typeset them:
// - one that would fit at MIN_SCALE or more of the text's size is drawn that much smaller, so that
//   it fits: a display formula a few pixels too wide would otherwise scroll with its last symbol
//   looking cut off, and an inline one would lose its end (the theme's span.math hides what overflows);
// - one wider than that scrolls sideways (display formulas always could; an inline one is made to),
//   and a region that scrolls must be reachable with the keyboard (WCAG 2.1.1; axe:
//   scrollable-region-focusable): every display formula is focusable, as MathJax's context menu,
//   which the site does not load (_config.yml, mathjax3_config), used to make it; it fades out at
//   the edge past which more of it lies.
// Measured again when the text column's width changes (a window resized, a phone turned sideways).
(function () {
  "use strict";
  var MIN_SCALE = 0.8; // of the surrounding text's size (tests/browser/test_phone_reading.py)

  function focusable() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (m) {
      if (!m.hasAttribute("tabindex")) m.setAttribute("tabindex", "0");
    });
  }

  function fit(c) {
    var display = c.getAttribute("display") === "true";
    var box = display ? c : c.closest("span.math"); // the box that scrolls, or that hides the overflow
    var glyphs = c.querySelector("mjx-math");
    if (!box || !glyphs) return;
    if (c.dataset.attnbookSize === undefined) c.dataset.attnbookSize = c.style.fontSize;
    c.style.fontSize = c.dataset.attnbookSize; // MathJax's own size, then measure
    if (!display && box.dataset.attnbookScrolls) {
      box.style.overflowX = "";
      box.removeAttribute("tabindex");
      delete box.dataset.attnbookScrolls;
    }
    var width = glyphs.getBoundingClientRect().width; // not scrollWidth: the hidden MathML widens it
    var room = box.clientWidth;
    if (!(width > room + 0.5) || room <= 0) return;
    var size = parseFloat(getComputedStyle(c).fontSize);
    var text = parseFloat(getComputedStyle(c.parentElement).fontSize);
    var smaller = size * (room / width) * 0.995; // a little under, for the rounding of the layout
    if (smaller >= MIN_SCALE * text) {
      c.style.fontSize = smaller + "px";
    } else if (!display) {
      box.style.overflowX = "auto";
      box.setAttribute("tabindex", "0");
      box.dataset.attnbookScrolls = "1";
    }
  }

  // A formula that scrolls fades out at an edge past which more of it lies, so that it does not
  // look as if it ended there (theme_fixes.css draws the fade; phones hide scroll bars).
  function cue(box) {
    var more = box.scrollWidth - box.clientWidth > 1 && box.dataset.attnbookWide === "1";
    box.classList.toggle("attnbook-more-left", more && box.scrollLeft > 1);
    box.classList.toggle("attnbook-more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  }

  function fitAll() {
    document.querySelectorAll("mjx-container").forEach(fit);
    document.querySelectorAll('mjx-container[display="true"], span.math[data-attnbook-scrolls]').forEach(function (box) {
      var glyphs = box.querySelector("mjx-math");
      box.dataset.attnbookWide = glyphs && glyphs.getBoundingClientRect().width > box.clientWidth + 0.5 ? "1" : "";
      if (!box.dataset.attnbookCue) {
        box.dataset.attnbookCue = "1";
        box.addEventListener("scroll", function () { cue(box); }, { passive: true });
      }
      cue(box);
    });
  }

  // Fit now, and again whenever the text column changes width (the window's size, the theme's
  // sidebars settling after the first layout).
  function typeset() {
    focusable();
    fitAll();
    document.documentElement.dataset.attnbookMath = "fitted"; // for the browser tests
    var column = document.querySelector(".bd-article") || document.body;
    var width = column.clientWidth;
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(function () {
        if (column.clientWidth === width) return; // a change of height only (e.g. a formula fitted)
        width = column.clientWidth;
        fitAll();
      }).observe(column);
    }
    window.addEventListener("load", fitAll);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitAll);
  }

  function whenTypeset(tries) {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(typeset);
    else if (tries > 0) setTimeout(function () { whenTypeset(tries - 1); }, 100);
  }
  if (document.querySelector(".math")) whenTypeset(100);
})();
