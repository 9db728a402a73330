"""A PDF sandbox: one persistent child process reading PDFs with pypdfium2 (PDFium).

PDFium is not thread-safe, and PDFs come from anywhere: a corrupt, encrypted or hostile
file (objects nested thousands deep, a million pages claimed, a page the size of a
field) may make it fail, spin, eat memory or crash. So it runs in a child process
(``pdf_worker``), spawned (never forked: the window runs Qt and threads) at the first
task and kept for the next ones. Each task has a deadline, and the child's memory is
watched through psutil (the same on Linux, macOS and Windows) while it works; past
either, or if the child dies, it is killed, the caller gets one ``PdfError`` naming the
file, and the next task starts a new child. Where the system lets one process cap
another's memory (psutil's ``rlimit``: Linux, FreeBSD), the child's data is also capped
at ``CAP_TIMES`` its resident limit, so that an allocation too quick for the watch (a
file asking for gigabytes at once) fails in the child, which answers so and is stopped
like one past its limit, instead of taking the computer's memory first.

    with PdfSandbox() as pdf:
        pdf.info(path)            # {"pages": 12, "metadata": {"Title": ...}}
        pdf.text(path)            # every page's text; pdf.text(path, [0, 2]) some
        pdf.boxes(path, 2)        # PageBoxes: page 3's text and a box per character
        pdf.render(path, 0, 2.0)  # Rendered: page 1 as BGRA bytes at scale 2
        pdf.render_into(path, 0, 2.0, segment)  # the same, into shared memory
        for path, pages in pdf.texts(paths): ...  # the next file read meanwhile

Pages are 0-based. One sandbox runs one task at a time (a lock: threads may share
it, they take turns); several sandboxes run at once, each with its own child (the
indexer has one, the reader another). ``close()`` (or the block's end) stops the
child; a child whose parent dies in any way (even ``kill -9``) finds its pipe closed
and exits.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
import time
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psutil

from paperdesk.core.model.errors import PdfError
from paperdesk.core.model.text import printable
from paperdesk.core.model.workers import _caller_hidden
from paperdesk.core.pdf import pdf_worker

DEADLINE_S = 30.0  # a task's time, by default
MEMORY_MB = 1024  # the child's resident memory at most, by default
_WATCH_S = 0.01  # seconds between looks at the child while a task runs
# The system's cap on the child's data (heap and private mappings), a multiple of its
# resident limit: what the watch stops is said by the watch, a spike between two looks
# by the cap.
CAP_TIMES = 2
# A background child's priority: Windows' class below normal, elsewhere nice 10.
BELOW_NORMAL = getattr(psutil, "BELOW_NORMAL_PRIORITY_CLASS", 10)


@dataclass(frozen=True)
class PageBoxes:
    """A page's text and one box per character (left, bottom, right, top) in PDF
    points, origin at the bottom left; ``width``/``height`` the page's size in points."""

    text: str
    boxes: list[tuple[float, float, float, float]]
    width: float
    height: float


@dataclass(frozen=True)
class Rendered:
    """A rendered page: ``height`` rows of ``stride`` bytes, 4 per pixel (B, G, R, A)."""

    width: int
    height: int
    stride: int
    data: bytes


def _result(answer: tuple, name: str) -> Any:
    """A task's result, or the PdfError its answer names."""
    if answer[0] == "ok":
        return answer[1]
    _, kind, detail = answer
    said = pdf_worker.ERRORS.get(kind, pdf_worker.ERRORS["other"])
    detailed = kind in ("page", "size", "large", "unloadable", "other")
    extra = f" ({detail})" if detail and detailed else ""
    raise PdfError(f"{name} {said}{extra}")


def shown_name(path: str | Path) -> str:
    """The file's name as a message shows it: one line, no control characters."""
    return " ".join(printable(Path(path).name).split()) or str(path)


