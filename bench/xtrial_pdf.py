"""The PDF loop as a person goes through it, in a real X window, in one run.

Under an X server of its own (Xvfb, no window manager) the real program
(``python -m paperdesk``) opens a library of the seed papers, with a stand-in Hub
and arXiv on loopback (``tests/fake_hub.py``, ``tests/fake_services.py``, speaking
the real formats; the Hub's papers of today come with a 30-page PDF that pdflatex
made, cached in bench/out/reader). xdotool presses the keys a person presses:

1. Ctrl+T: Today; T on the first paper (to read), Esc.
2. Ctrl+F, a word of its title, Enter (the one paper found is selected);
   Ctrl+Shift+G: Get PDF.
3. Ctrl+Shift+P: the reader; Ctrl+F "zebra" Enter: find (page 3); Ctrl+H: highlight
   the hit; Ctrl+M, a comment, Ctrl+Enter; Esc closes the reader.
4. In the search bar ``pdf:zebra``: the paper found by its PDF's text.
5. Ctrl+Shift+K: the \\cite copied (read back from the clipboard); Ctrl+E: export.

After each step the library file is read (what the step should have written)
and the screen is grabbed into bench/out/xtrial/scale-N/ (PNG). The run ends
with a line per step (ok or what went wrong) and exits 1 when one failed.

    .venv/bin/python bench/xtrial_pdf.py [--scales 1 2] [--keep]

Needs Xvfb and xdotool (apt-get install xvfb xdotool) and Qt's xcb libraries.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import OUT, ROOT

sys.path.insert(0, str(ROOT))

GRAB = """
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication([])
if sys.argv[1] == "grab":
    QGuiApplication.primaryScreen().grabWindow(0).save(sys.argv[2])
else:
    print(QGuiApplication.clipboard().text())
