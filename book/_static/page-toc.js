// The page's table of contents ("Contents", the theme's secondary sidebar), made to work on long
// chapters and on narrow screens (book/_ext/presentation.py adds this script to every page).
//
// 1. Highlight the section being read. The theme marks it with an IntersectionObserver that
//    only notices a heading while it crosses a band at the top of the window: a jump (scroll bar,
//    Page Down, a link from another page) skips every band and leaves the highlight on an old
//    section or on none. Here the current section is recomputed on every scroll: the last
//    heading above a line 30 % down the window (the bottom of the theme's band, so both agree),
//    or, at the very end of the page, the last heading on screen. The highlighted entry expands
//    its subsections (the theme's CSS) and is kept in view inside the sidebar when the contents
//    are taller than the window.
// 2. Narrow screens (below 1200 px) show the contents behind a button in the article header.
//    The theme binds its drawer only to the first `.secondary-toggle` on the page, a navbar
//    button that sphinx-book-theme hides, so the visible button did nothing: forward its click.
//    A link followed inside the drawer closes it, so the page shows the section.
(function () {
  "use strict";
  const LINE = 0.3;  // fraction of the window height: the theme's band ends at 30 %

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function headingOf(link) {
    const id = decodeURIComponent((link.getAttribute("href") || "").replace(/^#/, ""));
    const target = id && document.getElementById(id);
    if (!target) return null;
    return target.querySelector(":is(h1, h2, h3, h4, h5, h6)") || target;
  }

  ready(function () {
    const nav = document.querySelector("#pst-page-toc-nav");
    if (!nav) return;
    const links = Array.from(nav.querySelectorAll("a.nav-link[href^='#']"));
    const entries = links.map(a => ({a, h: headingOf(a)})).filter(e => e.h);
    const sidebar = document.querySelector("#pst-secondary-sidebar");
    const header = document.querySelector("#pst-header");
    let lockedUntil = 0;  // after a click on an entry, that entry stays highlighted briefly

    function activate(link) {
      if (!link || link.getAttribute("aria-current") === "true"
          && nav.querySelectorAll("a.nav-link.active").length === 1) return;
      links.forEach(a => {
        const on = a === link;
        a.classList.toggle("active", on);
        if (on) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
      });
      nav.querySelectorAll(".toc-entry").forEach(li => li.classList.toggle("active", li.contains(link)));
      // keep the entry visible inside the sidebar (never scroll the page itself)
      const box = link.closest(".bd-sidebar-secondary") || sidebar;
      if (box && box.scrollHeight > box.clientHeight) {
        const r = link.getBoundingClientRect(), b = box.getBoundingClientRect();
        if (r.top < b.top + 40 || r.bottom > b.bottom - 40)
          box.scrollTop += r.top - b.top - box.clientHeight / 3;
      }
    }

    function current() {
      if (!entries.length) return null;
      const top = header ? header.getBoundingClientRect().height : 0;
      const line = top + LINE * (window.innerHeight - top);
      let best = null;
      for (const e of entries) {
        if (e.h.getBoundingClientRect().top <= line + 1) best = e; else break;
      }
      const end = document.documentElement.scrollHeight - window.innerHeight;
      if (window.scrollY >= end - 2) {  // the end: the last heading on screen
        for (const e of entries) if (e.h.getBoundingClientRect().top < window.innerHeight) best = e;
      }
      return best ? best.a : null;
    }

    let pending = false;
    function update() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        if (Date.now() < lockedUntil) return;
        const link = current();
        if (link) activate(link);
        else links.forEach(a => { a.classList.remove("active"); a.removeAttribute("aria-current"); });
      });
    }
    window.addEventListener("scroll", update, {passive: true});
    window.addEventListener("resize", update);
    // the theme's observer may fire after a scroll event: settle once more when scrolling stops
    let settle;
    window.addEventListener("scroll", () => { clearTimeout(settle); settle = setTimeout(update, 150); },
                            {passive: true});
    links.forEach(a => a.addEventListener("click", () => {
      lockedUntil = Date.now() + 1000;
      activate(a);
      setTimeout(update, 1050);
    }));
    update();

    // Narrow screens: the visible contents button opens the theme's drawer.
    const toggles = Array.from(document.querySelectorAll(".secondary-toggle"));
    const bound = toggles[0];  // the one the theme listens to
    toggles.slice(1).forEach(btn => btn.addEventListener("click", ev => {
      ev.preventDefault();
      ev.stopPropagation();
      bound.click();
    }));
    const dialog = document.querySelector("#pst-secondary-sidebar-modal");
    if (dialog) dialog.addEventListener("click", ev => {
      const a = ev.target.closest("a[href^='#']");
      if (!a || !dialog.open) return;
      // close first (the theme then gives the focus back to the button), then go to the section
      ev.preventDefault();
      dialog.close();
      setTimeout(() => {
        const h = headingOf(a);
        if (location.hash !== a.hash) history.pushState(null, "", a.hash);
        if (h) h.scrollIntoView({block: "start"});
        update();
      }, 0);
    });
  });
})();
