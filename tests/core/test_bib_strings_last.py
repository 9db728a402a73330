"""``@string``: as BibTeX and biber read a file, a macro name ignores case and the
definition in force where an entry stands is the one used (here the last before
the entry; ``test_bib_strings_order.py`` has entries between two definitions);
every redefinition is reported with its line, and the export writes the
definition the entries were read with."""

from __future__ import annotations

BIB = """@string{hax = "J. V. Haxby"}
@string{jn = "J. Neurosci."}
@string{HAX = "James V. Haxby"}
@article{a1, author = hax, title = {Faces}, journal = jn, year = 2001}
@string{jn = "Journal of Neuroscience"}
"""


def test_the_last_definition_wins_whatever_its_case(lib, tmp_path):
    path = tmp_path / "strings.bib"
    path.write_text(BIB, encoding="utf-8")
    report = lib.import_paths([path])[0]
    paper = lib.paper(lib.db.execute("SELECT id FROM papers").fetchone()[0])
    assert paper["authors"] == ["James V. Haxby"]
    assert report.skipped == []
    redefined = [w for w in report.warnings if "defines a macro name again" in w]
    assert [w.split(": @string")[0] for w in redefined] == ["strings.bib: line 3",
                                                            "strings.bib: line 5"]
    exported = lib.bibtex.export()
    assert '@string{HAX = "James V. Haxby"}' in exported
    assert '@string{jn = "Journal of Neuroscience"}' in exported
    assert "J. V. Haxby" not in exported and '"J. Neurosci."' not in exported
