// html-manager 1.x typesets widget labels with MathJax 2's MathJax.Hub.Queue; MathJax 3 has no Hub.
// Runs before the embed script renders, whether loaded with the page or later
// (book/_static/widgets-lazy.js).
(function () {
  function shim() {
    const mj = window.MathJax;
    if (!mj || !mj.startup || mj.Hub) return;
    mj.Hub = {
      Queue: (...jobs) => jobs.forEach((job) => {
        if (Array.isArray(job) && job[0] === "Typeset" && job[2])
          mj.startup.promise = mj.startup.promise.then(() => mj.typesetPromise([job[2]]));
      }),
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", shim);
  else shim();
})();
