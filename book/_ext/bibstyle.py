"""Sphinx extension: the bibliography labelled and sorted by author and year.

The text cites author-year, "Kim (2012)", "[From, 2012]" (`bibtex_reference_style:
author_year`); pybtex's default labels are alphabetic ("[Kim12]"), so the list at the end would
not match what the text says. This registers the pybtex style "authoryear": the `unsrt`
formatting (which prints each entry's DOI and URL), entries sorted by author, year and title,
each labelled "Kim 2012", "Li and Wu 2010", "Carpentier et al. 2019", with a, b suffixes should
two labels coincide. Selected with `bibtex_default_style: authoryear`.
"""
from collections import Counter

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting.author_year_title import SortingStyle


def last_names(entry):
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [" ".join(p.last_names) for p in people]
    if not names:  # no author: the key field, else the start of the title
        return entry.fields.get("key") or entry.fields.get("title", "").split(":")[0]
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def strip_braces(text):
    return text.replace("{", "").replace("}", "")


class AuthorYearLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        labels = [strip_braces(f"{last_names(e)} {e.fields.get('year', 'n.d.')}")
                  for e in sorted_entries]
        seen, total = Counter(), Counter(labels)
        for label in labels:
            if total[label] > 1:
                seen[label] += 1
                label += "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            yield label


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = SortingStyle


def setup(app):
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
