"""The sidebar (issue 39, "What broke" 5): the table's rows dropped on a tag get it
(one undoable edit, no import); a tag no paper holds any more is gone (never
"cli2 (0)"); long names are shortened in the middle with the whole name in the
tooltip, in a sidebar wide enough for its fixed entries and their counts."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from paperdesk.gui.curation.queue_view import ids_mime

from .conftest import select_rows, sidebar_counts


def tag_item(window, name: str):
    return next(i for i in window.sidebar.entries() if i.text(0).startswith(f"{name}  ("))


def drag_to(window, item, data) -> tuple[bool, QDropEvent]:
    """Drag ``data`` over the sidebar to ``item`` and drop it; whether it was offered."""
    viewport = window.sidebar.viewport()
    pos = QPointF(window.sidebar.visualItemRect(item).center())
    args = (Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier)
    enter = QDragEnterEvent(pos.toPoint(), *args)
    QApplication.sendEvent(viewport, enter)
    move = QDragMoveEvent(pos.toPoint(), *args)
    QApplication.sendEvent(viewport, move)
    drop = QDropEvent(pos, *args)
    QApplication.sendEvent(viewport, drop)
    return move.isAccepted(), drop


def test_rows_dropped_on_a_tag_get_it_and_undo_takes_it_back(window, seed_lib, qtbot):
    window.edit(seed_lib.curation.add_tags, [window.feed.model.paper_id(50)], ["to-cite"])
    window.refresh_sidebar()
    before = seed_lib.stats()
    ids = select_rows(window, [0, 1, 2])
    data = ids_mime(window.context, ids)  # what the table's drag carries
    offered, drop = drag_to(window, tag_item(window, "to-cite"), data)
    assert offered and drop.isAccepted()
    assert drop.dropAction() != Qt.DropAction.MoveAction
    assert all("to-cite" in seed_lib.paper(i)["tags"] for i in ids)
    qtbot.waitUntil(lambda: sidebar_counts(window).get("to-cite") == "4")
    assert seed_lib.stats()["papers"] == before["papers"]  # nothing imported
    assert window.sidebar.current_source() == ("all", None)  # the table stays
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: not any("to-cite" in seed_lib.paper(i)["tags"] for i in ids))
    # Over an entry that is not a tag the rows are refused.
    all_papers = next(window.sidebar.entries())
    offered, drop = drag_to(window, all_papers, ids_mime(window.context, ids))
    assert not offered and not drop.isAccepted()


def test_a_tag_no_paper_holds_is_gone_from_the_sidebar(window, seed_lib, qtbot):
    pid = window.feed.model.paper_id(0)
    window.edit(seed_lib.curation.add_tags, [pid], ["cli2"])
    qtbot.waitUntil(lambda: sidebar_counts(window).get("cli2") == "1")
    window.edit(seed_lib.trash.delete, [pid])  # the tag stays on it, in the trash
    qtbot.waitUntil(lambda: window.feed.model.row_of(pid) is None)
    window.refresh_sidebar()
    assert "cli2" not in sidebar_counts(window)
    window.edit(seed_lib.trash.restore, [pid])  # back: so is its tag
    qtbot.waitUntil(lambda: window.feed.model.row_of(pid) is not None)
    window.refresh_sidebar()
    assert sidebar_counts(window).get("cli2") == "1"


def test_long_names_keep_start_end_and_count_with_the_whole_name_in_the_tooltip(
        window, seed_lib, qtbot):
    name = "reading-group-2026-autumn-multimodal-agents"
    window.edit(seed_lib.curation.add_tags, [window.feed.model.paper_id(0)], [name])
    qtbot.waitUntil(lambda: name in sidebar_counts(window))
    window.resize(800, 600)  # a 1600-pixel screen at QT_SCALE_FACTOR=2
    from paperdesk.gui.common.geometry import share_panes
    share_panes(window.splitter)
    sidebar = window.sidebar
    assert sidebar.width() >= sidebar.fontMetrics().horizontalAdvance("Recently imported  (193)")
    item = tag_item(window, name)
    assert item.toolTip(0) == f"{name}  (1)"
    index = sidebar.indexFromItem(item)
    option = QStyleOptionViewItem()
    option.initFrom(sidebar.viewport())
    option.rect = sidebar.visualRect(index)
    sidebar.itemDelegate().initStyleOption(option, index)
    drawn = option.text
    assert drawn.endswith("  (1)") and "…" in drawn
    assert drawn.startswith("reading-gr") and "agents" in drawn  # the middle goes
    assert len(drawn) >= 18
