// liedyn 3D scenes start when they come near the screen. Each scene is a whole HTML document
// (viewer script, shapes, animation); book/_ext/presentation.py moves it from the iframe's
// srcdoc to data-srcdoc, so that a page with several scenes loads without starting them all.
document.addEventListener("DOMContentLoaded", () => {
  const frames = document.querySelectorAll("iframe.liedyn-scene[data-srcdoc]");
  const start = (f) => {
    if (f.dataset.srcdoc) {
      f.srcdoc = f.dataset.srcdoc;
      delete f.dataset.srcdoc;
    }
  };
  if (!("IntersectionObserver" in window)) {
    frames.forEach(start);
    return;
  }
  const watch = new IntersectionObserver((entries) => entries.forEach((e) => {
    if (e.isIntersecting) {
      start(e.target);
      watch.unobserve(e.target);
    }
  }), { rootMargin: "300px 0px" });
  frames.forEach((f) => watch.observe(f));
});
