"""``@comment`` blocks are kept as written and exported in place: before the entry
they stood before, or after the last entry (JabRef's ``jabref-meta``, which must come
back byte for byte for JabRef to reopen the file with its groups)."""

from __future__ import annotations

from paperdesk.core.library import Library

BIB = """@comment{Read with care: entries below are from the 2019 survey.}

@article{a1,
  title = {First},
  year = {2019}
}

@Comment{jabref-meta: databaseType:bibtex;}

@Comment{jabref-meta: groupstree:
0 AllEntriesGroup:;
1 ExplicitGroup:survey\\;0\\;a1\\;;
}
"""


def test_comments_come_back_in_place_and_byte_for_byte(tmp_path):
    path = tmp_path / "jabref.bib"
    path.write_text(BIB, encoding="utf-8")
    with Library.open(tmp_path / "one.sqlite") as lib:
        lib.import_paths([path])
        first = lib.bibtex.export()
    assert first.index("@comment{Read with care") < first.index("@article{a1,")
    meta = BIB[BIB.index("@Comment{jabref-meta: databaseType"):]
    assert first.endswith(meta)
    (tmp_path / "first.bib").write_text(first, encoding="utf-8")
    with Library.open(tmp_path / "two.sqlite") as lib:
        lib.import_paths([tmp_path / "first.bib"])
        assert lib.bibtex.export() == first
