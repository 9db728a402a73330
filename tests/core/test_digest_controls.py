"""Control and invisible characters in a digest: read as spaces (or dropped), never as
line breaks, and never stored or exported.

A digest's lines end at LF, CRLF, or CR in a file whose lines end in CR; a stray CR,
a vertical tab, a form feed, FS/GS/RS, NEL or U+2028/9 inside a line is a space (each
of them a line break to ``str.splitlines``: one in a metadata line once made it a
paper's title). Controls become spaces and invisible format characters (zero-width,
bidirectional controls, BOM) are dropped, as the Hub's text is
(``tests/core/test_export_controls.py``: nor do the exports write them).
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from paperdesk.core.hub.hub_record import clean
from paperdesk.core.model.digest import parse_digest
from paperdesk.core.model.text import one_line, printable
from tests.digest_files import HEADER, paper

# What no stored or exported text may hold: C0 but tab and newline, DEL, C1, the
# line/paragraph separators and the invisible format characters.
BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200b\u200e\u200f"
                 "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
# Every character str.splitlines breaks at, but LF and CR.
BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

ENTRIES = [
    ("Zero\u200bwidth and \u202ebidi\u202c \u2066isolated\u2069 title",
     "An abstract\x0bwith a vertical tab,\x0ca form feed and\x1bESC\x7fDEL\x85NEL.",
     "  • 3 authors\n·\nOct 29, 2024 5"),
    ("Control A\x0bB\x1cC\x1bD\x7fE\x9bF title", "Another abstract\u200f here.",
     "evil-org Evil\rOrg\x1d\u2028Inc\u200e\n·\nOct 29, 2024 7"),
    ("Split\x1eNot\u2029Here \ufeffplease\x0c", "Third\x1cabstract\rwith a stray CR.",
     "  • 2 authors\n·\nOct\x0c28, 2024\x0b4"),
]
CLEAN = [
    ("Zerowidth and bidi isolated title",
     "An abstract with a vertical tab, a form feed and ESC DEL NEL."),
    ("Control A B C D E F title", "Another abstract here."),
    ("Split Not Here please", "Third abstract with a stray CR."),
]


# Ordinary papers after them: a file of controls alone would be refused as binary.
FILLER = [(*paper(n), "  • 4 authors\n·\nOct 28, 2024 1") for n in range(1, 25)]


def digest_text(entries=ENTRIES) -> str:
    blocks = ["Oct 30, 2024"] + ["\n\n".join(entry) for entry in [*entries, *FILLER]]
    return HEADER + "\n\n".join(blocks) + "\n"


def test_printable_spaces_controls_and_drops_invisible_characters():
    assert printable("plain text, 50\\% of $x$\n\tkept") == "plain text, 50\\% of $x$\n\tkept"
    assert printable("A\x0bB\x1cC\x1bD\x7fE\x85F\u2028G") == "A B C D E F G"
    assert printable("a\r\nb\rc\x0cd") == "a\nb\nc d"  # CR and CRLF: newlines
    assert printable("Zero\u200bwidth \u202ebidi\u202c \u2066x\u2069\ufeff\u200e") == (
        "Zerowidth bidi x")
    # the joiners stay where they join letters of a script that needs them
    assert printable("x\u200dy \u0915\u094d\u200d\u0937 \u200cé") == "xy \u0915\u094d\u200d\u0937 é"
    assert one_line(" a\x0b\x0c b\u2029c ") == "a b c"
    long_text = "x" * 100 + "\x1b" + "é" * 100 + "\u200b"  # past the short-text check
    assert printable(long_text) == "x" * 100 + " " + "é" * 100
    assert printable("y" * 100 + "\x7f") == "y" * 100 + " "


def test_the_hub_cleans_its_text_with_the_same_rule():
    assert clean("Evil\r\x1b[2J\u2028Org \u200bZ\u202e", "organization") == "Evil [2J Org Z"


def test_controls_in_a_digest_are_spaces_and_invisible_characters_dropped():
    digest = parse_digest(digest_text().encode(), "d.txt", 2024)
    assert [(e.title, e.abstract) for e in digest.entries] == CLEAN + [p[:2] for p in FILLER]
    assert digest.warnings == []
    first, second, third = digest.entries[:3]
    assert (first.author_count, first.upvotes) == (3, 5)
    assert (second.organization_handle, second.organization, second.upvotes) == (
        "evil-org", "Evil Org Inc", 7)
    assert (third.author_count, third.published, third.upvotes) == (2, date(2024, 10, 28), 4)
    for e in digest.entries:
        assert not BAD.search(e.title + e.abstract + e.meta_raw + e.published_raw
                              + (e.organization or "") + (e.organization_handle or ""))


@pytest.mark.parametrize("brk", [*BREAKS, "\r"])
def test_no_character_inside_a_line_splits_an_entry(brk):
    """A break inside a title, an abstract and the organisation line: still three
    entries, the metadata read as metadata, never as the next paper's title."""
    entries = [(f"First{brk}title", f"First{brk}abstract.",
                f"evil-org Evil{brk}Org\n·\nOct 29, 2024 5"),
               ("Second title", "Second abstract.", "  • 2 authors\n·\nOct 29, 2024 7")]
    for line_end in ("\n", "\r\n"):
        data = digest_text(entries).replace("\n", line_end).encode()
        digest = parse_digest(data, "d.txt", 2024)
        assert [(e.title, e.abstract) for e in digest.entries] == [
            ("First title", "First abstract."), ("Second title", "Second abstract."),
            *(p[:2] for p in FILLER)]
        assert digest.entries[0].organization == "Evil Org"
        assert digest.entries[1].upvotes == 7 and digest.warnings == []


