// h(tag, attrs, children): one HTML element. The one helper shared by the widgets (put before
// _common.js in every widget's ES module) and by the exercises on the page (attnbook puts it before
// exercise.js): each of those ships as one self-contained module with no imports.
function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}
