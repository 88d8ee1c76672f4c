"""References that name their target read as words in JupyterLab too.

jupyterlab-myst renders one document at a time: a `{ref}` to a label of the same document shows
the title of its target, but a `{ref}` without text whose label lies in another document (a
chapter, an appendix) shows the bare label ("sec-multibody-models"). Sphinx resolves both. So a
reference into another document carries its text, ``{ref}`Multibody models
<sec-multibody-models>` ``, and both renderers show words.

The documents are the chapters (their markdown cells), the preface and the appendix pages (each
with the files it includes); a document's targets are its ``(label)=`` lines and the
``:label:``/``:name:`` options of its directives.
"""
import re

from common import ROOT, notebook_cells

TARGET = re.compile(r"^\((?P<label>[^)\s]+)\)=\s*$|^:(?:label|name):\s*(?P<option>\S+)\s*$", re.M)
REF = re.compile(r"\{ref\}`(?P<body>[^`]*)`")
INCLUDE = re.compile(r"^[`:]{3,}\{include\}\s+(\S+)", re.M)


def documents():
    """{name: markdown} of every document of the book's sources."""
    docs = {path.stem: "\n\n".join(notebook_cells(path, "markdown"))
            for path in sorted((ROOT / "book").glob("*.ipynb"))}
    for path in [ROOT / "book" / "intro.md", *sorted((ROOT / "book" / "appendix").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        parts = [text] + [(path.parent / name).read_text(encoding="utf-8")
                          for name in INCLUDE.findall(text)]
        docs[str(path.relative_to(ROOT / "book").with_suffix(""))] = "\n\n".join(parts)
    return docs


def targets(markdown):
    """The labels a document defines."""
    return {m["label"] or m["option"] for m in TARGET.finditer(markdown)}


def bare_cross_document_refs(docs):
    """(document, label, documents defining it) of every `{ref}` without text whose label is
    not defined in its own document but in another one."""
    defined = {name: targets(text) for name, text in docs.items()}
    found = []
    for name, text in docs.items():
        for m in REF.finditer(text):
            label = m["body"].strip()
            if "<" in label or label in defined[name]:
                continue
            owners = sorted(other for other, labels in defined.items() if label in labels)
            if owners:
                found.append((name, label, owners))
    return found


def test_no_bare_reference_into_another_document():
    found = bare_cross_document_refs(documents())
    assert not found, ("give these references their text, {ref}`Title <label>` (JupyterLab "
                       f"shows the bare label otherwise): {found[:10]} ({len(found)} in all)")


def test_the_check_finds_a_planted_bare_reference():
    docs = {"04_multibody_models": "(sec-multibody-models)=\n# Multibody models\n\n"
                                   "Below, {ref}`sec-multibody-models` itself.\n",
            "05_inverse_dynamics": "As in {ref}`sec-multibody-models`, and in\n"
                                   "{ref}`Multibody models <sec-multibody-models>`.\n"
                                   "```{math}\n:label: eq-here\nx\n```\n{ref}`eq-here`\n",
            "appendix/glossary": "Tree: {ref}`sec-multibody-models`; {ref}`genindex`.\n"}
    assert bare_cross_document_refs(docs) == [
        ("05_inverse_dynamics", "sec-multibody-models", ["04_multibody_models"]),
        ("appendix/glossary", "sec-multibody-models", ["04_multibody_models"])]


def test_documents_are_the_chapters_preface_and_appendices():
    docs = documents()
    assert "12_control" in docs and "intro" in docs and "appendix/errata" in docs
    assert "sec-errata" in targets(docs["appendix/errata"])
    assert "sec-multibody-models" in targets(docs["04_multibody_models"])
