"""Argument parsing and dispatch. Each command group lives in a module of its own
that exposes ``register(subparsers)``; its parsers set ``func(args, lib) -> int``.

Exit codes: 0 success, 1 when the work failed (or some files did), 2 usage.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NoReturn

from paperdesk import __version__
from paperdesk.cli import Commands
from paperdesk.cli.output import escaped, fail, say
from paperdesk.core.api import (
    ENV_LIBRARY,
    Library,
    Listener,
    NoLibrary,
    PaperDeskError,
    demo_library_path,
    library_path,
    translate,
)

if TYPE_CHECKING:
    from paperdesk.core.api import Outcome, Sync

# Command groups, in the order `paperdesk --help` lists them, with the commands each
# registers: a command loads its own group only (tests check these names).
COMMAND_GROUPS = {
    "paperdesk.cli.library_cmds": ("import", "list", "show", "stats"),
    "paperdesk.cli.trash_cmds": ("delete", "trash"),
    "paperdesk.cli.backup_cmds": ("backup", "restore"),
    "paperdesk.cli.bibtex_cmds": ("export", "citekey"),
    "paperdesk.cli.sync_cmds": ("sync",),
    "paperdesk.cli.share_cmds": ("share",),
    "paperdesk.cli.curation_cmds": ("tag", "tags", "note", "rate", "status", "year",
                                    "reading-list", "search"),
    "paperdesk.cli.duplicate_cmds": ("duplicates", "merge", "unmerge", "not-duplicate"),
    "paperdesk.cli.hub_cmds": ("add", "enrich", "fetch", "follow", "unfollow"),
    "paperdesk.cli.pdf_cmds": ("pdf",),
    "paperdesk.cli.published_cmds": ("published",),
}
_OPTIONS_WITH_VALUE = ("--library",)


def command_group(argv: Sequence[str] | None) -> str | None:
    """The group of the command ``argv`` names, or None (no command, help, unknown)."""
    if argv is None or any(w in ("-h", "--help") for w in argv):
        return None
    words = iter(argv)
    for word in words:
        if word in _OPTIONS_WITH_VALUE:
            next(words, None)
        elif not word.startswith("-"):
            return next((group for group, commands in COMMAND_GROUPS.items()
                         if word in commands), None)
    return None


class Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line (each subcommand's parser is one too)."""

    commands: Commands | None = None  # its subcommands (``build_parser``)

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: {message}; see `{self.prog} --help`\n")


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The parser; given the arguments, only the group of the command they name
    (a command need not load the code of every other one)."""
    parser = Parser(
        prog="paperdesk",
        description="PaperDesk: a reference manager for research digests. "
                    "With no command, opens the desktop app.")
    parser.add_argument("--version", action="version", version=f"PaperDesk {__version__}")
    parser.add_argument("--library", metavar="PATH",
                        help="the library file (default: $PAPERDESK_LIBRARY, else "
                             "library.sqlite in the user data folder)")
    parser.add_argument("--create", action="store_true",
                        help="make a new, empty library at the library's path even where "
                             "PaperDesk had one that is now missing")
    parser.add_argument("--demo", action="store_true",
                        help="use the demo library built from the sample digests")
    sub = parser.commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    group = command_group(argv)
    for name in COMMAND_GROUPS if group is None else [group]:
        importlib.import_module(name).register(sub)
    return parser


def resolve_library_path(args: argparse.Namespace):
    return demo_library_path() if args.demo else library_path(args.library)


# The commands that bring papers in: they make the library a path names when there is
# none yet. Any other command on a path with no library says so (a mistyped --library
# must not leave an empty library behind, nor export its nothing over a file).
MAKES_LIBRARY = frozenset({"import", "fetch", "add"})


def open_for(args: argparse.Namespace) -> Library:
    if args.demo:
        from paperdesk.core.api import open_demo

        return open_demo()
    path = resolve_library_path(args)
    named = bool(args.library) or bool(os.environ.get(ENV_LIBRARY))
    create = args.create or not named or args.command in MAKES_LIBRARY
    try:
        return Library.open(path, create=create, new=args.create)
    except NoLibrary as exc:
        raise PaperDeskError(f"{exc}; `paperdesk --library {path} import FILE` makes one, "
                             "or add --create") from None


def run(args: argparse.Namespace, listeners: Iterable[Listener] = ()) -> int:
    """Run a parsed command; PaperDesk's own errors become one line on stderr.

    ``listeners`` hear the ``Changes`` of every write the command makes.
    """
    try:
        if getattr(args, "opens_library", False):  # gets the library's path, not the library
            return int(args.func(args, resolve_library_path(args)) or 0)
        with open_for(args) as lib:
            for fn in listeners:
                lib.add_listener(fn)
            syncing = lib.sync_feed.after_command()  # syncs follow the command's writes
            # Changes of a command that stopped before it wrote them, as this one opens
            # the library (said with the command's own, counted for none).
            found = syncing.found()
            try:
                code = int(args.func(args, lib) or 0)
            except PaperDeskError:
                _sync(syncing.flush(), syncing.unresolved, found)  # what it committed before
                raise
            synced = _sync(syncing.flush(), syncing.unresolved, found)
            # A sync that could not be written is said on stderr; the command's own
            # change is committed, so only `sync` itself fails for it (a script that
            # retried a `note` on exit 1 would add the note twice).
            return max(code, synced) if args.command == "sync" else code
    except PaperDeskError as exc:
        fail(str(exc))
        return 1
    except sqlite3.Error as exc:
        fail(str(translate(exc, resolve_library_path(args))))  # e.g. "... is damaged ..."
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        fail("interrupted; the current change was rolled back")
        return 130


def _sync(outcomes: list[Outcome], unresolved: Callable[[], list[Sync]],
          found: list[Outcome]) -> int:
    """Say how the syncs were written (those ``found`` pending when the library opened,
    then those the command's changes concern, ``outcomes``) and which are still
    ``unresolved``; 1 when one of the command's could not be written. A file another
    program is writing now (``pending``) is left to it unsaid."""
    from paperdesk.core.api import OK, PENDING

    code = 0
    counted = {id(o) for o in outcomes}
    outcomes = [o for o in [*found, *outcomes] if o.state != PENDING]
    told = {o.sync_id for o in outcomes if o.state != OK}
    for sync in unresolved():  # said after every command until resolved
        if sync.id not in told:
            fail(f"{sync.path}: sync {sync.state_text()}")
    for outcome in outcomes:
        path = escaped(outcome.path)
        if outcome.state != OK:
            fail(outcome.text())
            if outcome.state != "failed":
                say(f"  overwrite it: paperdesk sync now --overwrite {path}\n"
                    f"  or stop:      paperdesk sync remove {path}")
            code = max(code, int(id(outcome) in counted))
        elif outcome.written:
            said = f"updated {path} ({outcome.entries} entries)"
            if outcome.kept:  # an edit that landed while it was written
                said += (f"; the version someone else saved there while it was written is "
                         f"kept as {escaped(outcome.kept)}")
            say(said)
    return code


def main(argv: Sequence[str] | None = None, *, listeners: Iterable[Listener] = ()) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    return run(args, listeners)
