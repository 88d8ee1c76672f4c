"""The bibliography and the glossary: what a reader needs to find a source or a definition.

* every entry of book/references.bib names its authors and gives a DOI, a URL or an ISBN, so a
  reader can find it (no anonymous, untraceable entry);
* the pybtex style of book/_ext/bibstyle.py labels entries by author and year, as the text cites
  them ("Kim 2012"), not alphabetically ("Kim12"); an undated source (Zhang's lecture: its slides
  give no year) is "n.d.", not a guessed year;
* a paper in conference proceedings is an @inproceedings with its booktitle, a journal article an
  @article whose journal is not a conference;
* every source text of the book is in the bibliography, or the preface says why not (the RNEA
  notes: unpublished, unsigned working notes);
* the glossary's statement about the generalized inertia matches chapter 2 and the errata
  (positive semi-definite: a thin rod has twists with zero kinetic energy), checked numerically.
"""
import re

import numpy as np
from pybtex.database import parse_file

from liedyn.inertia import spatial_inertia

from common import ROOT, load_script

BIB = parse_file(str(ROOT / "book" / "references.bib"))


def bibstyle():
    return load_script(ROOT / "book/_ext/bibstyle.py")


def test_every_entry_has_authors_and_a_way_to_find_it():
    for key, entry in BIB.entries.items():
        assert entry.persons.get("author"), f"{key}: no author"
        assert {"doi", "url", "isbn"} & {f.lower() for f in entry.fields}, \
            f"{key}: no DOI, URL or ISBN"


def test_labels_are_author_year():
    style = bibstyle().AuthorYearStyle()
    entries = list(BIB.entries.values())
    labels = dict(zip((e.key for e in entries), style.format_labels(entries), strict=True))
    assert labels["kim2012"] == "Kim 2012"
    assert labels["from2012"] == "From 2012"
    assert labels["carpentier2019"] == "Carpentier et al. 2019"
    assert labels["lynch2017"] == "Lynch and Park 2017"
    assert labels["zhang_lecture9"] == "Zhang n.d."
    assert all(re.fullmatch(r".+ (\d{4}[a-z]?|n\.d\.)", label) for label in labels.values())
    assert len(set(labels.values())) == len(labels)


CONFERENCE = re.compile(r"conference|symposium|workshop|proceedings|congress", re.I)


def test_conference_papers_are_inproceedings():
    for key, entry in BIB.entries.items():
        if entry.type == "article":
            assert not CONFERENCE.search(entry.fields["journal"]), \
                f"{key}: a conference paper is an @inproceedings with a booktitle"
        if entry.type == "inproceedings":
            assert CONFERENCE.search(entry.fields.get("booktitle", "")), \
                f"{key}: no booktitle naming the conference"
    assert BIB.entries["carpentier2019"].type == "inproceedings"


def test_every_source_text_is_cited_or_its_absence_explained():
    """The five source texts (keys of the sources' README): four are entries; the RNEA
    notes cannot be obtained, and the preface says so."""
    sources = {"kim2012", "zhang_lecture9", "murray_li_sastry_ch4", "from2012"}
    assert sources <= set(BIB.entries)
    preface = " ".join((ROOT / "book" / "intro.md").read_text().split())
    if "rnea_notes" not in BIB.entries:
        assert re.search(r"RNEA notes.{0,400}not in the bibliography", preface), \
            "the RNEA notes have no entry and the preface does not say why"


def test_glossary_inertia_is_semi_definite_as_a_rod_shows():
    text = (ROOT / "book" / "appendix" / "glossary.md").read_text()
    entry = text.split("Generalized inertia\n", 1)[1].split("\n\n", 1)[0]
    assert "semi" in entry and "positive-definite" not in entry
    # a thin rod along z: no kinetic energy when it spins about its own axis
    rod = spatial_inertia(2.0, np.zeros(3), np.diag([0.5, 0.5, 0.0]))
    spin = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    assert np.linalg.eigvalsh(rod).min() > -1e-12
    assert abs(spin @ rod @ spin) < 1e-12