class PdfSandbox:
    """One child process reading PDFs; ``deadline`` seconds a task and ``memory_mb``
    of resident memory at most, by default (a task may give its own deadline);
    ``background``: the child runs below normal priority (an indexer's)."""

    def __init__(self, *, deadline: float = DEADLINE_S, memory_mb: int = MEMORY_MB,
                 name: str = "paperdesk-pdf", background: bool = False) -> None:
        self.deadline = deadline
        self.background = background  # the child runs below normal priority
        self.memory_mb = memory_mb
        self.name = name
        self.lock = threading.Lock()
        self.process: Any = None
        self.conn: Connection | None = None
        self.watched: psutil.Process | None = None
        self.started = 0  # children started so far (a test counts the restarts)
        self.peak_mb = 0.0  # the largest resident memory seen of a child, in MB
        self.capped = False  # the system caps the child's data (``_cap``)

    def __enter__(self) -> PdfSandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- the tasks -----------------------------------------------------------------------

    def info(self, path: str | Path, *, deadline: float | None = None) -> dict[str, Any]:
        """``{"pages": n, "metadata": {...}}``: the page count and the metadata."""
        result: dict[str, Any] = self._call("info", path, (), deadline)
        return result

    def text(self, path: str | Path, pages: list[int] | None = None, *,
             deadline: float | None = None) -> list[str]:
        """The text of ``pages`` (0-based), or of every page, as PDFium extracts it."""
        result: list[str] = self._call("text", path, (None if pages is None else list(pages),),
                                       deadline)
        return result

    def boxes(self, path: str | Path, page: int, *, deadline: float | None = None) -> PageBoxes:
        """Page ``page``'s text and each character's box, for find and highlights."""
        r = self._call("boxes", path, (page,), deadline)
        return PageBoxes(r["text"], [tuple(b) for b in r["boxes"]], *r["size"])

    def render(self, path: str | Path, page: int, scale: float, *,
               deadline: float | None = None) -> Rendered:
        """Page ``page`` at ``scale`` (1.0: a point is a pixel) as BGRA bytes."""
        r = self._call("render", path, (page, float(scale)), deadline)
        return Rendered(r["width"], r["height"], r["stride"], r["data"])

    def render_into(self, path: str | Path, page: int, scale: float, segment: Any, *,
                    deadline: float | None = None) -> tuple[int, int, int]:
        """Page ``page`` at ``scale`` drawn into ``segment`` (``shared_render.Segment``,
        made larger when the page needs it): its width, height and bytes a row."""
        while True:
            r = self._call("render_into", path, (page, float(scale), segment.name,
                                                 segment.size), deadline)
            if "need" not in r:
                return r["width"], r["height"], r["stride"]
            segment.grow(r["need"])

    # -- the child -----------------------------------------------------------------------

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=pdf_worker.serve, args=(theirs,), daemon=True,
                                  name=self.name)
        try:
            with _caller_hidden():
                process.start()
        except OSError as exc:
            raise PdfError(f"cannot start the PDF reader process: {exc}") from None
        finally:
            theirs.close()  # only the child holds its end
        self.process, self.conn = process, ours
        self.watched = psutil.Process(process.pid)
        self.capped = _cap(self.watched, CAP_TIMES * self.memory_mb << 20)
        if self.background:  # an indexer's: the window's threads come first
            with contextlib.suppress(psutil.Error, OSError):
                self.watched.nice(BELOW_NORMAL)
        self.started += 1

    def _kill(self) -> None:
        process, conn = self.process, self.conn
        self.process = self.conn = self.watched = None
        if process is not None:
            if process.is_alive():
                process.kill()  # TerminateProcess on Windows, SIGKILL elsewhere
            process.join(5.0)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        """Stop the child (a new one starts if a task comes after)."""
        with self.lock:
            if self.conn is not None and self.process is not None and self.process.is_alive():
                try:
                    self.conn.send(None)
                    self.process.join(1.0)
                except (OSError, ValueError):
                    pass
            self._kill()

    def _call(self, task: str, path: str | Path, args: tuple, deadline: float | None) -> Any:
        limit = self.deadline if deadline is None else deadline
        name = shown_name(path)
        with self.lock:
            self._send((task, str(path), args), name)
            answer = self._receive(limit, name)
        return _result(answer, name)

    def texts(self, paths: Iterable[str | Path], *, normalised: bool = False,
              deadline: float | None = None
              ) -> Generator[tuple[Path, list[str] | PdfError], None, None]:
        """Each file's text (a list of pages; ``normalised``: as ``normalise`` makes
        it, in the child), or the PdfError that says why it has none, in order. The
        child reads the next file while the caller works on the one it was given:
        extracting and writing overlap. The sandbox is held until the iteration ends
        (or is closed)."""
        limit = self.deadline if deadline is None else deadline
        queue = [Path(p) for p in paths]
        task = "pages" if normalised else "text"
        with self.lock:
            if queue:
                self._send((task, str(queue[0]), (None,)), shown_name(queue[0]))
            for i, path in enumerate(queue):
                name = shown_name(path)
                try:
                    result: list[str] | PdfError = _result(self._receive(limit, name), name)
                except PdfError as exc:  # the child was stopped: the next starts anew
                    result = exc
                if i + 1 < len(queue):
                    self._send((task, str(queue[i + 1]), (None,)), shown_name(queue[i + 1]))
                    try:
                        yield path, result
                    except GeneratorExit:  # stopped early: the file being read is let go
                        with contextlib.suppress(PdfError):
                            self._receive(limit, shown_name(queue[i + 1]))
                        raise
                else:
                    yield path, result

    def _send(self, message: tuple, name: str) -> None:
        """Send one task to the child (started if there is none, or it died)."""
        for attempt in (1, 2):
            if self.process is None or not self.process.is_alive():
                self._kill()
                self._start()
            assert self.conn is not None
            try:
                self.conn.send(message)
                return
            except (OSError, ValueError):  # the child died between tasks: a new one
                self._kill()
                if attempt == 2:
                    raise PdfError(f"{name}: the PDF reader process cannot be reached") from None

    def _receive(self, limit: float, name: str) -> tuple:
        """The answer to the task sent, watching time, memory and the child."""
        assert self.conn is not None
        end = time.monotonic() + limit
        while True:
            try:
                if self.conn.poll(max(0.0, min(_WATCH_S, end - time.monotonic()))):
                    answer: tuple = self.conn.recv()
                    if answer[:2] != ("error", "memory"):
                        return answer
                    self._kill()  # PDFium may be left half-way: a new child next
                    raise PdfError(f"{name}: {self._too_large()}; stopped")
            except (EOFError, OSError):
                self._kill()
                raise PdfError(f"{name}: the PDF reader stopped on this file "
                               "(it crashed); nothing was read") from None
            why = self._breach(limit, end)
            if why:
                self._kill()
                raise PdfError(f"{name}: {why}; stopped") from None

    def _breach(self, limit: float, end: float) -> str | None:
        """Why the task must stop now (too slow, too large, the child gone), or None."""
        assert self.process is not None and self.watched is not None
        if not self.process.is_alive():
            return "the PDF reader stopped on this file (it crashed)"
        try:
            rss = self.watched.memory_info().rss / (1 << 20)
        except psutil.Error:
            return "the PDF reader stopped on this file (it crashed)"
        self.peak_mb = max(self.peak_mb, rss)
        if rss > self.memory_mb:
            return self._too_large()
        if time.monotonic() >= end:
            return f"reading it took longer than {limit:g} s"
        return None

    def _too_large(self) -> str:
        return f"reading it needed more than {self.memory_mb:,} MB of memory"


def _cap(process: psutil.Process, limit: int) -> bool:
    """Cap ``process``'s data at ``limit`` bytes where the system allows it (Linux,
    FreeBSD: ``RLIMIT_DATA``); whether it did."""
    which = getattr(psutil, "RLIMIT_DATA", None)
    if which is None or not hasattr(process, "rlimit"):
        return False  # macOS, Windows: the watch alone
    try:
        process.rlimit(which, (limit, limit))
    except (psutil.Error, OSError, ValueError):
        return False
    return True
