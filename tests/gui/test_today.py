"""Today (Ctrl+T) against a local stand-in Hub: the days since the last fetch are
fetched and completed, and triage opens on the papers new to the library, the
fastest-rising first, then the rest of the backlog (every paper nobody decided on yet,
the newest day first); offline, one line, and triage of the backlog as it is."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from paperdesk.core.hub.today import backlog, days_to_fetch
from paperdesk.gui.hub.today import KEY
from tests.fake_hub import record


def _today_view(window, qtbot):
    feature = window.context.features["today"]
    qtbot.waitUntil(lambda: feature.result is not None, timeout=60000)
    return feature


def _waiting(lib) -> list[int]:
    return [pid for _, ids in backlog(lib) for pid in ids]


def test_today_triages_the_new_papers_by_momentum_then_the_backlog(window, server, qtbot):
    lib = window.lib
    today = dt.date.today().isoformat()
    known = lib.paper(lib.search("").ids[0])  # a paper the library has: not new
    known_record = next(p for p in server.papers.values() if p["title"] == known["title"])
    server.add(known_record, day=today)
    for n, votes in ((1, 3), (2, 40), (3, 12)):
        server.add(record(f"2611.0000{n}", f"Fresh Paper Number {n}", f"Abstract {n} here.",
                          [f"Author {n}"], today, upvotes=votes), day=today)
    before = lib.stats()["papers"]
    assert window.actions_by_name["today"].shortcut().toString() == KEY
    window.activateWindow()
    qtbot.keyClick(window.feed.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    feature = _today_view(window, qtbot)
    assert lib.stats()["papers"] == before + 3
    view = feature.view
    qtbot.addWidget(view)
    titles = [lib.paper(i)["title"] for i in view.ids[:3]]
    assert titles == ["Fresh Paper Number 2", "Fresh Paper Number 3", "Fresh Paper Number 1"]
    assert all(lib.paper(i)["authors"] for i in view.ids[:3])  # completed from the Hub
    # then every paper nobody decided on yet (the seeds' here), none twice
    assert sorted(view.ids) == sorted(_waiting(lib)) and len(set(view.ids)) == len(view.ids)
    assert len(view.ids) == before + 3  # nobody decided on any paper yet
    assert view.title.text() == "Fresh Paper Number 2"
    assert view.origin.text() == f"From the Hub's daily papers of {today}"
    assert "3 new to this library" in window.statusBar().currentMessage()
    assert f"{len(view.ids)} papers to triage (3 from {today}, " in view.windowTitle()
    qtbot.keyClick(view, Qt.Key.Key_T)  # triage as ever: to read, and on
    assert lib.paper(view.ids[0])["status"] == "to-read" and view.index == 1
    assert view.ids[0] not in _waiting(lib)
    assert days_to_fetch(lib, dt.date.today()) == (dt.date.today(), dt.date.today())


def test_offline_says_so_and_triages_the_untriaged_new_papers(window, server, qtbot,
                                                              monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    lib = window.lib
    newest = lib.digests()[0]
    from paperdesk.core.curation import triage
    new_here = triage.digest_papers(lib, [newest["id"]], only_new=True)
    lib.curation.set_status(new_here[:1], "read")  # decided on already: not again
    before = lib.stats()
    window.context.features["today"].start()
    feature = _today_view(window, qtbot)
    assert server.requests == [] and lib.stats() == before
    message = window.statusBar().currentMessage()
    assert message.startswith("The Hub could not be reached") and "\n" not in message
    qtbot.addWidget(feature.view)
    assert set(new_here[1:]) <= set(feature.view.ids) and new_here[0] not in feature.view.ids
    assert sorted(feature.view.ids) == sorted(_waiting(lib))


def test_a_second_today_asks_again_and_says_nothing_new_only_then(window, server, qtbot):
    today = dt.date.today().isoformat()
    server.add(record("2611.00009", "Only Paper Today", "Its abstract.", ["Ada"], today,
                      upvotes=5), day=today)
    feature = window.context.features["today"]
    feature.start()
    _today_view(window, qtbot)
    first = feature.view
    qtbot.addWidget(first)
    assert lib_title(window, first.ids[0]) == "Only Paper Today"
    feature.result = None
    asked = len(server.requests)
    feature.start()
    _today_view(window, qtbot)
    # Today's page may have grown since: asked again (it had not: nothing is imported)
    assert server.count("/api/daily_papers") > 0 and len(server.requests) > asked
    assert len(window.lib.digests()) == len(set(d["name"] for d in window.lib.digests()))
    assert window.statusBar().currentMessage().startswith("Today: nothing new on the Hub")
    qtbot.addWidget(feature.view)
    assert feature.view.ids == first.ids  # still untriaged: offered again, the whole backlog


def lib_title(window, pid: int) -> str:
    return window.lib.paper(pid)["title"]


def test_seen_and_the_rest_seen_leave_the_backlog_and_undo_brings_them_back(window, server,
                                                                            qtbot):
    lib = window.lib
    feature = window.context.features["today"]
    feature.start()
    view = _today_view(window, qtbot).view
    qtbot.addWidget(view)
    everything = list(view.ids)
    assert len(everything) > 3
    qtbot.keyClick(view, Qt.Key.Key_S)  # seen: stays unread, leaves the backlog
    first = lib.paper(everything[0])
    assert first["status"] == "unread" and view.index == 1
    assert everything[0] not in _waiting(lib)
    qtbot.keyClick(view, Qt.Key.Key_S, Qt.KeyboardModifier.ShiftModifier)  # the rest
    assert _waiting(lib) == []
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert sorted(_waiting(lib)) == sorted(everything[1:])
    feature.result = None
    feature.start()
    again = _today_view(window, qtbot).view
    qtbot.addWidget(again)
    assert sorted(again.ids) == sorted(everything[1:])


def test_triage_opens_on_the_newest_days_papers_while_the_older_days_are_fetched(
        window, server, qtbot, monkeypatch):
    today = dt.date.today()
    for n in range(3):
        day = (today - dt.timedelta(days=n)).isoformat()
        server.add(record(f"2611.0010{n}", f"Week Paper {n}", f"Abstract {n}.", [f"A {n}"],
                          day, upvotes=n), day=day)
    before = (today - dt.timedelta(days=3)).isoformat()
    server.add(record("2611.00200", "Week Paper Before", "Abstract.", ["B"], before),
               day=before)
    window.lib.fetch_daily(today - dt.timedelta(days=3))  # the last fetch: three days ago
    feature = window.context.features["today"]
    opened: list[tuple[bool, list[int]]] = []
    real_open = feature._open

    def watched(ids, title):
        opened.append((window.context.ops.busy, list(ids)))
        real_open(ids, title)

    monkeypatch.setattr(feature, "_open", watched)
    feature.start()
    view = _today_view(window, qtbot).view
    qtbot.addWidget(view)
    [(busy, first)] = opened
    assert busy  # Today was still fetching the older days
    assert [window.lib.paper(i)["title"] for i in first] == ["Week Paper 0"]
    titles = [window.lib.paper(i)["title"] for i in view.ids[:3]]
    assert titles == ["Week Paper 0", "Week Paper 1", "Week Paper 2"]
