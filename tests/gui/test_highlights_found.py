"""The window's search finds a paper by the words of its highlights, as it finds notes,
and follows a highlight's comment edited and its undo."""

from __future__ import annotations

import pytest

from tests.reader_pdf import PAGE3_PHRASE, attach, reader_pdf

QUAD = [[72.0, 700.0, 300.0, 700.0, 72.0, 688.0, 300.0, 688.0]]


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return reader_pdf(tmp_path_factory.mktemp("pdf"), pages=8, tex=False)


def test_the_search_box_finds_highlight_text_and_comments(window, pdf):
    lib = window.context.lib
    pid = lib.search("").ids[5]
    aid = attach(lib, pid, pdf)
    hid = lib.highlights.add(aid, 2, QUAD, PAGE3_PHRASE, comment="hobbledehoy").result \
        .highlight_id
    window.feed.set_query("hobbledehoy")
    assert window.feed.model.ids() == [pid]
    window.feed.set_query("hobbledehoy has:highlights")
    assert window.feed.model.ids() == [pid]
    edited = lib.highlights.set_comment(hid, "lollygag")
    window.feed.set_query("lollygag")
    assert window.feed.model.ids() == [pid]
    lib.undo(edited.undo)
    window.feed.set_query("lollygag")
    assert window.feed.model.ids() == []
    window.feed.set_query("hobbledehoy")
    assert window.feed.model.ids() == [pid]
