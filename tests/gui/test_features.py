"""Features install from one list through the context; the sidebar and the menus have a
small public API that features use; the window asks the features about drops and never
imports one."""

from __future__ import annotations

import ast
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from paperdesk.core.db import changes as ch
from paperdesk.gui.context import Feature
from paperdesk.gui.curation import queue_view
from paperdesk.gui.features import FEATURES
from paperdesk.gui.startup import library_files
from paperdesk.gui.table.table_feed import TableFeed

from .conftest import select_row, select_rows, sidebar_counts

GUI = Path(__file__).resolve().parents[2] / "src" / "paperdesk" / "gui"


def test_every_feature_of_the_list_is_installed_once_under_its_name(window):
    names = [cls.name for cls in FEATURES]
    assert len(set(names)) == len(names) and all(names)
    installed = window.context.features
    assert list(installed) == names
    assert [type(f) for f in installed.values()] == FEATURES
    assert all(f.context is window.context for f in installed.values())
    # what they installed is on the window
    for name in ("export_bibtex", "keep_in_sync", "copy_bibtex", "trash", "review_duplicates",
                 "complete_selection", "fetch_daily", "queue_up", "new_library", "back_up"):
        assert name in window.actions_by_name


class Probe(Feature):
    name = "probe"

    def install(self, context) -> None:
        super().install(context)
        self.heard: list[tuple[str, object]] = []

    def library_changed(self, lib) -> None:
        self.heard.append(("library", lib))

    def changes_applied(self, changes, initiator) -> None:
        self.heard.append(("changes", (changes, initiator)))

    def close(self) -> None:
        self.heard.append(("close", None))


def test_a_feature_hears_writes_new_libraries_and_the_close(window, seed_lib, tmp_path,
                                                            monkeypatch):
    window.context.install([Probe])
    probe = window.context.features["probe"]
    pid = select_row(window, 0)
    window.rate_selected(3)
    [(kind, (changes, initiator))] = probe.heard
    assert kind == "changes" and changes.kinds == {ch.PAPERS} and pid in changes.paper_ids
    assert initiator is None

    probe.heard.clear()
    fresh = tmp_path / "other.sqlite"
    monkeypatch.setattr(library_files.dialogs, "warn", lambda *a: None)
    assert library_files.open_path(window, fresh, create=True)
    assert [k for k, _v in probe.heard] == ["library"]
    assert probe.heard[0][1].path == fresh and window.lib.path == fresh

    probe.heard.clear()
    window.close()
    assert probe.heard == [("close", None)]


def test_menus_add_named_actions_where_asked(window, qtbot):
    menus = window.context.menus
    paper = menus.menu("paper")
    assert paper.title() == "&Paper" and paper in menus.all()
    fired: list[str] = []
    action = menus.add("paper", "probe_key", "Probe", lambda: fired.append("probe"), "Ctrl+Alt+P",
                       table_only=True, before="mark_read")
    actions = paper.actions()
    assert actions.index(action) + 1 == actions.index(window.actions_by_name["mark_read"])
    assert window.actions_by_name["probe_key"] is action
    assert action in window.feed.view.actions()
    assert action.shortcutContext() == Qt.ShortcutContext.WidgetWithChildrenShortcut
    action.trigger()
    assert fired == ["probe"]
    sub = menus.add_submenu("help", "More")
    checked = menus.add(sub, "probe_check", "Checked", lambda: None, checkable=True)
    assert checked.isCheckable() and checked in sub.actions()
    assert sub.menuAction() in menus.menu("help").actions()


def test_the_sidebar_takes_sections_from_features_and_rewrites_one_count(window):
    sidebar = window.sidebar
    source = ("probe", None)

    def fill(bar) -> None:
        section = bar.section("Probe section")
        bar.entry(section, "Probe entry", 7, source, "tag")

    sidebar.add_filler(fill)
    window.refresh_sidebar()
    assert sidebar_counts(window)["Probe entry"] == "7"
    sidebar.set_count(source, "Probe entry", 9)
    assert sidebar_counts(window)["Probe entry"] == "9"
    assert sidebar.label_of(source) == "Probe entry  (9)"
    assert sidebar.select(source) and sidebar.current_source() == source
    window.refresh_sidebar()  # filled again: the filler adds it again, still selected
    assert sidebar.current_source() == source
    assert sum(1 for item in sidebar.entries() if item.text(0).startswith("Probe")) == 1


def test_the_table_is_an_object_of_its_own_and_the_contexts_selection(window, qtbot):
    feed = window.context.selection
    assert isinstance(feed, TableFeed) and TableFeed not in type(window).__mro__
    assert feed.view is window.feed.view is window.context.table and feed.model is window.feed.model
    ids = select_rows(window, [1, 2, 4])
    assert window.context.selected_ids() == ids == feed.selected_ids()
    qtbot.waitUntil(lambda: window.feed.model.complete)
    assert feed.shown_ids() == window.feed.model.ids() and len(ids) == 3
    feed.select_ids([ids[2]], ids[2])
    assert feed.current_id() == ids[2] and window.feed.current_id() == ids[2]


PROBE_MIME = "application/x-paperdesk-probe"


class DropProbe(Feature):
    """Takes drops of its own kind; refuses one kind of file drop for everyone."""

    name = "drop-probe"

    def install(self, context) -> None:
        super().install(context)
        self.dropped: list[bytes] = []

    def accepts_drop(self, data):
        return True if data.hasFormat(PROBE_MIME) else None

    def drop(self, event) -> None:
        self.dropped.append(bytes(event.mimeData().data(PROBE_MIME)))


def _drop(window, mime) -> QDropEvent:
    point = QPointF(window.width() / 2, window.height() / 2)
    copy = Qt.DropAction.CopyAction
    QApplication.sendEvent(window, QDragEnterEvent(
        point.toPoint(), copy, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    event = QDropEvent(point, copy, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return event


def test_the_window_asks_the_features_who_takes_a_drop(window, qtbot):
    window.context.install([DropProbe])
    probe = window.context.features["drop-probe"]
    mime = QMimeData()
    mime.setData(PROBE_MIME, b"hello")
    assert window.context.drop_taker(mime) is probe
    assert _drop(window, mime).isAccepted()
    assert probe.dropped == [b"hello"]
    # the table's own rows: the queue refuses them for everyone (nothing is imported)
    select_rows(window, [0, 1])
    own = queue_view.ids_mime(window.context, window.feed.selected_ids())
    own.setUrls([QUrl.fromLocalFile(__file__)])
    assert window.context.drop_taker(own) is None
    assert not _drop(window, own).isAccepted() and window.context.importer.report is None
    # files from elsewhere: the importer
    files = QMimeData()
    files.setUrls([QUrl.fromLocalFile(__file__)])
    assert window.context.drop_taker(files) is window.context.features["imports"]


def _feature_modules() -> set[str]:
    """The gui modules that define a Feature (by their source, not their import)."""
    found = set()
    for path in GUI.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.ClassDef) and any(getattr(b, "id", None) == "Feature"
                                                   for b in n.bases) for n in tree.body):
            found.add("paperdesk.gui." + ".".join(path.relative_to(GUI).with_suffix("").parts))
    return found


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_window_its_keys_and_its_table_import_no_feature():
    features = _feature_modules() - {"paperdesk.gui.context"}
    assert "paperdesk.gui.curation.queue_view" in features and len(features) >= 8
    for part in ("main_window.py", "keyboard.py", "table/table_feed.py",
                 "shortcuts_sheet.py"):
        assert _imports(GUI / part) & features == set(), part
