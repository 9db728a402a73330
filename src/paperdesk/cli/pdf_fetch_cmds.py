"""``paperdesk pdf fetch [QUERY]``: the arXiv PDFs of the papers asked for, and
``paperdesk pdf auto-fetch [on|off]``: the setting that fetches a paper's PDF when it
is marked to-read. Both are subcommands of the ``pdf`` group (``pdf_cmds``).

arXiv is ``$PAPERDESK_ARXIV_PDF`` (default https://arxiv.org/pdf) for the PDFs and
``$PAPERDESK_ARXIV_API`` for the versions the library does not record; every request
of every PaperDesk program keeps to arXiv's pace (``core/hub/pace.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import threading
from collections.abc import Iterator

from paperdesk.cli import Commands
from paperdesk.cli.output import emit_json, say, short
from paperdesk.core.api import Library

SETTING = "fetch_to_read"


def register(pdf: Commands) -> None:
    p = pdf.add_parser(
        "fetch", help="download the arXiv PDFs of papers and attach them",
        description="Download from arXiv the PDF of each paper QUERY finds (a search, or "
                    "paper ids), of the version the library records (or arXiv's current "
                    "one, which the attachment then records), and attach it. Without "
                    "QUERY: the papers marked to-read that have no PDF yet. A paper "
                    "without an arXiv id, or that already has a PDF, is left as it is. "
                    "arXiv's terms hold: one request at a time, three seconds apart, "
                    "for every PaperDesk program on this computer. One run is one "
                    "undoable edit; Ctrl-C stops it, keeping the PDFs already in.")
    p.add_argument("query", nargs="*", help="search query or paper ids; default: the "
                                            "to-read papers without a PDF")
    p.add_argument("--json", action="store_true", help="print what became of each paper "
                                                       "as JSON")
    p.set_defaults(func=cmd_fetch)

    p = pdf.add_parser(
        "auto-fetch", help="fetch a paper's arXiv PDF when it is marked to-read (on/off)",
        description="With it on, marking papers to-read (in the window, or with "
                    "`paperdesk status ID to-read`) also fetches their arXiv PDFs. Off "
                    "until turned on; a setting of this library on this computer, kept "
                    "in the data folder. Without on or off: says which it is.")
    p.add_argument("state", nargs="?", choices=("on", "off"))
    p.set_defaults(func=cmd_auto_fetch)


def _ids(lib: Library, words: list[str]) -> list[int] | None:
    """The papers QUERY names: ids when every word is one, else a search's."""
    if not words:
        return None
    if all(w.isascii() and w.isdigit() and len(w) < 19 for w in words):
        return lib.require(int(w) for w in words)
    return lib.search(" ".join(words)).ids


@contextlib.contextmanager
def _ctrl_c_cancels() -> Iterator[threading.Event]:
    """A cancel flag Ctrl-C sets (a second Ctrl-C interrupts outright)."""
    cancel = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield cancel
        return

    def heard(signum, frame) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        cancel.set()

    before = signal.signal(signal.SIGINT, heard)
    try:
        yield cancel
    finally:
        signal.signal(signal.SIGINT, before)


def cmd_fetch(args: argparse.Namespace, lib: Library) -> int:
    return _fetch(lib, _ids(lib, args.query), as_json=args.json)


def fetch_to_read(lib: Library, ids: list[int]) -> int:
    """With auto-fetch on, after ``status ID to-read``: those papers' PDFs."""
    return _fetch(lib, ids, to_read_only=True, quiet_when_none=True)


def _fetch(lib: Library, ids: list[int] | None, *, as_json: bool = False,
           to_read_only: bool = False, quiet_when_none: bool = False) -> int:
    with _ctrl_c_cancels() as cancel:
        changes = lib.fetch_pdfs(ids, to_read_only=to_read_only, cancel=cancel)
    result = changes.result
    if not result.papers and quiet_when_none:
        return 0
    if as_json:
        emit_json([item.to_json() for item in result.papers])
    else:
        for item in result.papers:
            if result.cancelled and item.status not in ("fetched", "failed"):
                continue  # the summary counts them: Ctrl-C is one line
            who = f"{item.citekey or item.paper_id}"
            line = f"{item.status}: {who} {short(item.title, 60)}"
            if item.status == "fetched":
                line += f" (arXiv {item.arxiv_id}v{item.version})"
            say(line + (f": {item.why}" if item.why and item.status != "failed" else ""))
            if item.status == "failed":
                say(f"  {item.why}")
    for warning in result.warnings if not as_json else []:
        say(f"  warning: {warning}")
    say(result.summary() if result.papers else
        "no papers to fetch (none marked to-read without a PDF)" if ids is None
        or to_read_only else
        "no papers match")
    if result.cancelled:
        return 130
    return 1 if result.count("failed") else 0


def cmd_auto_fetch(args: argparse.Namespace, lib: Library) -> int:
    if args.state is not None:
        lib.settings.set(SETTING, args.state == "on")
    state = "on" if lib.settings.get(SETTING) else "off"
    say(f"auto-fetch is {state}: marking papers to-read "
        + ("fetches their arXiv PDFs" if state == "on" else "fetches nothing"))
    return 0
