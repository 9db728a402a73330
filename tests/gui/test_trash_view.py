"""Delete moves papers to the Trash; restore and empty it from the sidebar's Trash view."""

from __future__ import annotations

from PySide6.QtCore import Qt

from paperdesk.gui.common import dialogs
from tests.conftest import SEED_PAPERS

from .conftest import select_rows, sidebar_counts


def _trash_page(window):
    window.sidebar.select(("trash", None))
    return window.context.features["review"].trash


def test_delete_key_moves_to_the_trash_and_undo_brings_back(window, seed_lib, qtbot):
    ids = select_rows(window, [0, 2, 5])
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Delete)
    assert seed_lib.trash.ids() and set(seed_lib.trash.ids()) == set(ids)
    assert seed_lib.stats()["papers"] == 190
    assert window.feed.model.rowCount() == 190
    assert not set(ids) & set(window.feed.model.ids())
    assert sidebar_counts(window)["Trash"] == "3"
    window.actions_by_name["undo"].trigger()
    assert seed_lib.trash.ids() == []
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert sidebar_counts(window)["Trash"] == "0"


def test_the_trash_view_restores_selected_papers(window, seed_lib):
    ids = select_rows(window, [1, 3])
    window.actions_by_name["trash"].trigger()
    trash = _trash_page(window)
    assert window.context.features["review"].content.currentWidget() is trash
    assert sorted(trash.ids()) == sorted(ids)
    assert "2 papers" in trash.heading.text()
    trash.table.selectRow(trash.ids().index(ids[0]))
    trash.restore_button.click()
    assert seed_lib.trash.ids() == [ids[1]]
    assert trash.ids() == [ids[1]]
    assert sidebar_counts(window)["Trash"] == "1"
    window.actions_by_name["undo"].trigger()  # the restore is undone: back in the trash
    assert sorted(seed_lib.trash.ids()) == sorted(ids)
    assert sorted(trash.ids()) == sorted(ids)
    window.sidebar.select(("all", None))
    assert window.context.features["review"].content.currentWidget() is window.feed.view
    assert window.feed.model.rowCount() == 191


def test_emptying_the_trash_asks_first_and_can_be_undone(window, seed_lib, monkeypatch):
    ids = select_rows(window, [0, 1, 2, 3])
    kept = seed_lib.papers(ids, with_notes=True)
    window.edit(seed_lib.curation.add_tags, ids[:2], ["keep-me"])
    window.actions_by_name["trash"].trigger()
    trash = _trash_page(window)
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a: asked.append(a[2]) or False)
    trash.empty_button.click()
    assert "4 papers" in asked[0]
    assert sorted(seed_lib.trash.ids()) == sorted(ids)  # said no: nothing removed
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    trash.empty_button.click()
    assert seed_lib.trash.ids() == []
    assert seed_lib.papers(ids) == []
    assert seed_lib.stats()["papers"] == 189
    assert trash.ids() == [] and trash.heading.text() == "The trash is empty"
    assert not trash.empty_button.isEnabled()
    window.actions_by_name["undo"].trigger()
    back = {p["id"]: p for p in seed_lib.papers(ids, with_notes=True)}
    assert set(back) == set(ids)
    assert back[ids[0]]["tags"] == ["keep-me"]
    assert [back[p["id"]]["title"] for p in kept] == [p["title"] for p in kept]
    assert sorted(seed_lib.trash.ids()) == sorted(ids)


def test_restore_all_brings_every_paper_back(window, seed_lib):
    select_rows(window, list(range(10)))
    window.actions_by_name["trash"].trigger()
    trash = _trash_page(window)
    assert len(trash.ids()) == 10
    trash.restore_all_button.click()
    assert seed_lib.trash.ids() == [] and seed_lib.stats()["papers"] == SEED_PAPERS
