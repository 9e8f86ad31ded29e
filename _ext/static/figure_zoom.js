/* A figure drawn smaller than its own size (a wide figure on a phone) opens at full size: a tap on
   the figure, or its "Open at full size" button (a real button: Tab and Enter or Space reach it),
   shows it in a dialog at one image pixel per CSS pixel, in a box that pans (swipe, scroll bars,
   or the arrow keys once the box has the focus). Escape or "Close" closes it and gives the focus
   back. The image is the page's own (no request to another host). The browser tests
   (tests/browser/test_figure_text.py) measure the text of a figure in this dialog. */
(function () {
  "use strict";
  const FIGURES = ".bd-article img[src$='.png']";
  let dialog = null;
  let opener = null;

  function ensureDialog() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "attnbook-zoom";
    dialog.setAttribute("aria-label", "Figure at full size");
    const bar = document.createElement("div");
    bar.className = "attnbook-zoom-bar";
    const hint = document.createElement("span");
    hint.textContent = "Swipe or use the arrow keys to pan.";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "attnbook-zoom-close";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    bar.append(hint, close);
    const pan = document.createElement("div");
    pan.className = "attnbook-zoom-pan";
    pan.tabIndex = 0;
    pan.setAttribute("role", "region");
    pan.setAttribute("aria-label", "Figure at full size: scroll to pan");
    const img = document.createElement("img");
    pan.append(img);
    dialog.append(bar, pan);
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
    // Escape closes it even where the browser would not (a dialog opened from a key press).
    dialog.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); dialog.close(); } });
    dialog.addEventListener("close", () => {
      if (opener && opener.isConnected) opener.focus();
      opener = null;
    });
    document.body.append(dialog);
    return dialog;
  }

  function open(figure, button) {
    const d = ensureDialog();
    const img = d.querySelector(".attnbook-zoom-pan img");
    img.src = figure.currentSrc || figure.src;
    img.alt = figure.alt;
    img.style.width = `${figure.naturalWidth}px`;
    img.style.height = `${figure.naturalHeight}px`;
    opener = button;
    d.showModal();
    const pan = d.querySelector(".attnbook-zoom-pan");
    pan.scrollLeft = 0;
    pan.scrollTop = 0;
    pan.focus();
  }

  // Every figure with its button, measured together: all widths are read before any button is
  // shown or hidden, so that a resize lays the page out once, not once per figure.
  const figures = [];

  function updateAll() {
    const shrunk = figures.map(([figure]) =>
      figure.naturalWidth > 0 && figure.getBoundingClientRect().width < figure.naturalWidth - 1);
    figures.forEach(([figure, button], i) => {
      button.hidden = !shrunk[i];
      figure.classList.toggle("attnbook-zoomable", shrunk[i]);
    });
  }

  function setup(figure) {
    if (figure.dataset.attnbookZoom) return;
    figure.dataset.attnbookZoom = "1";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "attnbook-zoom-open";
    button.textContent = "Open the figure at full size";
    button.hidden = true;
    button.addEventListener("click", () => open(figure, button));
    figure.addEventListener("click", () => { if (!button.hidden) open(figure, button); });
    figure.after(button);
    figures.push([figure, button]);
    if (!figure.complete) figure.addEventListener("load", updateAll, { once: true });
  }

  function start() {
    document.querySelectorAll(FIGURES).forEach(setup);
    updateAll();
    window.addEventListener("resize", updateAll);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
