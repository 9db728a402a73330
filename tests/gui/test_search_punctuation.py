"""The window's search box reads the query language of `paperdesk list`: a term of
punctuation alone is refused there with the same line, and the table keeps its rows."""

from __future__ import annotations

import os

from tests.conftest import SEED_PAPERS


def test_the_search_box_refuses_punctuation_alone_and_keeps_the_rows(window, seed_lib,
                                                                      qtbot):
    expected = seed_lib.search("scaling").ids
    qtbot.keyClicks(window.search_bar.edit, "scaling")
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == len(expected))
    window.search_bar.edit.setText("scaling OR %")
    qtbot.waitUntil(lambda: window.search_bar.message.isVisible())
    assert window.search_bar.message.text().startswith(
        "⚠ '%' at position 12 has no letters or digits to search for")
    assert window.feed.model.rowCount() == len(expected) < SEED_PAPERS  # not every paper
    if os.environ.get("PAPERDESK_SHOTS"):
        window.grab().save(os.path.join(os.environ["PAPERDESK_SHOTS"], "search-punct.png"))
    window.search_bar.edit.setText("scaling %")  # between words: a separator
    qtbot.waitUntil(lambda: not window.search_bar.message.isVisible())
    assert window.feed.model.rowCount() == len(expected)
