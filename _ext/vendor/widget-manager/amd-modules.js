// The require.js modules of html-manager's embed-amd.js that the page uses, each the library's own
// module: the manager's (lib/index.js), its embed entry (lib/libembed-amd.js, which asks require.js
// for the manager and renders the state) and @jupyter-widgets/base. anywidget's AMD front end
// (anywidget/dist/index.js) extends this same @jupyter-widgets/base, so the manager and the
// widgets share one copy of it.
import * as base from "@jupyter-widgets/base";
import * as htmlManager from "@jupyter-widgets/html-manager/lib/index.js";
import * as libembedAmd from "@jupyter-widgets/html-manager/lib/libembed-amd.js";

const define = window.define;
if (typeof define !== "function" || !define.amd) {
  throw new Error("the widget manager needs require.js loaded before it (nb_ipywidgets_js in _config.yml)");
}
define("@jupyter-widgets/base", [], () => base);
define("@jupyter-widgets/html-manager", [], () => htmlManager);
define("@jupyter-widgets/html-manager/dist/libembed-amd", [], () => libembedAmd);
