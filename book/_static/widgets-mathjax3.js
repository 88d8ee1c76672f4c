// html-manager 1.x typesets widget labels with MathJax 2's MathJax.Hub.Queue; MathJax 3 has no Hub.
document.addEventListener("DOMContentLoaded", () => {
  const mj = window.MathJax;
  if (!mj || !mj.startup || mj.Hub) return;
  mj.Hub = {
    Queue: (...jobs) => jobs.forEach((job) => {
      if (Array.isArray(job) && job[0] === "Typeset" && job[2])
        mj.startup.promise = mj.startup.promise.then(() => mj.typesetPromise([job[2]]));
    }),
  };
});
