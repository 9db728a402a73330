"""The exports (BibTeX, biblatex, CSL-JSON) write no control character but tab and
newline and no invisible format character, whatever the library holds: a digest read
before PaperDesk cleaned them left them in titles, abstracts and organisations, and
notes keep the CRs and form feeds they were typed with. A control is a space there, a
CR or CRLF a newline, an invisible character dropped (``text.printable``)."""

from __future__ import annotations

import json

import pytest

from tests.core.test_digest_controls import BAD, CLEAN, ENTRIES, _import


def dirty(lib) -> list[int]:
    """Papers holding what a library imported before carries, and notes with CRs and a
    form feed: written with SQL, as an older PaperDesk left them."""
    ids = [r[0] for r in lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 3")]
    with lib.transaction():
        for pid, (title, abstract, meta) in zip(ids, ENTRIES, strict=True):
            org = meta.split("\n")[0] if "•" not in meta else None
            lib.db.execute("UPDATE papers SET title = ?, abstract = ?, organization = ? "
                           "WHERE id = ?", [title, abstract, org, pid])
        lib.db.execute("UPDATE papers SET authors = ? WHERE id = ?",
                       [json.dumps(["Ann\x1b Lee\u200b", "Bo\x7f Chen"]), ids[2]])
    lib.curation.add_tags(ids, ["to\x0bread\u202e"])
    lib.curation.add_note(ids[0], "First line\r\nsecond line\rthird\x0cpage two\x1b.")
    return ids


@pytest.mark.parametrize("style", ["bibtex", "biblatex"])
@pytest.mark.parametrize("ascii", [False, True])
def test_bibtex_exports_write_no_control_or_invisible_character(lib, tmp_path, style, ascii):
    _import(lib, tmp_path)
    dirty(lib)
    text = lib.bibtex.export(style=style, ascii=ascii, notes=True)
    assert not BAD.search(text), BAD.findall(text)
    assert "title = {Zerowidth and bidi isolated title}" in text
    assert "title = {Control {A B C D E F} title}" in text
    assert "annote = {First line\nsecond line\nthird page two .}" in text
    assert "Ann  Lee" in text  # a control in a name: a space


def test_csl_json_writes_no_control_or_invisible_character(lib, tmp_path):
    _import(lib, tmp_path)
    dirty(lib)
    for ascii in (False, True):
        text = lib.bibtex.export(style="csl-json", ascii=ascii, notes=True)
        items = json.loads(text)
        assert not BAD.search(json.dumps(items, ensure_ascii=False))
    assert [(" ".join(i["title"].split()), " ".join(i["abstract"].split()))
            for i in items[:3]] == CLEAN  # a control is a space, a CR a newline
    assert items[0]["note"] == "First line\nsecond line\nthird page two ."
    assert items[1]["author"] == [{"literal": "evil-org Evil Org Inc"}]
    assert items[2]["author"] == [{"family": "Lee", "given": "Ann"},
                                  {"family": "Chen", "given": "Bo"}]
    assert items[0]["keyword"] == "to read"


@pytest.mark.parametrize("as_written", [False, True])
def test_a_bib_files_fields_kept_as_written_lose_their_controls(lib, tmp_path, as_written):
    """An entry of a .bib file is written as it was written, but a form feed, an escape
    or a vertical tab in a field (which stops LaTeX) is a space; CRLF line ends stay."""
    bib = tmp_path / "c.bib"
    entries = ["@misc{a,\r\n  title = {Form\x0cfeed and \x1b escape},\r\n  note = {x\x0by},\r\n"
               "  abstract = {Zero\u200bwidth, \u202eoverride\u202c, mark\u061c, tag\U000e0041}"
               ",\r\n  year = {2020}\r\n}\r\n"]
    entries += [f"@misc{{p{i}, title = {{Plain entry {i} about things}}, year = {{2020}}}}\r\n"
                for i in range(60)]
    bib.write_bytes("".join(entries).encode())
    lib.import_paths([bib])
    [pid] = [r[0] for r in lib.db.execute("SELECT id FROM papers WHERE citekey = 'a'")]
    text = lib.bibtex.export([pid], as_written=as_written)
    assert "\x0c" not in text and "\x1b" not in text and "\x0b" not in text
    assert "note = {x y}" in text and "title = {Form feed and" in text
    assert "Zerowidth, override, mark, tag}" in text and not BAD.search(text)
