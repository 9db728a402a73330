"""`paperdesk --self-test`: does this installation start?

Builds the demo library from the bundled sample digests in a temporary data
folder (nothing of the user's is read or written), opens the main window
offscreen, waits until its table shows papers, opens a one-page PDF it writes there
(its page drawn by PDFium in the PDF sandbox's process, into a QImage), closes it and
returns 0. Any
failure prints one line and returns 1. Used after installing a wheel and on a
PyInstaller bundle, where a missing resource or Qt plugin shows up here.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator

from paperdesk.core.api import ENV_DATA, ENV_LIBRARY

TIMEOUT_S = 60.0


@contextlib.contextmanager
def _temporary_data() -> Iterator[str]:
    saved = {k: os.environ.get(k) for k in (ENV_DATA, ENV_LIBRARY)}
    with tempfile.TemporaryDirectory(prefix="paperdesk-self-test-") as folder:
        os.environ[ENV_DATA] = folder
        os.environ.pop(ENV_LIBRARY, None)
        try:
            yield folder
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _wait(app, done, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        app.processEvents()
        if done():
            return True
        time.sleep(0.01)
    return False


def _check(timeout_s: float) -> str:
    from PySide6 import __version__ as pyside_version
    from PySide6.QtWidgets import QApplication

    from paperdesk.core.api import open_demo, resource, seed_files
    from paperdesk.gui.main_window import MainWindow

    if not seed_files():
        raise RuntimeError("the sample digests (paperdesk.seeds) are missing")
    if not resource("paperdesk.svg").is_file():
        raise RuntimeError("the app icon (paperdesk.resources) is missing")
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "paperdesk"])
    lib = open_demo()
    papers = lib.stats()["papers"]
    window = MainWindow(lib)
    try:
        window.show()
        model = window.feed.model
        if not _wait(app, lambda: model.rowCount() > 0, timeout_s):
            raise RuntimeError(f"the window showed no papers within {timeout_s:.0f} s")
        rows = model.rowCount()
        if window.grab().isNull():
            raise RuntimeError("the window could not be drawn")
        pdf = _pdf_check(lib)
    finally:
        window.close()
        for part in (window.context.worker, window.context.reader):
            with contextlib.suppress(Exception):
                part.stop()
        with contextlib.suppress(Exception):
            window.lib.close()
        app.processEvents()
    return (f"self-test passed: demo library of {papers} papers, window showed {rows} rows, "
            f"{pdf} (PySide6 {pyside_version}, platform {QApplication.platformName()})")


def _one_page_pdf() -> bytes:
    """A PDF of one page with a line of Helvetica on it, its cross-reference table exact."""
    text = b"BT /F1 24 Tf 72 700 Td (PaperDesk self-test) Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
               b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text)]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def _pdf_check(lib) -> str:
    """Open a PDF as the reader does: its page count and page 1 drawn in the PDF
    sandbox's process, made a QImage; what was seen."""
    from pathlib import Path

    from PySide6.QtGui import QImage

    path = Path(os.environ[ENV_DATA]) / "self-test.pdf"
    path.write_bytes(_one_page_pdf())
    sandbox = lib.pdf.sandbox()
    pages = sandbox.info(path)["pages"]
    page = sandbox.render(path, 0, 1.0)
    image = QImage(page.data, page.width, page.height, page.stride,
                   QImage.Format.Format_ARGB32).copy()
    inked = any(image.pixelColor(x, y).lightness() < 128
                for y in range(0, image.height(), 4) for x in range(0, image.width(), 4))
    if image.isNull() or not inked:
        raise RuntimeError("the self-test PDF was not drawn")
    return f"a PDF opened ({pages} page, {image.width()}x{image.height()} drawn by PDFium)"


def _platform_problems() -> list[str]:
    """Lines for what keeps the window's platform plugin from loading (none when it can).

    Checked for the platform the window would use (QT_QPA_PLATFORM as given, else the
    desktop's), before the self-test itself switches to drawing offscreen.
    """
    from paperdesk.gui.startup.platform_check import check, package_for

    problem = check(display=False)
    if problem is None:
        return []
    lines = [f"self-test FAILED: {problem.line()}"]
    for library in problem.missing:
        packages = package_for(library)
        where = (f" (Debian/Ubuntu: {packages[0]}; Fedora: {packages[1]})"
                 if packages else "")
        lines.append(f"missing library: {library}{where}")
    return lines


def run_self_test(timeout_s: float = TIMEOUT_S) -> int:
    problems = _platform_problems()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        with _temporary_data():
            message = _check(timeout_s)
    except Exception as exc:  # any failure is the answer, as one line
        print(f"self-test FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(message)
    return 0
