"""One function puts a file of entries together (``export_file.assemble``), and the
export query's rows have a name (``export_query.ExportRow``)."""

from __future__ import annotations

import pytest

from paperdesk.core.bibtex.export_file import assemble, layout
from paperdesk.core.bibtex.export_query import ExportRow, export_rows


def whole(style: str, blocks: list[str]) -> str:
    """The file as the export wrote it before it streamed: every block joined at once."""
    head, sep, tail, empty = layout(style)
    return head + sep.join(blocks) + tail if blocks else empty


@pytest.mark.parametrize("style", ["bibtex", "biblatex", "csl-json"])
@pytest.mark.parametrize("header", [[], ["@string{a = {A}}"], ["@preamble{x}", "@string{b}"]])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_assemble_writes_the_file_part_by_part_as_one_join_would(style, header, count):
    entries = [f"@misc{{k{n},\n\ttitle = {{T{n}}}\n}}\n" for n in range(count)]
    parts: list[str] = []
    assert assemble(parts.append, style, iter(entries), header) == count
    assert "".join(parts) == whole(style, header + entries)
    raw: list[bytes] = []
    assemble(raw.append, style, (e.encode() for e in entries), [h.encode() for h in header],
             binary=True)
    assert b"".join(raw) == whole(style, header + entries).encode()


def test_the_export_query_gives_named_rows(seed_lib):
    lib = seed_lib
    ids = lib.search().ids[:3]
    lib.curation.add_tags(ids[:1], ["mine"])
    lib.curation.add_note(ids[0], "my words")
    lib.bibtex.freeze(ids[1:2])
    rows = list(export_rows(lib, ids, True, lambda f, m: None, None))
    assert all(isinstance(r, ExportRow) for r in rows)
    assert [r.paper_id for r in rows] == ids
    assert [r.key_frozen for r in rows] == [False, True, False]
    assert rows[0].tags == ["mine"] and rows[0].notes == ["my words"]
    assert rows[0].columns[1] == lib.paper(ids[0])["citekey"]
