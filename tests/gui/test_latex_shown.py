"""Abstracts and titles show LaTeX as text (issue 39, "What broke" 5): a digest's
"(\\eg adapters)" reads "(e.g. adapters)" in the table, the detail pane and triage, through the
core's LaTeX reader (``plain_text``); what is stored stays as it came."""

from __future__ import annotations

from paperdesk.core.api import plain_text
from tests.digest_files import HEADER


def test_the_abstract_macros_read_as_words():
    assert plain_text(r"(\eg adapters)") == "(e.g. adapters)"
    assert plain_text(r"methods \ie{} adapters, \etal. and \eg, more") == (
        "methods i.e. adapters, et al. and e.g., more")
    assert plain_text(r"a rate $\alpha$ and \emph{fast}") == "a rate α and fast"
    assert plain_text(None) == ""


def test_the_detail_pane_and_triage_show_the_text(window, seed_lib, qtbot, tmp_path):
    digest = tmp_path / "latex.txt"
    digest.write_text(HEADER + "Dec 1\n\nTuning $\\alpha$ with Adapters\n\n"
                      "Parameter-efficient methods (\\eg adapters) match full tuning.\n\n"
                      "  • 3 authors\n·\nDec 1, 2026 42\n", encoding="utf-8")
    seed_lib.import_paths([digest])
    window.reload_all()
    pid = seed_lib.search("adapters").ids[0]
    assert r"(\eg adapters)" in seed_lib.paper(pid)["abstract"]  # stored as it came
    window.feed.select_ids([pid], pid)
    qtbot.waitUntil(lambda: window.detail.ids == [pid])
    assert "(e.g. adapters)" in window.detail.abstract.text()
    assert "\\eg" not in window.detail.abstract.text()
    assert window.detail.title.text() == "Tuning α with Adapters"
    from paperdesk.gui.table.paper_model import TITLE
    cell = window.feed.model.index(window.feed.model.row_of(pid), TITLE)
    assert window.feed.model.data(cell) == "Tuning α with Adapters"  # the table's row too
    from paperdesk.gui.hub.today import TodayTriage
    view = TodayTriage(window.context, [pid], "Today")
    qtbot.addWidget(view)
    assert "(e.g. adapters)" in view.abstract.toPlainText()
