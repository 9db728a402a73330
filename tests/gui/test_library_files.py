"""New, Open and recent libraries; a file that is not a library is refused untouched."""

from __future__ import annotations

import sqlite3

import pytest

from paperdesk.core.library import Library
from paperdesk.gui.common import dialogs
from paperdesk.gui.startup import library_files
from tests.conftest import SEED_PAPERS


@pytest.fixture
def warnings(monkeypatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _parent, _title, text: said.append(text))
    return said


def test_the_title_names_the_library_file(window, seed_lib):
    assert str(seed_lib.path) in window.windowTitle()
    assert seed_lib.name in window.windowTitle()


def test_new_then_open_switches_libraries_and_remembers_them(window, seed_lib, tmp_path,
                                                             warnings):
    fresh = tmp_path / "second.sqlite"
    assert library_files.open_path(window, fresh, create=True)
    assert window.lib.path == fresh and fresh.exists()
    assert window.feed.model.rowCount() == 0
    assert str(fresh) in window.windowTitle()
    assert window.stack.currentWidget() is window.empty
    assert library_files.recent()[:2] == [str(fresh), str(seed_lib.path)]

    back = Library.open(seed_lib.path)  # the window closed the first one on switching
    back.close()
    assert library_files.open_path(window, seed_lib.path)
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert library_files.recent()[:2] == [str(seed_lib.path), str(fresh)]
    assert warnings == []


@pytest.mark.parametrize("kind", ["text", "sqlite"])
def test_opening_a_foreign_file_is_refused_and_leaves_it_alone(window, seed_lib, tmp_path,
                                                               warnings, kind):
    foreign = tmp_path / f"foreign.{kind}"
    if kind == "text":
        foreign.write_text("this is a shopping list, not a library\n", encoding="utf-8")
    else:
        with sqlite3.connect(foreign) as conn:
            conn.execute("CREATE TABLE songs (title TEXT)")
            conn.execute("INSERT INTO songs VALUES ('Blue Monday')")
        conn.close()
    before = foreign.read_bytes()
    assert not library_files.open_path(window, foreign)
    assert len(warnings) == 1 and "not a PaperDesk library" in warnings[0]
    assert foreign.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("foreign")) == [
        foreign.name]
    assert window.lib is seed_lib and window.feed.model.rowCount() == SEED_PAPERS
    assert str(foreign) not in library_files.recent()


def test_a_recent_library_that_is_gone_is_forgotten(window, tmp_path, warnings):
    gone = tmp_path / "gone.sqlite"
    library_files.remember(gone)
    assert str(gone) in library_files.recent()
    library_files.open_recent(window, str(gone))
    assert "no longer there" in warnings[0]
    assert str(gone) not in library_files.recent()


def test_show_library_folder_points_at_the_folder(window, seed_lib):
    assert window.actions_by_name["show_folder"].text()
    assert library_files.folder_url(window).toLocalFile() == str(seed_lib.path.parent)


def test_back_up_library_writes_a_copy_on_the_worker(window, seed_lib, tmp_path, qtbot):
    seed_lib.curation.set_rating([2], 5)
    dest = tmp_path / "copy.sqlite"
    assert "back_up" in window.actions_by_name
    library_files.back_up_to(window, dest)
    qtbot.waitUntil(lambda: "Backed up to" in window.statusBar().currentMessage(), timeout=10000)
    with Library.open(dest) as copy:
        assert copy.stats()["papers"] == SEED_PAPERS
        assert copy.paper(2)["rating"] == 5
