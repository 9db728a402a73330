"""One window per library, with real processes: a second `paperdesk FILE` on the library
a window has open hands the file to that window and exits 0; a socket left by a
window that crashed is replaced."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QDir

from paperdesk.core.library import Library
from paperdesk.gui.startup.single_instance import server_name

SRC = Path(__file__).resolve().parents[2] / "src"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), "QT_QPA_PLATFORM": "offscreen"}


def _paperdesk(*args: object) -> list[str]:
    return [sys.executable, "-m", "paperdesk", *map(str, args)]


def _wait(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _papers(path: Path) -> int:
    with Library.open(path, create=False) as lib:
        return lib.stats()["papers"]


@pytest.fixture
def window(tmp_path):
    """The real app, offscreen, on a new library; its socket is up when it returns."""
    path = tmp_path / "library.sqlite"
    proc = subprocess.Popen(_paperdesk("--library", path), env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    socket_file = lambda: Path(QDir.tempPath(), server_name(path))  # noqa: E731
    assert _wait(lambda: path.exists() and socket_file().exists(), 30), \
        proc.stderr.read1().decode() if proc.poll() is not None else "no socket"
    yield proc, path
    proc.terminate()
    proc.wait(10)


def test_a_second_paperdesk_file_hands_it_to_the_open_window(window, seeds):
    proc, path = window
    # -X importtime: every module the second process loads, one stderr line each
    second = subprocess.run([sys.executable, "-X", "importtime",
                             *_paperdesk("--library", path, seeds[0])[1:]], env=_env(),
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stderr
    loaded = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines()
              if line.startswith("import time:")}
    # It hands the file over and ends: no window built, nothing imported by it.
    assert {m for m in loaded if m.startswith("paperdesk.gui")} <= {
        "paperdesk.gui", "paperdesk.gui.main", "paperdesk.gui.startup",
        "paperdesk.gui.startup.platform_check", "paperdesk.gui.startup.single_instance"}
    assert not [m for m in loaded if m.startswith("paperdesk.core.importing")]
    assert proc.poll() is None  # the one window still runs
    assert _wait(lambda: _papers(path) > 0, 20)  # imported by the window, as a drop
    with Library.open(path, create=False) as lib:
        assert [d["name"] for d in lib.digests()] == [seeds[0].name]


def test_a_socket_left_by_a_crash_is_replaced(tmp_path, seeds):
    path = tmp_path / "library.sqlite"
    Library.open(path).close()
    socket_file = Path(QDir.tempPath(), server_name(path))
    stale = socket.socket(socket.AF_UNIX)  # bound, never listening, then gone: refused
    stale.bind(str(socket_file))
    stale.close()
    left = socket_file.stat().st_ino
    proc = subprocess.Popen(_paperdesk("--library", path), env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert _wait(lambda: socket_file.exists() and socket_file.stat().st_ino != left, 30)
        second = subprocess.run(_paperdesk("--library", path, seeds[1]), env=_env(),
                                capture_output=True, text=True, timeout=30)
        assert second.returncode == 0 and proc.poll() is None
        assert second.stderr.strip() == (f"paperdesk: handed 1 file to the window already "
                                         f"open on {path}")
        assert _wait(lambda: _papers(path) > 0, 20)
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_handed_search_is_shown_and_files_are_imported_as_a_drop(make_window, lib, seeds,
                                                                  qtbot):
    from paperdesk.gui.startup.single_instance import deliver

    window = make_window(lib)
    deliver(window, {"files": [str(seeds[2])], "search": "scaling"})
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    assert [d["name"] for d in lib.digests()] == [seeds[2].name]
    assert window.search_bar.text() == "scaling" and window.feed.query == "scaling"
