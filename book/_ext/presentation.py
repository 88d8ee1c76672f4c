"""Sphinx extension: the book's own stylesheet and scripts, favicon and header.

* `book/_static/liedyn.css`: long display equations and tables scroll in their own box, inline
  code and signatures break, so no page is wider than a phone's viewport;
* `book/_static/search-snippets.js`: search results show formulas in a short readable form
  instead of raw TeX;
* `book/_static/favicon.svg` as the favicon (browsers then do not ask for /favicon.ico);
* one search field: the theme puts one in the header and one at the top of the sidebar; the
  header's goes (the sidebar, a drawer on a phone, keeps its own, and Ctrl+K still searches);
* the page's contents (the secondary sidebar) list every section and subsection (the theme's
  `show_toc_level` 2: the subsections of the long chapters are seen without scrolling there);
* `book/_static/page-toc.js`: the page's contents (the secondary sidebar) highlight the section
  being read after any scroll or jump, keep it in view on long chapters, and open from the
  article header's button on narrow screens (the theme's drawer listens to a hidden button).
* `book/_static/scene-lazy.js`: a 3D scene or an animation starts when it comes near the screen
  (its document is a file of its own: book/_ext/lightpages.py).
* lazy math: on the pages of the HTML book MathJax typesets a formula when it comes near the
  screen (MathJax's `ui/lazy` extension, vendored with MathJax), so a chapter with hundreds of
  formulas shows its first screen in about a second instead of after typesetting them all; the
  extension typesets everything before printing. The one-page build that make pdf prints
  typesets everything at once, as before.
"""


def configure(app, config):
    config.html_favicon = config.html_favicon or "book/_static/favicon.svg"
    options = dict(config.html_theme_options or {})
    options.setdefault("navbar_persistent", [])
    options.setdefault("show_toc_level", 2)
    config.html_theme_options = options


# runs after Sphinx's `window.MathJax = {...}` (same priority, added later) and before MathJax
# itself (a deferred script)
LAZY_MATH = ("if (window.MathJax) { MathJax.loader = MathJax.loader || {};"
             " MathJax.loader.load = (MathJax.loader.load || []).concat(['ui/lazy']); }")


def lazy_math(app, pagename, templatename, context, doctree):
    """Load MathJax's lazy typesetting on the HTML book's pages that load MathJax."""
    if (app.builder.name == "html" and app.config.mathjax3_config
            and app.env.get_domain("math").has_equations(pagename)):
        app.builder.add_js_file("", body=LAZY_MATH)


def setup(app):
    app.connect("config-inited", configure)
    app.connect("html-page-context", lazy_math, priority=600)  # after sphinx.ext.mathjax
    app.add_css_file("liedyn.css")
    app.add_js_file("search-snippets.js")
    app.add_js_file("page-toc.js")
    app.add_js_file("scene-lazy.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
