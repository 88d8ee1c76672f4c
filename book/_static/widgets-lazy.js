// The widget scripts of a page (nb_ipywidgets_js: the embed script of @jupyter-widgets, 3 MB,
// and its helpers) load when the first widget comes near the screen, not with the page.
// book/_ext/lightpages.py puts this script, with the list of those scripts in data-scripts
// (paths relative to this file), on the pages that show a widget.
// The embed script renders the widgets on the window's `load` event, which has passed when
// it arrives here: a `load` listener the scripts add runs once they have all loaded.
(function () {
  "use strict";
  const me = document.currentScript;
  const scripts = JSON.parse(me.dataset.scripts || "[]");
  let started = false;

  function start() {
    if (started) return;
    started = true;
    const add = window.addEventListener, onLoad = [];
    window.addEventListener = function (type, listener, options) {
      if (type !== "load") return add.call(this, type, listener, options);
      onLoad.push(typeof listener === "function" ? listener
                                                 : listener.handleEvent.bind(listener));
    };
    const next = (i) => {
      if (i === scripts.length) {
        window.addEventListener = add;
        onLoad.forEach((run) => run.call(window, new Event("load")));
        return;
      }
      const s = document.createElement("script");
      s.src = new URL(scripts[i], me.src).href;
      s.onload = s.onerror = () => next(i + 1);
      document.head.appendChild(s);
    };
    next(0);
  }

  window.addEventListener("load", () => {
    const views = Array.from(document.querySelectorAll(
      'script[type="application/vnd.jupyter.widget-view+json"]'))
      .map((v) => v.closest(".cell") || v.parentElement);
    if (!views.length) return;
    if (!("IntersectionObserver" in window)) return start();
    const watch = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        watch.disconnect();
        start();
      }
    }, { rootMargin: "600px 0px" });
    views.forEach((v) => watch.observe(v));
  });
})();
