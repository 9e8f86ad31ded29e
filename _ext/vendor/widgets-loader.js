// Loaded by widget pages between require.js and the widget manager (nb_ipywidgets_js in _config.yml).
// The manager asks require.js for each widget's front-end module ("anywidget") by name, and falls back
// to a CDN when that fails. Point the name at the copy this site serves, so no other host is contacted;
// the fallback "CDN" is also set to this site, so a missing file shows as a local 404, never a request
// to another host.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script.src.slice(0, script.src.lastIndexOf("/") + 1); // .../_vendor/
  window.requirejs.config({
    paths: {
      anywidget: base + "anywidget/index",
      // Any other widget library a page would ask for: the site's folder, never another host. (The
      // manager, _vendor/html-manager/embed-amd.js, defines @jupyter-widgets/base and its own modules.)
      "@jupyter-widgets": base + "html-manager",
    },
  });
  script.setAttribute("data-jupyter-widgets-cdn", base + "missing-module/");
})();
