"""Every function and class that ``liedyn`` exports (``liedyn.__all__``) is annotated:
every parameter and the return of each function, of each class's ``__init__`` and of its
public methods and properties. The types are those of ``liedyn/_types.py``; mypy checks
them against the code (``make lint``, ``make test``).
"""
import inspect

import liedyn


def methods(cls):
    """The public methods, properties and ``__init__`` a liedyn class has, its own or
    inherited from another liedyn class (``Exception.__init__`` is Python's)."""
    for name, value in inspect.getmembers(cls):
        if name.startswith("_") and name != "__init__":
            continue
        f = value.fget if isinstance(value, property) else value
        if inspect.isfunction(f) and f.__module__.startswith("liedyn"):
            yield name, f


def exported(namespace):
    """``(name, function)`` for every function of ``namespace.__all__`` and every
    method of its classes."""
    for name in namespace.__all__:
        obj = getattr(namespace, name)
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj):
            for method, f in methods(obj):
                yield f"{name}.{method}", f


def unannotated(f):
    """The parameters of ``f`` without an annotation, and ``return`` if it has none."""
    sig = inspect.signature(f)
    missing = [p.name for p in sig.parameters.values()
               if p.name not in ("self", "cls") and p.annotation is p.empty]
    return missing + (["return"] if sig.return_annotation is sig.empty else [])


def test_every_exported_function_and_class_is_annotated():
    found = dict(exported(liedyn))
    assert {"rnea", "Model.__init__", "Model.add_body", "Revolute.S",
            "Trajectory.__init__"} <= set(found)
    missing = {name: unannotated(f) for name, f in found.items() if unannotated(f)}
    assert not missing, f"exported without annotations: {missing}"


def test_a_planted_unannotated_function_is_found(monkeypatch):
    def planted(model, q: int) -> int:
        return q

    class Planted:
        def __init__(self, x: int) -> None:
            self.x = x

        def method(self, y):
            return y

    monkeypatch.setattr(liedyn, "planted", planted, raising=False)
    monkeypatch.setattr(liedyn, "Planted", Planted, raising=False)
    monkeypatch.setattr(liedyn, "__all__", [*liedyn.__all__, "planted", "Planted"])
    Planted.__module__ = planted.__module__ = "liedyn.planted"
    Planted.method.__module__ = Planted.__init__.__module__ = "liedyn.planted"
    missing = {name: unannotated(f) for name, f in exported(liedyn) if unannotated(f)}
    assert missing == {"planted": ["model"], "Planted.method": ["y", "return"]}
