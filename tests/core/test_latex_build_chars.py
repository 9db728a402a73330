"""Characters of PaperDesk's own text that broke the build, exported and built with the
real tools (pdflatex + bibtex in the plain, alpha and plainnat styles, pdflatex + biber):
noncharacters (biber stopped on any, with no bibliography at all), Greek letters (some
written as they are, which pdflatex stops on), braces in a Hub author's name (alpha's
label opened a group it never closed) and a ``]`` in the title of a paper without
authors (it ended plainnat's ``\\bibitem[...]`` label)."""

from __future__ import annotations

import re
import unicodedata

import pytest

from tests import latex_build as tex
from tests.digest_files import write_entries

NONCHARACTERS = "\ufffe\uffff\ufdd0\ufdef\U0001fffe\U0001ffff\U0010fffe\U0010ffff"
# Every letter of the Greek and Coptic and the Greek Extended blocks.
GREEK = "".join(chr(c) for c in [*range(0x370, 0x400), *range(0x1f00, 0x2000)]
                if unicodedata.category(chr(c)).startswith("L"))


def _entries(done: tex.Build, backend: str) -> int:
    return done.bbl.count("\\bibitem" if backend == "bibtex" else "\\entry{")


def _errors(done: tex.Build) -> list[str]:
    return [line for line in (done.log + done.final).splitlines() if line.startswith("! ")]


def _export_and_build(lib, folder, backend: str, *, ascii: bool = False, style: str = "plain",
                      packages: str = "") -> tex.Build:
    folder.mkdir()
    count = lib.bibtex.export_to(folder / "refs.bib", style="biblatex" if backend == "biber"
                                 else "bibtex", ascii=ascii)
    assert count == lib.stats()["papers"]
    done = tex.build(folder, backend, style=style, packages=packages)
    assert _errors(done) == [], _errors(done)
    assert _entries(done, backend) == count, done.bbl
    return done


@pytest.mark.tex
@pytest.mark.parametrize("backend", ["bibtex", "biber"])
def test_noncharacters_in_a_digest_title_are_dropped_on_the_way_in_and_out(
        lib, tmp_path, backend):
    titles = [f"Non{ch}character title {n}" for n, ch in enumerate(NONCHARACTERS)]
    digest = write_entries(tmp_path, "nc.txt", 3, 4, [(t, f"Abstract {n}.", 3)
                                                      for n, t in enumerate(titles)])
    assert lib.import_paths([digest])[0].new_papers == len(titles)
    stored = [r[0] for r in lib.db.execute("SELECT title FROM papers ORDER BY id")]
    assert stored == [f"Noncharacter title {n}" for n in range(len(titles))]
    with lib.transaction():  # as a library imported before holds them
        for n, title in enumerate(titles):
            lib.db.execute("UPDATE papers SET title = ?, abstract = ? WHERE title = ?",
                           [title, "An abstract" + NONCHARACTERS, f"Noncharacter title {n}"])
    done = _export_and_build(lib, tmp_path / backend, backend)
    assert not re.search(f"[{NONCHARACTERS}]", (tmp_path / backend / "refs.bib").read_text())
    assert "Noncharacter title 7" in done.bbl


def _greek_library(lib, tmp_path):
    chunks = [GREEK[i:i + 40] for i in range(0, len(GREEK), 40)]
    digest = write_entries(tmp_path, "greek.txt", 3, 4, [
        (f"Greek {n} {chunk} {n}", f"The letters {chunk} in an abstract {n}.", 1)
        for n, chunk in enumerate(chunks)])
    assert lib.import_paths([digest])[0].new_papers == len(chunks)
    return lib


@pytest.mark.tex
@pytest.mark.parametrize("ascii", [False, True])
@pytest.mark.parametrize("backend", ["bibtex", "biber"])
def test_every_greek_letter_builds(lib, tmp_path, backend, ascii):
    lib = _greek_library(lib, tmp_path)
    _export_and_build(lib, tmp_path / backend, backend, ascii=ascii)
    written = (tmp_path / backend / "refs.bib").read_text(encoding="utf-8")
    assert not [ch for ch in written if "\u0370" <= ch <= "\u03ff" or "\u1f00" <= ch <= "\u1fff"]


def test_greek_capitals_are_written_alike():
    """Α and Β as Γ is: LaTeX in braces (a letter that looks like a Latin one as that
    letter), never the character itself."""
    from paperdesk.core.bibtex.latex import escape

    for ascii in (False, True):
        assert escape("ΑΒΓ αο Ά ά", ascii=ascii) == (
            "{A}{B}{\\ensuremath{\\Gamma}} {\\ensuremath{\\alpha}}{o} {\\'{A}} "
            "{\\ensuremath{\\acute{\\alpha}}}")


