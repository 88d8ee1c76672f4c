"""Sphinx extension: let the single-page build (`--builder singlehtml`, used by `make pdf`)
render every node the HTML build renders.

Sphinx looks up the visitors of custom nodes by builder name and falls back to the builder's
format only when no visitor at all is registered under that name. Some extensions register
visitors for "singlehtml", so the "html"-only ones (myst-nb's hidden code cells, for example)
are missing there and the build stops with "unknown node type". Copy them over. Sphinx also
decides per page whether to load MathJax and does not see the chapters' math from the one page
of the single-page build: load every asset there.
"""


def copy_html_handlers(app):
    if app.builder.name != "singlehtml":
        return
    handlers = app.registry.translation_handlers
    single = handlers.setdefault("singlehtml", {})
    for name, pair in handlers.get("html", {}).items():
        single.setdefault(name, pair)
    app.set_html_assets_policy("always")


def setup(app):
    app.connect("builder-inited", copy_html_handlers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
