"""The README's promises: its example runs; the API appendix documents every name of ld.

The example (the ```python blocks, executed in order in one namespace) asserts its own
results (tau = M ddq + b, aba inverts rnea), so a change of the public face that breaks
the first thing a newcomer runs fails here.
"""
import importlib
import re

import pytest

import liedyn

from common import ROOT

FENCE = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def python_blocks(text):
    """The source of every ```python block of a markdown text, in order."""
    return FENCE.findall(text)


def test_python_blocks_are_found():
    text = "a\n```python\nx = 1\n```\n```bash\nmake\n```\n```python\ny = x\n```\n"
    assert python_blocks(text) == ["x = 1\n", "y = x\n"]


def readme_source():
    blocks = python_blocks((ROOT / "README.md").read_text())
    assert blocks, "README.md has no ```python block"
    return "\n".join(blocks)


def run_readme(source):
    exec(compile(source, "README.md", "exec"), {"__name__": "__readme__"})


def test_readme_example_runs(capsys):
    source = readme_source()
    for name in ("ld.load_robot", "ld.rnea", "ld.aba", "ld.mass_matrix", "assert"):
        assert name in source, f"the README's example no longer shows {name}"
    run_readme(source)
    assert "aba(rnea(ddq)) = ddq" in capsys.readouterr().out


def test_the_example_checks_itself():
    """The example's asserts can fail: with tau doubled, aba no longer gives ddq."""
    source = readme_source()
    call = "ld.aba(model, q, dq, tau)"
    assert call in source, f"the README's example no longer calls {call}"
    with pytest.raises(AssertionError):
        run_readme(source.replace(call, "ld.aba(model, q, dq, 2 * tau)"))


def api_page():
    return (ROOT / "book" / "appendix" / "api.md").read_text()


def test_the_api_appendix_documents_every_name_of_ld():
    """As the README says: every name of liedyn.__all__ has its entry, under its public
    name (a module, ld.lie or ld.robots, has its section)."""
    documented = set(re.findall(r"^\.\. auto(?:function|class|module):: (\S+)$",
                                api_page(), re.M))
    missing = [n for n in liedyn.__all__ if f"liedyn.{n}" not in documented]
    assert not missing, f"book/appendix/api.md lacks {missing}"


def test_the_modules_part_does_not_document_a_public_name_again():
    """A module's section documents the rest: the names that ld shows are excluded."""
    public = {id(getattr(liedyn, n)) for n in liedyn.__all__}
    blocks = re.findall(r"^\.\. automodule:: (\S+)\n((?:   .*\n)*)", api_page(), re.M)
    assert blocks
    for name, options in blocks:
        if not re.search(r"^   :members:\s*$", options, re.M):
            continue                                    # no members, or a chosen few
        module = importlib.import_module(name)
        shown = {n for n in module.__all__ if id(getattr(module, n)) in public}
        excluded = re.search(r":exclude-members:((?:.*\n)*)", options)
        excluded = {n.strip() for n in excluded[1].split(",")} if excluded else set()
        assert shown <= excluded, f"{name}: exclude {sorted(shown - excluded)}"