# Hub authors with what BibTeX counts as braces (escaped or not), specials and a "]";
# each alone on a paper (alpha's label is the first three letters of the one name), and
# four on one paper (the first letter of each).
HUB_NAMES = [r"Foo \{ Bar", r"Ann {Lee", r"Bo } Chen", r"x\}y Zed", r"Cy \{Brace\}",
             r"Dee \Back", "Ann Le]e", "Eve 50% Ok", "Fay #1 & Co", "Gus a_b", "Hal ~tilde",
             "Ivy ^hat", "Jo $x$ Math", r"\{Kay\} Lo"]
# Titles of papers without authors: plainnat's label is the ``key`` field, a "]" ended it.
KEYED = ["A ] Bracket Title", "]Leading Bracket", r"Brace \{ and ] both", "x]y"]


def _hub_library(lib, hub):
    from tests.core.test_enrich import ABSTRACT, _add_paper, fast
    from tests.fake_hub import record

    for n, name in enumerate([*HUB_NAMES, None]):
        title = f"Hub Names Paper {n}"
        _add_paper(lib, title, abstract=f"{ABSTRACT} {n}")
        names = [name] if name else HUB_NAMES[:4]
        hub.add(record(f"2403.{n:05d}", title, f"{ABSTRACT} {n}", names, "2024-03-04"))
    for n, title in enumerate(KEYED):
        _add_paper(lib, title, abstract=f"{ABSTRACT} keyed {n}", year=2024 - n)
    assert len(lib.enrich(hub=fast()).result.completed) == len(HUB_NAMES) + 1
    stored = [a for r in lib.db.execute("SELECT authors FROM papers") for a in
              __import__("json").loads(r[0] or "[]")]
    assert set(HUB_NAMES) <= set(stored)
    return lib


def _keyed_keys(lib) -> list[str]:
    """The citation keys of the KEYED papers, which have no authors."""
    return [lib.db.execute("SELECT citekey FROM papers WHERE title = ?", [t]).fetchone()[0]
            for t in KEYED]


def _labels(bbl: str) -> list[str]:
    """The optional arguments of ``\\bibitem[...]`` as LaTeX reads them: up to the first
    ``]`` outside braces."""
    out = []
    for start in [m.end() for m in re.finditer(r"\\bibitem\[", bbl)]:
        depth, i = 0, start
        while not (bbl[i] == "]" and depth == 0):
            depth += {"{": 1, "}": -1}.get(bbl[i], 0) if bbl[i - 1] != "\\" else 0
            i += 1
        out.append(bbl[start:i])
    return out


@pytest.mark.tex
@pytest.mark.parametrize(("backend", "style", "packages"), [
    ("bibtex", "plain", ""), ("bibtex", "alpha", ""), ("bibtex", "plainnat", "natbib"),
    ("biber", "plain", "")])
def test_hub_names_and_titles_used_as_labels_build(lib, hub, tmp_path, backend, style,
                                                   packages):
    lib = _hub_library(lib, hub)
    done = _export_and_build(lib, tmp_path / style, backend, style=style, packages=packages)
    for label in _labels(done.bbl):
        assert label.count("{") == label.count("}"), label  # BibTeX counts \{ too
    if style == "plainnat":  # the labels are whole: the "]" is in them
        assert any(label.startswith("Le{]}e(") for label in _labels(done.bbl)), done.bbl
        # a paper without authors is labelled by its citation key, never by its title
        # (which plainnat printed twice, and \citep showed whole)
        assert not any("Bracket" in label for label in _labels(done.bbl)), done.bbl
        for key in _keyed_keys(lib):
            assert any(label.startswith(f"{key}(") for label in _labels(done.bbl)), key


def test_names_and_keys_are_written_label_safe(lib, hub):
    """What the export writes for BibTeX styles: each escape of a name braced whole, a "]"
    braced; for biblatex as before (biber makes its labels itself)."""
    lib = _hub_library(lib, hub)
    text = lib.bibtex.export()
    assert "author = {Foo {\\textbraceleft} Bar}" in text
    assert "author = {Cy {\\textbraceleft}Brace{\\textbraceright}}" in text
    assert "author = {Ann Le{]}e}" in text
    assert "author = {Ivy {\\^{}}hat}" in text
    for key in _keyed_keys(lib):  # the citation key: short, and never a title
        assert f"key = {{{key}}}" in text
    assert "key = {A" not in text and "key = {Brace" not in text
    biblatex = lib.bibtex.export(style="biblatex")
    assert "author = {Foo \\textbraceleft{} Bar}" in biblatex and "{]}" not in biblatex
