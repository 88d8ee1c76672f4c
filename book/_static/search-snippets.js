/* Search results: Sphinx cuts each snippet from the text of the page's HTML, where math is
   still raw TeX ("\(\mathrm{Ad}_T\)"). Before the text is cut, write every formula in a short
   readable form (Ad_T, se(3)), so that no snippet shows TeX. Loaded on every page by
   book/_ext/presentation.py; acts only where Sphinx's search (searchtools.js) is loaded. */
(function () {
  const GREEK = {alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", eta: "η",
    theta: "θ", lambda: "λ", mu: "μ", xi: "ξ", pi: "π", rho: "ρ", sigma: "σ", tau: "τ",
    phi: "φ", varphi: "φ", psi: "ψ", omega: "ω", Gamma: "Γ", Delta: "Δ", Lambda: "Λ",
    Phi: "Φ", Psi: "Ψ", Omega: "Ω", Pi: "Π", nabla: "∇", partial: "∂", times: "×",
    cdot: "·", to: "→", in: "∈", le: "≤", ge: "≥", ne: "≠", approx: "≈", infty: "∞",
    sum: "Σ", dagger: "†"};
  function readable(tex) {
    return tex
      .replace(/\\[[\]()]/g, " ")
      .replace(/\\begin\{[^}]*\}|\\end\{[^}]*\}/g, " ")
      .replace(/\\(?:mathrm|mathfrak|mathbb|mathcal|mathsf|mathbf|operatorname|text|hat|bar|tilde)\{([^{}]*)\}/g, "$1")
      .replace(/\\(dot|ddot)\{?([A-Za-z])\}?/g, (m, d, x) => x + (d === "dot" ? "\u0307" : "\u0308"))
      .replace(/\\([A-Za-z]+)/g, (m, name) => GREEK[name] !== undefined ? GREEK[name] : "")
      .replace(/\\[,;!: ]|&|\\\\/g, " ")
      .replace(/[{}]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }
  function patch() {
    if (typeof Search === "undefined" || !Search.htmlToText || Search._liedynPatched) return;
    const original = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      doc.querySelectorAll("span.math, div.math").forEach(m => {
        const eqno = m.querySelector(".eqno");
        const number = eqno ? eqno.textContent.replace(/#/g, "").trim() + " " : "";
        m.querySelectorAll(".eqno, .headerlink").forEach(e => e.remove());
        m.textContent = " " + number + readable(m.textContent.trim()) + " ";
      });
      return original.call(this, doc.documentElement.outerHTML, anchor);
    };
    Search._liedynPatched = true;
  }
  patch();
  document.addEventListener("DOMContentLoaded", patch);
})();
