"""One keystroke compiles its query once: the table's listing, its count, its check for
ranked words and the hints under the box read the same compiled query."""

from __future__ import annotations

from PySide6.QtCore import Qt

from paperdesk.core.search import query
from tests.curated import found


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
    qtbot.waitUntil(lambda: window.model.complete
                    and set(window.model.ids()) == found(seed_lib, "languag"))
    del parsed[:]
    qtbot.keyClick(edit, Qt.Key.Key_E)
    expected = set(seed_lib.search("language").ids)
    qtbot.waitUntil(lambda: window.model.complete and set(window.model.ids()) == expected)
    assert parsed.count("language") == 1, parsed
