"""One keystroke compiles its query once: the table's listing, its count, its check for
ranked words and the hints under the box read the same compiled query."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from paperdesk.core.search import query
from tests.curated import found
from tests.work import statements


def test_a_keystroke_compiles_its_query_once(window, seed_lib, qtbot, monkeypatch):
    parsed: list[str] = []
    parse = query.parse

    def counted(text: str):
        parsed.append(text)
        return parse(text)

    monkeypatch.setattr(query, "parse", counted)
    query._compiled.cache_clear()
    edit = window.search_bar.edit
    edit.setText("languag")
    qtbot.waitUntil(lambda: window.feed.model.complete
                    and set(window.feed.model.ids()) == found(seed_lib, "languag"))
    del parsed[:]
    qtbot.keyClick(edit, Qt.Key.Key_E)
    expected = set(seed_lib.search("language").ids)
    qtbot.waitUntil(lambda: window.feed.model.complete and set(window.feed.model.ids()) == expected)
    assert parsed.count("language") == 1, parsed


@pytest.mark.parametrize("typed, key, kept", [("model", Qt.Key.Key_S, True),
                                              ("languag", Qt.Key.Key_E, False)])
def test_a_keystroke_reads_the_current_paper_at_most_once(window, seed_lib, qtbot, typed,
                                                          key, kept):
    """The paper selected stays selected (kept), or the first row is selected (none
    was listed before): the detail pane reads it at most once."""
    text = typed + key.name[-1].lower()
    edit = window.search_bar.edit
    edit.setText(typed)
    qtbot.waitUntil(lambda: window.feed.model.complete
                    and set(window.feed.model.ids()) == found(seed_lib, typed))
    expected = set(seed_lib.search(text).ids)
    if kept:
        current = sorted(set(seed_lib.search(typed).ids) & expected)[0]  # listed by both
        window.feed.select_ids([current], current)
        qtbot.waitUntil(lambda: window.detail.ids == [current])
    else:
        assert window.feed.model.rowCount() == 0
    with statements(seed_lib.db.conn) as ran:
        qtbot.keyClick(edit, key)
        qtbot.waitUntil(lambda: window.feed.query == text and window.feed.model.complete
                        and set(window.feed.model.ids()) == expected)
    notes = [q for q in ran if "FROM notes WHERE paper_id IN" in q]
    # kept: the pane shows it already, unchanged; else read once (twice before: the
    # first row selected, then the selection told again)
    assert len(notes) == (0 if kept else 1), notes
    assert window.feed.current_id() is not None and window.detail.ids == [window.feed.current_id()]
