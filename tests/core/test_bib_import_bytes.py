"""A .bib file's bytes are let go once its entries are written: no frame of the import
holds them while the new papers' duplicate check runs (for a 100,000-entry file, 80 to
140 MB more at the import's peak)."""

from __future__ import annotations

import sys

from paperdesk.core.importing import bibtex_import, importer
from paperdesk.core.importing.importer import import_file
from paperdesk.core.library import Library

BIB = "".join(f"@article{{k{i},\n  title = {{A Study of Things {i}}},\n  author = {{Doe, Jane}},"
              f"\n  year = {{20{i % 20:02d}}}\n}}\n\n" for i in range(300))


def _frames_holding(data: bytes) -> list[str]:
    """The functions up the stack with a local that is ``data`` itself."""
    frame = sys._getframe(1)
    names = []
    while frame is not None:
        if any(value is data for value in frame.f_locals.values()):
            names.append(frame.f_code.co_name)
        frame = frame.f_back
    return names


def test_no_frame_holds_the_files_bytes_during_the_duplicate_check(tmp_path, monkeypatch):
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    read: list[bytes] = []
    held: list[list[str]] = []

    def reading(*args, _read=importer._read, **kwargs):
        read.append(_read(*args, **kwargs))
        return read[-1]

    def checking(lib, ids, *args, _note_new=bibtex_import.note_new):
        held.append([n for n in _frames_holding(read[0]) if n != "reading"])
        return _note_new(lib, ids, *args)

    monkeypatch.setattr(importer, "_read", reading)
    monkeypatch.setattr(bibtex_import, "note_new", checking)
    with Library.open(tmp_path / "lib.sqlite") as lib:
        report = import_file(lib, path)
        assert report.status == "imported" and report.new_papers == 300
        assert lib.stats()["papers"] == 300
    assert held == [[]]
