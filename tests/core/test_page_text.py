"""A page's text with its boxes: find (case, spacing and ligatures aside), the character
under a point, a passage's text and its quads, one a line."""

from __future__ import annotations

from paperdesk.core.pdf.page_text import PageText, quad_box


def _line(text: str, y: float, x: float = 72.0, width: float = 6.0):
    boxes = [(x + i * width, y, x + (i + 1) * width, y + 10) for i in range(len(text))]
    return text, boxes


def page(*lines: str) -> PageText:
    text, boxes = "", []
    for n, line in enumerate(lines):
        t, b = _line(line, 700.0 - 20 * n)
        if text:
            text += "\r\n"
            boxes += [(0.0, 0.0, 0.0, 0.0)] * 2  # PDFium's line ends have no box
        text += t
        boxes += b
    return PageText(text, tuple(boxes), 595.0, 842.0)


def test_find_every_hit_case_spacing_and_ligatures_aside():
    p = page("An eﬃcient Zebra", "ZEBRA  crossing the zebra")
    hits = p.find("zebra")
    assert [p.text[s:e].casefold() for s, e in hits] == ["zebra"] * 3
    (s, e), = p.find("efficient")
    assert p.text[s:e] == "eﬃcient"
    (s, e), = p.find("zebra zebra")  # across the line end, as one space
    assert p.text_of(s, e) == "Zebra ZEBRA"
    assert p.find("   ") == [] and p.find("quagga") == []


def test_a_passage_over_two_lines_is_two_quads_and_its_text_reads_on():
    p = page("first line here", "second line")
    start = p.text.index("line")
    end = p.text.index("second") + len("second")
    quads = p.quads(start, end)
    assert len(quads) == 2
    left, bottom, _right, top = quad_box(quads[0])
    assert (bottom, top) == (700.0, 710.0) and left == 72.0 + 6 * 6
    assert p.text_of(start, end) == "line here second"


def test_the_character_under_a_point_and_a_selection_either_way():
    p = page("abcdef", "ghijkl")
    assert p.text[p.char_at(72 + 6 * 2 + 1, 705)] == "c"
    assert p.text[p.char_at(500, 685)] == "l"  # past the line's end: its last
    a, b = p.char_at(72 + 6 * 4 + 1, 685), p.char_at(72 + 1, 705)
    s, e = p.selected(a, b)
    assert p.text_of(s, e) == "abcdef ghijk"
    assert PageText("", (), 10, 10).char_at(1, 1) is None
