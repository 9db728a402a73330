"""The search box shares the query language's core: `X` and `-X` split the table, and a
query beyond the limits says where, in one line, and keeps the last good results."""

from __future__ import annotations

import pytest

from tests.curated import found
from tests.gui.screenshots import save_screenshot


def search(window, qtbot, lib, query: str) -> set[int]:
    """Type ``query`` in the search box and wait until the table lists what
    ``lib.search`` finds; those ids."""
    expected = found(lib, query)
    window.search_bar.edit.setText(query)
    qtbot.waitUntil(lambda: window.feed.model.complete and set(window.feed.model.ids()) == expected)
    return expected


@pytest.mark.parametrize("query", ["has:upvotes", "org:deep", "year:2023"])
def test_a_query_and_its_negation_split_the_table(window, seed_lib, qtbot, query):
    total = len(seed_lib.search("").ids)
    counts = {}
    for text in (query, f"-{query}"):
        search(window, qtbot, seed_lib, text)
        counts[text] = window.feed.model.rowCount()
    assert counts[query] + counts[f"-{query}"] == total
    assert counts[f"-{query}"] > counts[query] or query == "year:2023"


def test_a_query_nested_too_deeply_says_where(window, seed_lib, qtbot, tmp_path):
    window.search_bar.edit.setText("-has:upvotes")
    qtbot.waitUntil(lambda: window.feed.model.rowCount()
                    == len(seed_lib.search("-has:upvotes").ids))
    shown = window.feed.model.rowCount()
    window.search_bar.edit.setText("(" * 100 + "model" + ")" * 100)
    qtbot.waitUntil(lambda: window.search_bar.message.isVisible())
    text = window.search_bar.message.text()
    assert "nests too deeply at position 65" in text and "\n" not in text
    assert window.feed.model.rowCount() == shown  # the last good results stay
    save_screenshot(window, tmp_path, "search-too-deep.png")
    window.search_bar.edit.setText("upvotes>99999999999999999999")
    qtbot.waitUntil(lambda: "goes from 0 to 9223372036854775807" in
                    window.search_bar.message.text())


def test_the_deepest_query_allowed_runs_in_the_search_box(window, seed_lib, qtbot):
    from paperdesk.core.search.query_parse import MAX_DEPTH

    query = "(" * (MAX_DEPTH - 1) + "-has:upvotes" + ")" * (MAX_DEPTH - 1)
    assert len(search(window, qtbot, seed_lib, query)) > 100
    assert not window.search_bar.message.isVisible()
