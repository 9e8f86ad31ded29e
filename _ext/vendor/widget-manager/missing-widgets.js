// Stands in, in the site's widget manager (build.mjs), for the widget libraries that the book's widget
// state never names: @jupyter-widgets/controls (ipywidgets' sliders, buttons, boxes...), the ipywidgets 7
// modules and the output widget. The manager asks a module for a model or view class by name
// (HTMLManager.loadClass); asking one of these logs an error naming the class, and the widget then
// fails as with any unknown class. A page whose state needs one of them therefore shows a console error
// (the browser tests fail on it), not a silently missing widget.
"use strict";

const reported = new Set();

function report(moduleName, name) {
  const message =
    `[widget manager] ${moduleName}: ${name} is not in this site's widget manager, which is built ` +
    "without the ipywidgets controls, ipywidgets 7 and output widgets (the book's widget state used " +
    "none); add the module back in _ext/vendor/widget-manager/build.mjs to render this widget.";
  if (!reported.has(message)) {
    reported.add(message);
    console.error(message);
  }
  return message;
}

// A module the manager require()s by name (controls, base7, controls7): every class name is missing.
function missingModule(moduleName) {
  return new Proxy(Object.create(null), {
    get(target, name) {
      // Promise resolution asks for "then", bundler interop for "__esModule"/"default": not classes.
      if (typeof name !== "string" || !/^[A-Z]/.test(name)) {
        return undefined;
      }
      report(moduleName, name);
      return undefined;
    },
  });
}

// A class of a module the manager imports (the output widget's): using it in any way (its static
// _deserialize_state, new) reports it and throws.
function missingClass(moduleName, name) {
  const fail = () => {
    throw new Error(report(moduleName, name));
  };
  return new Proxy(function () {}, {
    get(target, property) {
      // Promise resolution asks whether the class is a "then"-able: it is not.
      return typeof property === "string" && property !== "then" ? fail : undefined;
    },
    construct: fail,
    apply: fail,
  });
}

module.exports = { missingModule, missingClass };
