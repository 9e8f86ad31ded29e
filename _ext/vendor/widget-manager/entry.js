// The site's widget manager: @jupyter-widgets/html-manager's own AMD embed (what its dist/embed-amd.js
// is built from), bundled by build.mjs without the widget libraries the book's state never names.
// Only the glue is ours: the three require.js modules embed-amd.js defines for the page and for
// anywidget's front end (which asks require.js for "@jupyter-widgets/base"), then the library's own
// script that renders the widget state of the page.
import "./amd-modules.js";
import "@jupyter-widgets/html-manager/lib/embed-amd-render.js";
