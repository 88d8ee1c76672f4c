// liedyn 3D scenes and animations start when they come near the screen. Each is a document of
// its own beside the page (viewer and shapes, or an animation's frames): book/_ext/lightpages.py
// writes it to a file and leaves an iframe whose data-src names it, set here as its src.
// An animation's document reports its height (a message), and its frame takes that height.
document.addEventListener("DOMContentLoaded", () => {
  const frames = document.querySelectorAll(
    "iframe.liedyn-scene[data-src], iframe.liedyn-animation[data-src]");
  const start = (f) => {
    if (f.dataset.src) {
      f.src = f.dataset.src;
      delete f.dataset.src;
    }
  };
  window.addEventListener("message", (e) => {
    const height = e.data && e.data.liedynFrameHeight;
    if (!height) return;
    document.querySelectorAll("iframe.liedyn-animation").forEach((f) => {
      if (f.contentWindow === e.source) f.style.height = `${Math.ceil(height)}px`;
    });
  });
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
