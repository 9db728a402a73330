"""pdf index: the text of the PDFs into NAME.fulltext.sqlite; and what `list` shows of a
query's pdf: words (the page and a snippet of each hit).

`pdf index` is the one command that extracts text. The others that search (`list`,
`export QUERY`...) read the text indexed so far, and `list` says on stderr how many
PDFs are not indexed yet when its query asks for their words.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from paperdesk.cli import Commands
from paperdesk.cli.output import emit_json, escaped, say, short
from paperdesk.core.api import Library


def register(actions: Commands) -> None:
    """``index`` among the actions of ``pdf`` (``cli/pdf_cmds.py``)."""
    i = actions.add_parser(
        "index", help="extract the text of the PDFs for pdf:word searches",
        description="Extract the text of every PDF not indexed yet into the full-text file "
                    "beside the library (NAME.fulltext.sqlite: derived, never backed up; "
                    "deleting it loses nothing). A run that stops, even killed, goes on "
                    "where it stopped the next time. Searches read the text indexed so "
                    "far; no other command indexes.")
    i.add_argument("--rebuild", action="store_true",
                   help="empty the full-text file and extract every PDF again")
    i.add_argument("--json", action="store_true", help="print what was done as JSON")
    i.set_defaults(func=cmd_index)


def _progress(fraction: float, message: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{message} ({fraction:.0%})\x1b[K")
        sys.stderr.flush()


def cmd_index(args: argparse.Namespace, lib: Library) -> int:
    report = lib.fulltext.index(rebuild=args.rebuild, progress=_progress)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if args.json:
        emit_json({"attachments": report.attachments, "indexed": report.indexed,
                   "pages": report.pages, "current": report.current,
                   "removed": report.removed, "failed": report.failed,
                   "missing": report.missing})
    else:
        for line in report.failed:
            say(f"unreadable: {line}")
        for line in report.missing:
            say(f"missing: {line}")
        say(f"indexed {report.indexed:,} of {report.attachments:,} PDFs "
            f"({report.pages:,} pages); {report.current:,} were indexed already"
            + (f"; {report.removed:,} no longer attached, forgotten" if report.removed else ""))
    return 1 if report.failed or report.missing else 0


def hits_of(lib: Library, ids: list[int], query: str) -> dict[int, list[dict[str, Any]]] | None:
    """{paper id: its hits} for ``list``, pages counted from 1 as a viewer shows them;
    None when the query asks for no pdf: words. A note on stderr when PDFs wait to be
    indexed."""
    if not lib.fulltext.asks(query):
        return None
    waiting = lib.fulltext.status()["waiting"]
    if waiting:
        say(f"note: the text of {waiting:,} PDF(s) is not indexed yet, so their words are "
            "not searched: `paperdesk pdf index`")
    return {pid: [{"attachment_id": h["attachment_id"], "name": h["name"],
                   "page": h["page"] + 1, "snippet": h["snippet"]} for h in hits]
            for pid, hits in lib.fulltext.hits(ids, query).items()}


def print_hits(hits: list[dict[str, Any]]) -> None:
    for h in hits:
        print(f"        p. {h['page']} of {escaped(short(h['name'], 40))}: "
              f"{escaped(short(h['snippet'], 100))}")
