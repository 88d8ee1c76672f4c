"""Sphinx extension: an object documented by its public name is found by its home too.

The API page documents ``liedyn.rnea``, the public face (``import liedyn as ld``); the
chapters, the listings and the equation map name ``liedyn.inverse_dynamics.rnea``, where
the function lives. autodoc marks a class documented under another name with
``:canonical:`` (its home), so that both names lead to the one entry; this does the same
for functions, methods and properties. And a reference in such an entry's docstring to
a neighbour in the home module (``:func:`project``` in ``liedyn.Pfaffian``'s docstring)
is looked up there.
"""
import importlib

from sphinx import addnodes
from sphinx.ext import autodoc


class Canonical:
    """autodoc's documenter, plus ``:canonical: home`` under another name than home."""

    def add_directive_header(self, sig):
        super().add_directive_header(sig)
        owner = self.parent if isinstance(self.parent, type) else None
        where = owner or self.object
        home = f"{where.__module__}.{where.__qualname__}"
        if owner:
            home += "." + self.objpath[-1]
        if home != self.fullname and not self.options.no_index:
            self.add_line(f"   :canonical: {home}", self.get_sourcename())


class FunctionDocumenter(Canonical, autodoc.FunctionDocumenter):
    pass


class MethodDocumenter(Canonical, autodoc.MethodDocumenter):
    pass


class PropertyDocumenter(Canonical, autodoc.PropertyDocumenter):
    pass


def documented_object(node):
    """The Python object whose entry holds `node`, or None."""
    while node is not None and not isinstance(node, addnodes.desc):
        node = node.parent
    sig = next(iter(node.findall(addnodes.desc_signature)), None) if node else None
    if sig is None or not sig.get("module"):
        return None
    try:
        obj = importlib.import_module(sig["module"])
        for part in sig["fullname"].split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return obj


def resolve_in_home_module(app, env, node, contnode):
    """Resolve a Python reference that failed, in the home module of its entry."""
    if node.get("refdomain") != "py" or not node.get("py:module"):
        return None
    obj = documented_object(node)
    home = getattr(obj, "__module__", None) or getattr(
        getattr(obj, "fget", None), "__module__", None)
    if not home or home == node["py:module"]:
        return None
    module, node["py:module"] = node["py:module"], home
    try:
        return env.get_domain("py").resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], node["reftarget"], node,
            contnode)
    finally:
        node["py:module"] = module


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    for documenter in (FunctionDocumenter, MethodDocumenter, PropertyDocumenter):
        app.add_autodocumenter(documenter, override=True)
    app.connect("missing-reference", resolve_in_home_module)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
