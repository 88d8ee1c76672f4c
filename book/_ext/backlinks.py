"""Sphinx extension: end the API entry of each liedyn function with the chapters deriving it.

The chapters come from the same single source of truth as the equation-to-code map
(`scripts/equation_map.py`): the equations a docstring cites, and the chapter whose labels
define those equations. A docstring that already says "Derived in" is left alone.
"""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def chapters_of_functions():
    """{qualified name: [chapter docnames]} for every public liedyn function and class."""
    spec = importlib.util.spec_from_file_location("equation_map",
                                                  ROOT / "scripts" / "equation_map.py")
    em = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(em)
    labels, _ = em.book_labels()
    out = {}
    for qual, (_, cites) in em.public_objects().items():
        # labels: {(source, kind, number): (role, label, chapter)}; a citation may carry a 4th
        # field ("inverse"), so match on its first three
        docs = [labels[c[:3]][2] for c in cites if c[:3] in labels]
        if docs:
            out[qual] = list(dict.fromkeys(docs))
    return out


def setup(app):
    cache = {}

    def add_backlink(app, what, name, obj, options, lines):
        if what not in ("function", "class") or any("Derived in" in line for line in lines):
            return
        if not cache:
            cache.update(chapters_of_functions())
        # a public name (liedyn.rnea) is found by its home (inverse_dynamics.rnea)
        docs = cache.get(name) or cache.get(f"{obj.__module__}.{obj.__qualname__}")
        if docs:
            lines += ["", "Derived in " + ", ".join(f":doc:`/{d}`" for d in docs) + "."]

    app.connect("autodoc-process-docstring", add_backlink)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
