// Builds the site's widget manager: node _ext/vendor/widget-manager/build.mjs OUTFILE
//
// @jupyter-widgets/html-manager's dist/embed-amd.js (3.6 MB; 0.92 MB gzipped) bundles every ipywidgets
// control, the ipywidgets 7 modules and the output widget (with JupyterLab's output area). The book's
// widget state holds only anywidget models and @jupyter-widgets/base layouts, so this bundles the same
// library entry (entry.js: html-manager's lib/libembed-amd.js, lib/index.js, lib/embed-amd-render.js)
// with esbuild, minified, and puts missing-widgets.js in place of those modules: a page that needs one
// logs an error naming the class. Called by _ext/site_assets.py (vendor_assets) on every build.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, "..", "..", "..", "package.json")); // the project's node_modules
const esbuild = require("esbuild");

// Modules html-manager require()s only for state the book does not hold (HTMLManager.loadClass).
const MISSING_MODULES = /^@jupyter-widgets\/(controls|controls7|base7)(\/.*)?$/;
const STUB = join(here, "missing-widgets.js");
const HTML_MANAGER_LIB = dirname(require.resolve("@jupyter-widgets/html-manager/lib/htmlmanager.js"));

const slimPlugin = {
  name: "book-widget-manager",
  setup(build) {
    build.onResolve({ filter: MISSING_MODULES }, (args) => ({ path: args.path, namespace: "missing-module" }));
    build.onLoad({ filter: /.*/, namespace: "missing-module" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(STUB)}).missingModule(${JSON.stringify(args.path.replace(/\/css\/.*$/, ""))});`,
      resolveDir: here,
      loader: "js",
    }));
    // htmlmanager.js imports its output widget ("./output") statically: same class names, none usable.
    build.onResolve({ filter: /^\.\/output$/ }, (args) =>
      args.importer.startsWith(HTML_MANAGER_LIB) ? { path: join(HTML_MANAGER_LIB, "output.js"), namespace: "missing-output" } : undefined);
    build.onLoad({ filter: /.*/, namespace: "missing-output" }, (args) => {
      const names = [...readFileSync(args.path, "utf8").matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]);
      if (!names.length) throw new Error(`no exported class found in ${args.path}`);
      return {
        contents: `import { missingClass } from ${JSON.stringify(STUB)};\n` +
          names.map((n) => `export const ${n} = missingClass("@jupyter-widgets/output", ${JSON.stringify(n)});`).join("\n"),
        resolveDir: here,
        loader: "js",
      };
    });
    // The Font Awesome 5 styles libembed.js injects (the theme's own icons and fonts serve the pages;
    // the anywidget sliders show no icon): left out, and with them the fonts they would fetch.
    build.onResolve({ filter: /^@fortawesome\/fontawesome-free\// }, () => ({ path: "fontawesome", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
    // Other styles (Lumino's widget layout) are injected into the page when the bundle runs, as
    // webpack's style-loader does in embed-amd.js.
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      const css = await esbuild.build({ entryPoints: [args.path], bundle: true, minify: true, write: false, logLevel: "silent" });
      const text = css.outputFiles[0].text;
      return {
        contents: `const s = document.createElement("style"); s.textContent = ${JSON.stringify(text)}; document.head.appendChild(s);`,
        loader: "js",
      };
    });
  },
};

const outfile = process.argv[2];
if (!outfile) {
  console.error("usage: node build.mjs OUTFILE");
  process.exit(2);
}
const result = await esbuild.build({
  entryPoints: [join(here, "entry.js")],
  outfile,
  bundle: true,
  minify: true,
  format: "iife",
  platform: "browser",
  target: "es2018",
  // UMD packages (backbone, ...) would register with the page's require.js instead of joining the
  // bundle, as webpack's build keeps them from doing: they see no AMD define here.
  define: { define: "undefined" },
  loader: { ".svg": "text" }, // JupyterLab icons, as webpack's asset/source
  legalComments: "linked", // the packages' licence comments, in embed-amd.js.LEGAL.txt beside it
  // libembed.js sets webpack's public path (where webpack would fetch fonts): a plain variable here.
  banner: { js: "var __webpack_public_path__ = \"\";" },
  logLevel: "warning",
  metafile: Boolean(process.env.WIDGET_MANAGER_METAFILE),
  plugins: [slimPlugin],
});
if (process.env.WIDGET_MANAGER_METAFILE) {
  console.log(await esbuild.analyzeMetafile(result.metafile, { verbose: false }));
}