def test_a_file_whose_lines_end_in_cr_still_reads():
    """CR is the line end of a file that has (nearly) no other: the old Mac way."""
    entries = [(t, a, "  • 2 authors\n·\nOct 29, 2024 7") for t, a in
               [("First title", "First abstract."), ("Second title", "Second abstract.")]]
    text = digest_text(entries).replace("\n", "\r")
    for data in (text, text + "\n"):  # one newline at the end changes nothing
        digest = parse_digest(data.encode(), "d.txt", 2024)
        assert [e.title for e in digest.entries[:2]] == ["First title", "Second title"]
        assert [e.upvotes for e in digest.entries] == [7, 7] + [1] * len(FILLER)


def _import(lib, tmp_path):
    path = tmp_path / "controls.txt"
    path.write_bytes(digest_text().encode())
    (report,) = lib.import_paths([path])
    papers = 3 + len(FILLER)
    assert (report.status, report.entries, report.new_papers) == ("imported", papers, papers), (
        report)
    return report


def test_a_digest_imports_to_clean_text(lib, tmp_path):
    _import(lib, tmp_path)
    rows = lib.db.execute("SELECT title, abstract, coalesce(organization, ''), "
                          "coalesce(organization_handle, '') FROM papers ORDER BY id").fetchall()
    assert [(t, a) for t, a, _, _ in rows[:3]] == CLEAN
    assert rows[1][2:] == ("Evil Org Inc", "evil-org")
    seen = lib.db.execute("SELECT raw_title, coalesce(meta_raw, ''), "
                          "coalesce(organization, ''), coalesce(published_raw, '') "
                          "FROM sightings").fetchall()
    assert len(seen) == 3 + len(FILLER) and not any(BAD.search("".join(row)) for row in seen)


def test_the_arabic_letter_mark_and_tag_characters_are_dropped_too():
    from paperdesk.core.model.text import kept_raw, printable

    text = "a\u061cb\U000e0041c\u180ed\ufff9e"
    assert printable(text) == "abcde" and kept_raw(text + "\r\n") == "abcde\r\n"
