"""Sphinx extension: link the caption of each library listing to its API entry and source.

A listing in a chapter is the paragraph "**Listing** `liedyn.module.function` ..." followed by a
fenced code block (written by scripts/listings.py). In JupyterLab the caption stays plain
markdown; in the HTML book this extension turns the name into a link to the function's entry
on the API page (when it has one) and appends a link to its highlighted source (viewcode),
and marks the paragraph with the class `listing-caption` for the stylesheet.
"""
from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)


def listing_captions(doctree):
    """(paragraph, literal) pairs of every listing caption in a doctree."""
    for para in doctree.findall(nodes.paragraph):
        kids = [k for k in para.children if not (isinstance(k, nodes.Text) and not k.strip())]
        if len(kids) >= 2 and isinstance(kids[0], nodes.strong) \
                and kids[0].astext() == "Listing" and isinstance(kids[1], nodes.literal) \
                and kids[1].astext().startswith("liedyn."):
            yield para, kids[1]


def source_page(env, name):
    """(module page, anchor) of the viewcode listing of `name`, or None."""
    modules = getattr(env, "_viewcode_modules", {})
    module, _, qual = name.rpartition(".")
    while module:
        entry = modules.get(module)
        if entry and qual in entry[2]:   # (code, tags, used, refname): documented objects
            return "_modules/" + module.replace(".", "/"), qual
        module, _, head = module.rpartition(".")
        qual = head + "." + qual
    return None


def link(app, doctree, docname):
    if app.builder.format != "html":
        return
    py = app.env.get_domain("py")
    for para, literal in listing_captions(doctree):
        name = literal.astext()
        para["classes"].append("listing-caption")
        if name in py.objects:
            target = py.objects[name]
            ref = nodes.reference("", "", internal=True, refuri=(
                app.builder.get_relative_uri(docname, target.docname) + "#" + target.node_id))
            ref["classes"].append("listing-api")
            literal.replace_self(ref)
            ref += literal
        page = source_page(app.env, name)
        if page:
            uri = app.builder.get_relative_uri(docname, page[0]) + "#" + page[1]
            para += nodes.Text(" ")
            para += nodes.reference("", "[source]", internal=True, refuri=uri,
                                    classes=["listing-source"])


def setup(app):
    app.connect("doctree-resolved", link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
