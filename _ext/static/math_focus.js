// Display formulas wider than the text column scroll sideways; a region that scrolls must be
// reachable with the keyboard (WCAG 2.1.1; axe: scrollable-region-focusable). MathJax's context
// menu used to make every formula focusable; the site loads MathJax without the menu
// (_config.yml, mathjax3_config), so do it here once MathJax has typeset the page.
(function () {
  "use strict";
  function focusable() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (m) {
      if (!m.hasAttribute("tabindex")) m.setAttribute("tabindex", "0");
    });
  }
  function whenTypeset(tries) {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(focusable);
    else if (tries > 0) setTimeout(function () { whenTypeset(tries - 1); }, 100);
  }
  if (document.querySelector(".math")) whenTypeset(100);
})();
