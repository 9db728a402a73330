"""The window over the seed library: rows, sidebar, search, the model's contract, saved state."""

from __future__ import annotations

from PySide6.QtCore import Qt

from paperdesk.gui.main_window import MainWindow
from paperdesk.gui.table.paper_model import ADDED, COLUMNS, TAGS, TITLE, UPVOTES, YEAR
from tests.conftest import SEED_PAPERS

from .conftest import sidebar_counts


def test_seed_library_fills_the_table(window, seed_lib):
    assert window.windowTitle().startswith(f"PaperDesk — {seed_lib.name}")
    assert window.feed.model.rowCount() == SEED_PAPERS == seed_lib.stats()["papers"]
    counts = sidebar_counts(window)
    assert counts["All papers"] == f"{SEED_PAPERS}"
    assert counts["Unread"] == f"{SEED_PAPERS}"
    assert len([d for d in seed_lib.digests()]) == 5
    assert window.stack.currentWidget() is window.splitter
    first = seed_lib.paper(window.feed.model.paper_id(0))
    assert window.feed.model.index(0, TITLE).data() == first["title"]


def test_inferred_years_are_marked(window, seed_lib):
    inferred = [p for p in seed_lib.papers(window.feed.model.ids()) if p["year_inferred"]]
    assert inferred, "the seeds hold papers whose year was inferred"
    row = window.feed.model.row_of(inferred[0]["id"])
    index = window.feed.model.index(row, YEAR)
    assert index.data() == f"{inferred[0]['year']}?"
    assert "inferred" in index.data(Qt.ItemDataRole.ToolTipRole)


def test_search_narrows_the_table_and_a_bad_query_says_why(window, seed_lib, qtbot):
    expected = seed_lib.search("scaling").ids
    assert 0 < len(expected) < SEED_PAPERS
    qtbot.keyClicks(window.search_bar.edit, "scaling")
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == len(expected))
    assert window.feed.model.ids() == seed_lib.search("scaling", sort="relevance").ids
    assert window.feed.view.horizontalHeader().sortIndicatorSection() == -1  # best matches first
    assert window.search_bar.save.isEnabled()

    window.search_bar.edit.setText('"unbalanced')
    qtbot.waitUntil(lambda: window.search_bar.message.isVisible())
    assert "quote" in window.search_bar.message.text()
    assert window.feed.model.rowCount() == len(expected)  # the last good results stay
    window.search_bar.edit.clear()
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS)
    assert not window.search_bar.message.isVisible()
    assert window.feed.view.horizontalHeader().sortIndicatorSection() == ADDED
    assert window.feed.model.ids() == seed_lib.search(sort="added", descending=True).ids


def test_sorting_asks_sql_for_the_order(window, seed_lib):
    window.feed.view.sortByColumn(UPVOTES, Qt.SortOrder.DescendingOrder)
    assert window.feed.model.ids() == seed_lib.search(sort="upvotes", descending=True).ids
    window.feed.view.sortByColumn(TITLE, Qt.SortOrder.AscendingOrder)
    assert window.feed.model.ids() == seed_lib.search(sort="title").ids


def test_sidebar_sources_filter_the_table(window, seed_lib):
    digest = seed_lib.digests()[-1]
    window.sidebar.select(("digest", digest["id"]))
    assert window.feed.model.rowCount() == digest["papers"]
    window.sidebar.select(("status", "read"))
    assert window.feed.model.rowCount() == 0
    window.sidebar.select(("all", None))
    assert window.feed.model.rowCount() == SEED_PAPERS


def test_the_model_passes_qt_model_tester(window, qtmodeltester):
    qtmodeltester.check(window.feed.model, force_py=True)


def test_column_state_survives_a_restart(seed_lib, make_window):
    first = make_window(seed_lib)
    header = first.feed.view.horizontalHeader()
    header.setSectionHidden(TAGS, True)
    header.moveSection(header.visualIndex(YEAR), 0)
    header.resizeSection(TITLE, 222)
    first.feed.view.sortByColumn(UPVOTES, Qt.SortOrder.DescendingOrder)
    first.close()

    second = make_window(seed_lib)
    header = second.feed.view.horizontalHeader()
    assert header.isSectionHidden(TAGS)
    assert header.visualIndex(YEAR) == 0
    assert header.sectionSize(TITLE) == 222
    assert header.sortIndicatorSection() == UPVOTES
    assert second.feed.model.ids() == seed_lib.search(sort="upvotes", descending=True).ids
    assert [header.isSectionHidden(c) for c in range(len(COLUMNS))].count(True) == 1