"""
TITLE = "Striped Horses: Zebra Herds at Scale"
ARXIV_ID = "2612.00042"
STATUS_BAR = (0.5, 0.99)  # where a click gives the window the focus back, changing nothing


class Trial:
    def __init__(self, scale: str, out: Path, keep: bool) -> None:
        self.scale, self.out, self.keep = scale, out, keep
        self.results: list[tuple[str, bool, str]] = []
        self.shots = 0
        self.folder = Path(tempfile.mkdtemp(prefix="paperdesk-xtrial-"))
        self.lib_path = self.folder / "library.sqlite"
        self.display = f":{150 + os.getpid() % 700}"
        self.env = {**os.environ, "DISPLAY": self.display, "QT_QPA_PLATFORM": "xcb",
                    "PAPERDESK_DATA_DIR": str(self.folder / "data"),
                    "PYTHONPATH": str(ROOT / "src")}
        self.env.pop("QT_SCALE_FACTOR", None)

    # -- the X server, the program, the keys --------------------------------------------

    def x(self, *args: str, check: bool = False) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True,
                              text=True, timeout=30)
        if check and done.returncode:
            raise RuntimeError(f"xdotool {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout.strip()

    def key(self, *keys: str, pause: float = 0.4) -> None:
        for k in keys:
            self.x("key", "--clearmodifiers", k)
            time.sleep(pause)

    def type(self, text: str) -> None:
        self.x("type", "--delay", "30", text)
        time.sleep(0.4)

    def windows(self, name: str) -> list[str]:
        return [w for w in self.x("search", "--onlyvisible", "--name", name).split() if w]

    def focus(self, name: str, click: tuple[float, float] | None = None) -> str | None:
        """Focus the visible window whose title matches ``name`` (a click at a fraction
        of it, when given: with no window manager, focus may be gone after a dialog)."""
        found = self.windows(name)
        if not found:
            return None
        wid = found[-1]
        self.x("windowfocus", "--sync", wid)
        if click is not None:
            geometry = self.x("getwindowgeometry", "--shell", wid)
            g = dict(line.split("=") for line in geometry.splitlines() if "=" in line)
            px = int(g["X"]) + int(int(g["WIDTH"]) * click[0])
            py = int(g["Y"]) + int(int(g["HEIGHT"]) * click[1])
            self.x("mousemove", "--sync", str(px), str(py))
            self.x("click", "1")
        time.sleep(0.3)
        return wid

    def helper(self, *args: str) -> str:
        return subprocess.run([sys.executable, "-c", GRAB, *args], env=self.env,
                              capture_output=True, text=True, timeout=60).stdout.strip()

    def shot(self, name: str) -> Path:
        self.shots += 1
        path = self.out / f"{self.shots:02d}-{name}.png"
        self.helper("grab", str(path))
        return path

    def check(self, step: str, ok: bool, detail: str = "") -> bool:
        self.results.append((step, ok, detail))
        print(f"  [{'ok' if ok else 'FAIL'}] {step}{': ' + detail if detail else ''}",
              flush=True)
        return ok

    def wait(self, condition, limit: float = 30.0) -> bool:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            try:
                if condition():
                    return True
            except sqlite3.Error:
                pass
            time.sleep(0.3)
        return False

    def rows(self, sql: str, *args: object) -> list[tuple]:
        with sqlite3.connect(f"file:{self.lib_path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute(sql, args).fetchall()

    # -- the run ------------------------------------------------------------------------

    def setup(self) -> tuple[object, object]:
        from tests.fake_hub import FakeHub, record
        from tests.fake_services import ArxivPaper, FakeServices
        from tests.reader_pdf import reader_pdf

        from paperdesk.core.api import Library

        pdf = reader_pdf(OUT / "reader", tex=shutil.which("pdflatex") is not None)
        lib = Library.open(self.lib_path)
        lib.import_paths(sorted((ROOT / "seeds").glob("*.txt"))[:1])
        lib.close()
        hub, arxiv = FakeHub().__enter__(), FakeServices().__enter__()
        today = dt.date.today().isoformat()
        papers = [(ARXIV_ID, TITLE, ["Ada Zebra", "Ben Stripe"], 40),
                  ("2612.00043", "Adapters for Every Language", ["Cy Lin"], 12)]
        for aid, title, authors, votes in papers:
            summary = f"We study {title.lower()} with a simple method."
            hub.add(record(aid, title, summary, authors, today, upvotes=votes), day=today)
            arxiv.arxiv[aid] = ArxivPaper(aid, title, summary, authors, published=today)
            arxiv.pdfs[f"{aid}v1"] = pdf.read_bytes()
        self.env.update(arxiv.env)
        self.env["HF_ENDPOINT"] = hub.url
        return hub, arxiv

    def run(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        hub, arxiv = self.setup()
        server = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1920x1200x24",
                                   "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        app = None
        try:
            time.sleep(1.5)
            env = {**self.env, "QT_SCALE_FACTOR": self.scale}
            log = (self.out / "program.log").open("w")
            app = subprocess.Popen([sys.executable, "-m", "paperdesk", "--library",
                                    str(self.lib_path)], env=env, stdout=log, stderr=log)
            self.steps()
        finally:
            if app is not None:
                app.terminate()
                try:
                    app.wait(15)
                except subprocess.TimeoutExpired:
                    app.kill()
            server.terminate()
            server.wait(10)
            hub.__exit__(None, None, None)
            arxiv.__exit__(None, None, None)
            if not self.keep:
                shutil.rmtree(self.folder, ignore_errors=True)

    def steps(self) -> None:
        main = "^PaperDesk — "
        if not self.check("the window opens", self.wait(lambda: self.windows(main), 60)):
            return
        time.sleep(2.5)  # as a person looks at it (the readers' process starts)
        self.focus(main)
        self.shot("window")
        # 1. Today
        self.key("ctrl+t")
        opened = self.wait(lambda: self.windows("^Triage"), 60)
        self.check("Ctrl+T opens Today", opened)
        time.sleep(1.5)
        self.focus("^Triage")
        self.shot("today")
        self.key("t")
        self.check("T marks the first paper to read", self.wait(lambda: self.rows(
            "SELECT status FROM papers WHERE title = ?", TITLE) == [("to-read",)], 20),
            str(self.rows("SELECT title, status FROM papers WHERE title LIKE 'Striped%'")))
        self.key("Escape")
        self.check("Esc closes Today", self.wait(lambda: not self.windows("^Triage"), 10))
        # 2. find the paper, Get PDF
        self.focus(main)
        self.key("ctrl+f")
        self.type("Striped")
        self.key("Return", pause=1.5)
        self.shot("searched")  # the one paper found is selected
        self.key("ctrl+shift+g")
        got = self.wait(lambda: self.rows(
            "SELECT COUNT(*) FROM attachments a JOIN papers p ON p.id = a.paper_id "
            "WHERE p.title = ?", TITLE) == [(1,)], 60)
        self.check("Ctrl+Shift+G gets the PDF", got)
        time.sleep(1.0)
        self.shot("got-pdf")
        # 3. read, find, highlight, comment
        self.focus(main)
        start = time.monotonic()
        self.key("ctrl+shift+p", pause=0.0)
        shown = self.wait(lambda: self.windows("— PaperDesk$"), 20)
        self.check("Ctrl+Shift+P opens the reader", shown,
                   f"window up in {time.monotonic() - start:.2f} s (keys and X included)")
        time.sleep(1.5)
        self.focus("— PaperDesk$")
        self.shot("reader")
        self.key("ctrl+f")
        self.type("zebra")
        self.key("Return", pause=1.5)
        self.shot("reader-find")
        self.key("ctrl+h", pause=1.0)
        self.check("Ctrl+H highlights the hit", self.wait(lambda: self.rows(
            "SELECT COUNT(*) FROM highlights") == [(1,)], 10))
        self.key("ctrl+m", pause=1.0)
        self.shot("comment-dialog")
        self.type("Zebras again: compare with the herd on page 7")
        self.key("ctrl+Return", pause=0.6)
        self.check("Ctrl+M writes the comment", self.wait(lambda: self.rows(
            "SELECT comment FROM highlights") == [
                ("Zebras again: compare with the herd on page 7",)], 10),
            str(self.rows("SELECT comment FROM highlights")))
        self.focus("— PaperDesk$", click=STATUS_BAR)  # no window manager gives it back
        time.sleep(0.5)
        self.shot("reader-highlight")
        self.key("Escape")
        self.check("Esc closes the reader", self.wait(
            lambda: not self.windows("— PaperDesk$"), 10))
        # 4. pdf: search
        self.focus(main, click=STATUS_BAR)
        self.key("ctrl+f", "ctrl+a")
        self.type("pdf:zebra")
        self.key("Return", pause=2.0)
        self.shot("pdf-search")
        # 5. cite
        self.focus(main, click=STATUS_BAR)
        self.key("ctrl+shift+k", pause=1.0)
        copied = self.helper("clip")
        self.check("Ctrl+Shift+K copies \\cite", copied.startswith("\\cite{"), copied)
        self.key("ctrl+e")  # the focus is in the search box still
        self.check("Ctrl+E opens Export (from the search box)",
                   self.wait(lambda: self.windows("^Export"), 15))
        self.focus("^Export")
        self.shot("export")
        self.key("Escape")
        self.check("the program is still running", True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", nargs="+", default=["1", "2"])
    parser.add_argument("--keep", action="store_true", help="keep the library folder")
    args = parser.parse_args()
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            sys.exit(f"xtrial_pdf: {tool} is not installed (apt-get install xvfb xdotool)")
    failed = []
    for scale in args.scales:
        print(f"-- QT_SCALE_FACTOR={scale} --", flush=True)
        trial = Trial(scale, OUT / "xtrial" / f"scale-{scale}", args.keep)
        trial.run()
        failed += [(scale, step, detail) for step, ok, detail in trial.results if not ok]
        print(f"   screenshots: {trial.out}", flush=True)
    print(json.dumps({"failed": failed}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
