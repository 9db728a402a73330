"""sync: .bib (or CSL-JSON) files kept up to date with the library.

After every command that changes what a synced file holds, the file is
written again (atomically, and only when its bytes change); see
``core/sync/sync_feed.py``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from paperdesk.cli import Commands
from paperdesk.cli.output import escaped, fail, listing, say
from paperdesk.core.api import CONFLICT, FAILED, FORMATS, Library, PaperDeskError, Sync

if TYPE_CHECKING:
    from paperdesk.core.api import Outcome

STYLES = [f.name for f in FORMATS if f.syncable]  # core/bibtex/formats.py


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "sync", help="keep .bib or CSL-JSON files in sync with the library",
        description="Keep a file up to date with the library: after every change that "
                    "affects it (from any command or the window) it is written again, "
                    "atomically and only when its content changes. Keys written to it are "
                    "frozen. A file changed by someone else is never overwritten: the sync "
                    "stops until you overwrite it (sync now --overwrite) or remove it.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    a = actions.add_parser("add", help="keep FILE in sync",
                           description="Keep FILE in sync with the whole library, the papers "
                                       "matching QUERY, a saved search, a tag or the reading "
                                       "list; FILE is written at once.")
    a.add_argument("file", metavar="FILE")
    a.add_argument("query", nargs="*", help="search query (default: the whole library)")
    what = a.add_mutually_exclusive_group()
    what.add_argument("--search", metavar="NAME", help="the papers of this saved search")
    what.add_argument("--tag", metavar="NAME", help="the papers with this tag")
    what.add_argument("--reading-list", action="store_true", help="the reading list")
    a.add_argument("--style", choices=STYLES, default="bibtex",
                   help="; ".join(f"{f.name}: {f.label}" for f in FORMATS if f.syncable)
                        + " (default: bibtex)")
    a.add_argument("--ascii", action="store_true",
                   help="write non-ASCII characters as LaTeX (or JSON) escapes")
    a.add_argument("--as-written", action="store_true",
                   help="write the fields of entries from .bib files exactly as written, "
                        "without escaping their bare # & _ ^ (see docs/latex-safety.md)")
    a.add_argument("--overwrite", action="store_true",
                   help="replace FILE even if PaperDesk did not write it")
    a.set_defaults(func=cmd_add)

    a = actions.add_parser("list", help="the synced files and their state",
                           description="Each synced file, what goes in it, and its state: "
                                       "up to date, failed (and why), stopped, or changed "
                                       "(the file on disk is not what PaperDesk last "
                                       "wrote, or is missing).")
    a.add_argument("--json", action="store_true", help="print the syncs as JSON")
    a.set_defaults(func=cmd_list)

    a = actions.add_parser("remove", help="stop keeping FILE in sync",
                           description="Stop keeping FILE in sync; the file stays as it is.")
    a.add_argument("file", metavar="FILE")
    a.set_defaults(func=cmd_remove)

    a = actions.add_parser("now", help="write the synced files now",
                           description="Write every synced file (or the FILEs named) now, "
                                       "whole. A stopped sync stays stopped unless "
                                       "--overwrite is given.")
    a.add_argument("files", nargs="*", metavar="FILE")
    a.add_argument("--overwrite", action="store_true",
                   help="replace files changed by someone else")
    a.add_argument("--take", action="store_true",
                   help="keep the files in sync from this library, though they were made "
                        "on another library file (the library moved, or this is a copy "
                        "that is now the one you use)")
    a.set_defaults(func=cmd_now)


def _report(outcomes: list[Outcome]) -> int:
    code = 0
    for outcome in outcomes:
        if outcome.state in (FAILED, CONFLICT):
            fail(outcome.text())
            if outcome.state == CONFLICT:
                say(f"  overwrite it: paperdesk sync now --overwrite {escaped(outcome.path)}\n"
                    f"  or stop:      paperdesk sync remove {escaped(outcome.path)}")
            code = 1
        else:
            say(escaped(outcome.text()))  # a name's newline is no line of its own
    return code


def cmd_add(args: argparse.Namespace, lib: Library) -> int:
    if args.search:
        source, value = "search", args.search
    elif args.tag:
        source, value = "tag", args.tag
    elif args.reading_list:
        source, value = "reading-list", ""
    elif args.query:
        source, value = "query", " ".join(args.query)
    else:
        source, value = "all", ""
    sync = lib.syncs.add(args.file, source, value, style=args.style, ascii=args.ascii,
                         as_written=args.as_written)
    outcome = lib.syncs.write(sync, overwrite=args.overwrite)
    if outcome.state == CONFLICT:  # a file there holds something else: not kept in sync
        lib.syncs.remove(sync.path)
        raise PaperDeskError(f"{sync.path}: a file is there that PaperDesk did not write; "
                             "nothing was changed: choose another file, or add --overwrite "
                             "to replace it (its content is kept beside it)")
    say(f"keeping {escaped(sync.path)} in sync with {escaped(sync.describe())} ({sync.style}"
        f"{', as written' if sync.as_written else ''})")
    code = _report([outcome])
    if source == "tag" and not lib.syncs.members(sync):
        say(f"note: no paper has the tag “{escaped(value)}” yet; the file stays empty until "
            "one has")
    return code


def _row(sync: Sync) -> str:
    """One line a sync, its control characters escaped: a file's name cannot forge a
    line of the list, nor drive the terminal."""
    entries = "-" if sync.entries is None else str(sync.entries)
    return escaped(f"{sync.state_text():<24} {entries:>7}  {sync.style:<9} {sync.path}  "
                   f"({sync.describe()})")


def cmd_list(args: argparse.Namespace, lib: Library) -> int:
    # The state the files on disk have, not only the one recorded.
    syncs = [lib.syncs.on_disk(s) for s in lib.syncs.all()]
    return listing(syncs, _row, as_json=args.json, json_item=Sync.to_json,
                   empty="no file is kept in sync; add one with `paperdesk sync add FILE`")


def cmd_remove(args: argparse.Namespace, lib: Library) -> int:
    sync = lib.syncs.remove(args.file)
    say(f"stopped keeping {escaped(sync.path)} in sync (the file stays)")
    return 0


def cmd_now(args: argparse.Namespace, lib: Library) -> int:
    syncs = [lib.syncs.get(f) for f in args.files] if args.files else lib.syncs.all()
    if not syncs:
        say("no file is kept in sync")
        return 0
    return _report([lib.syncs.write(s, overwrite=args.overwrite, take=args.take)
                    for s in syncs])
