"""The reading queue: one list in the user's order, moved by drag inside the table
(a real QDrag, and a QDropEvent) and by keys, every move undoable, never an import."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDrag, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from paperdesk.gui.curation.queue_view import ids_mime
from paperdesk.gui.table.paper_model import QUEUE, TITLE

from .conftest import select_rows, sidebar_counts


def make_queue(window, lib, n=6) -> list[int]:
    ids = lib.search(sort="title").ids[:n]
    window.edit(lib.curation.set_status, ids, "to-read")
    window.sidebar.select(("list", None))
    assert window.feed.model.ids() == ids == lib.curation.reading_list()
    return ids


def places(window) -> list[str]:
    return [window.feed.model.index(r, QUEUE).data() for r in range(window.feed.model.rowCount())]


def test_one_queue_in_the_sidebar_with_next_up(window, seed_lib, qtbot):
    ids = make_queue(window, seed_lib)
    window.reload_all()
    counts = sidebar_counts(window)
    assert counts["Reading queue"] == "6"
    assert "To read" not in counts and "Reading list" not in counts  # no second list
    title = seed_lib.paper(ids[0])["title"]
    assert f"Next up: {title}" in counts
    header = window.feed.view.horizontalHeader()
    assert not header.isSectionHidden(QUEUE) and header.visualIndex(QUEUE) == 0
    assert places(window) == ["1", "2", "3", "4", "5", "6"]
    window.sidebar.select(("all", None))  # elsewhere a to-read paper shows its place too
    assert window.feed.model.index(window.feed.model.row_of(ids[2]), QUEUE).data() == "3"
    assert window.feed.model.index(window.feed.model.row_of(
        seed_lib.search(sort="title").ids[10]), QUEUE).data() is None
    next_item = next(i for i in window.sidebar.entries() if i.text(0).startswith("Next up"))
    window.sidebar.setCurrentItem(next_item)
    assert window.sidebar.current_source() == ("list", None)
    assert window.feed.current_id() == ids[0]


def test_keys_move_the_selection_and_undo(window, seed_lib, qtbot):
    ids = make_queue(window, seed_lib)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    select_rows(window, [3, 4])
    window.feed.view.setFocus()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    a, b, c, d, e, f = ids
    assert seed_lib.curation.reading_list() == window.feed.model.ids() == [a, b, d, e, c, f]
    assert set(window.feed.selected_ids()) == {d, e}  # the moved papers stay selected
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Home, Qt.KeyboardModifier.AltModifier)
    assert window.feed.model.ids() == [d, e, a, b, c, f]
    qtbot.keyClick(window.feed.view, Qt.Key.Key_End, Qt.KeyboardModifier.AltModifier)
    assert window.feed.model.ids() == [a, b, c, f, d, e]
    qtbot.keyClick(window.feed.view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # at the end
    assert window.feed.model.ids() == [a, b, c, f, d, e]
    window.undo_stack.undo()
    assert window.feed.model.ids() == seed_lib.curation.reading_list() == [d, e, a, b, c, f]
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.feed.model.ids() == ids
    window.undo_stack.redo()
    assert window.feed.model.ids() == [a, b, d, e, c, f]


def drop_at(window, row: int, data: QMimeData) -> QDropEvent:
    """Drag ``data`` over the table's viewport to the top of ``row``, and drop it there."""
    viewport = window.feed.view.viewport()
    rect = window.feed.view.visualRect(window.feed.model.index(row, TITLE))
    pos = QPointF(rect.center().x(), rect.top() + 2)
    actions = Qt.DropAction.MoveAction | Qt.DropAction.CopyAction
    args = (actions, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter = QDragEnterEvent(pos.toPoint(), *args)
    QApplication.sendEvent(viewport, enter)
    assert enter.isAccepted()
    move = QDragMoveEvent(pos.toPoint(), *args)
    QApplication.sendEvent(viewport, move)
    drops = window.context.features["queue"].drops
    assert move.isAccepted() and drops.line.isVisible()  # where it will go
    event = QDropEvent(pos, *args)
    QApplication.sendEvent(viewport, event)
    return event


def test_a_drop_inside_the_queue_moves_and_never_imports(window, seed_lib, qtbot):
    ids = make_queue(window, seed_lib)
    before = seed_lib.stats()
    data = ids_mime(window, [ids[5]])
    event = drop_at(window, 1, data)
    assert event.isAccepted() and event.dropAction() == Qt.DropAction.MoveAction
    assert window.feed.model.ids() == [ids[0], ids[5], *ids[1:5]]
    assert seed_lib.stats() == before and not window.context.importer.busy  # nothing imported
    window.undo_stack.undo()
    assert window.feed.model.ids() == ids


def test_the_drag_the_table_starts_in_the_queue_is_a_move(window, seed_lib, qtbot, monkeypatch):
    """DragOut builds the QDrag; its mime data, dropped on a row, moves the papers."""
    ids = make_queue(window, seed_lib)
    before = seed_lib.stats()
    select_rows(window, [4, 5])
    started = []
    monkeypatch.setattr(QDrag, "exec", lambda drag, *a: started.append(
        (drag.mimeData(), a)) or Qt.DropAction.IgnoreAction)
    window.context.features["clipboard"].drag_out.start_drag()
    [(data, actions)] = started
    assert actions == (Qt.DropAction.MoveAction,)
    assert data.formats() == ["application/x-paperdesk-paper-ids"]  # no file, no export
    assert not data.urls()
    drop_at(window, 0, data)
    assert window.feed.model.ids() == [ids[4], ids[5], *ids[:4]]
    assert seed_lib.stats() == before
    # outside the queue the same rows drag out as BibTeX, and dropping them back on
    # the window imports nothing
    window.sidebar.select(("all", None))
    select_rows(window, [0])
    window.context.features["clipboard"].drag_out.start_drag()
    out = started[-1][0]
    assert out.urls() and out.hasFormat("application/x-paperdesk-paper-ids")
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, out,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, out,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    assert not window.context.importer.busy and seed_lib.stats() == before