def test_an_empty_library_explains_itself_and_offers_the_demo(lib, make_window):
    window: MainWindow = make_window(lib)
    assert window.stack.currentWidget() is window.empty
    assert window.feed.model.rowCount() == 0
    window.empty.open_demo.emit()  # the "Open the demo library" button
    assert window.lib.path.name == "demo.sqlite"
    assert window.stack.currentWidget() is window.splitter
    assert window.feed.model.rowCount() == SEED_PAPERS
    assert sidebar_counts(window)["All papers"] == f"{SEED_PAPERS}"


def test_a_long_list_shows_its_first_page_then_the_rest(seed_lib, make_window, qtbot,
                                                        monkeypatch, qtmodeltester):
    from paperdesk.gui.table import paper_model

    monkeypatch.setattr(paper_model, "PAGE", 50)
    window = make_window(seed_lib)
    qtbot.waitUntil(lambda: window.feed.model.rowCount() == SEED_PAPERS)
    assert window.feed.model.ids() == seed_lib.search(sort="added", descending=True).ids
    pid = window.feed.model.paper_id(120)
    window.feed.view.selectRow(120)
    window.feed.view.sortByColumn(UPVOTES, Qt.SortOrder.DescendingOrder)
    assert window.feed.model.rowCount() == 50  # the first page, at once
    qtbot.waitUntil(lambda: window.feed.model.complete)
    assert window.feed.model.ids() == seed_lib.search(sort="upvotes", descending=True).ids
    assert window.feed.selected_ids() == [pid]  # the selection follows the paper
    qtmodeltester.check(window.feed.model, force_py=True)


def test_a_search_saved_as_a_smart_list_appears_and_filters(window, seed_lib, qtbot):
    window.edit(seed_lib.curation.save_search, "Scaling", "scaling")
    qtbot.waitUntil(lambda: sidebar_counts(window).get("Scaling") == "")  # recounted off-thread
    window.sidebar.select(("saved", "scaling"))
    qtbot.waitUntil(lambda: window.feed.model.complete)
    assert set(window.feed.model.ids()) == set(seed_lib.search("scaling").ids)
    window.actions_by_name["undo"].trigger()
    qtbot.waitUntil(lambda: "Scaling" not in sidebar_counts(window))


def test_the_reading_list_keeps_its_own_order(window, seed_lib, qtbot):
    ids = window.feed.model.ids()[:4]
    seed_lib.curation.set_status(ids, "to-read")
    seed_lib.curation.move_in_reading_list(ids[3], 0)
    window.reload_all()
    window.sidebar.select(("list", None))
    assert window.feed.model.ids() == seed_lib.curation.reading_list() == [ids[3], *ids[:3]]
    assert window.feed.view.horizontalHeader().sortIndicatorSection() == -1
    window.sidebar.select(("all", None))
    assert window.feed.view.horizontalHeader().sortIndicatorSection() == ADDED
    assert window.feed.model.rowCount() == SEED_PAPERS


def test_a_first_page_ranked_among_the_newest_is_replaced_by_the_full_order(
        window, seed_lib, qtbot, monkeypatch):
    from paperdesk.core.search import search
    from paperdesk.gui.table import paper_model

    monkeypatch.setattr(search, "FIRST_PAGE_RANKS", 20)
    monkeypatch.setattr(paper_model, "PAGE", 10)
    expected = seed_lib.search("language", sort="relevance").ids
    assert len(expected) > 30
    newest = set(sorted(expected)[-20:])
    window.search_bar.edit.setText("language")
    window.search_bar.fire()
    assert not window.feed.model.complete
    first = window.feed.model.ids()
    assert first == [i for i in expected if i in newest][:10] != expected[:10]
    qtbot.waitUntil(lambda: window.feed.model.complete)
    assert window.feed.model.ids() == expected
