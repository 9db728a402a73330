"""backup, restore: consistent copies of the library, and putting one back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paperdesk.cli import Commands
from paperdesk.cli.output import escaped, fail, say
from paperdesk.core.api import (
    Library,
    backups_folder,
    check_backup,
    held,
    restore,
    restore_files,
)


def register(sub: Commands) -> None:
    p = sub.add_parser("backup", help="write a consistent copy of the library",
                       description="Write a consistent copy of the library, safe while the "
                                   "desktop app or another command is using it. Without FILE, "
                                   "the copy goes to a new timestamped file in the backups "
                                   "folder beside the library.")
    p.add_argument("file", nargs="?", metavar="FILE", help="where to write the copy")
    p.add_argument("--overwrite", action="store_true",
                   help="replace FILE if it exists (never a database: a library, "
                        "a backup, an SQLite file or its -wal/-shm/-journal)")
    p.add_argument("--with-files", action="store_true",
                   help="copy the stored PDFs too, into the folder beside the backup "
                        "(BACKUP.files/); restore puts them back")
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser("restore", help="put a backup back as the library",
                       description="Replace the library with a backup, after checking that the "
                                   "backup is an undamaged PaperDesk library. The library as it "
                                   "was is kept in the backups folder first. Asks for "
                                   "confirmation; --yes confirms without asking (required when "
                                   "not run from a terminal). (`paperdesk restore` brings "
                                   "papers back from the trash.)")
    p.add_argument("file", metavar="FILE", help="the backup to restore")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    # restore works on the library file itself (which may be too damaged to open)
    p.set_defaults(func=cmd_restore, opens_library=True)


def cmd_backup(args: argparse.Namespace, lib: Library) -> int:
    if args.file and Path(args.file).exists() and not args.overwrite:
        fail(f"{args.file}: already exists; choose another name or add --overwrite")
        return 1
    dest = lib.backup(args.file)
    papers = lib.stats()["papers"]
    with_files = lib.pdf.back_up_files(dest).said() if args.with_files else None
    print(escaped(str(dest)))  # a name's control characters never reach a terminal raw
    said = f" and {with_files}" if with_files else ", without its PDF files (--with-files)"
    say(f"backed up the library ({papers} papers){said} to {escaped(str(dest))}")
    return 0


def _confirmed(question: str) -> bool:
    print(escaped(question), end=" ", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


def cmd_restore(args: argparse.Namespace, library: Path) -> int:
    info = check_backup(Path(args.file))
    if not args.yes:
        if not sys.stdin or not sys.stdin.isatty():
            fail("restore replaces the library; add --yes to confirm (there is no terminal "
                 "to ask on); nothing was changed")
            return 1
        holds = held(info.path)
        question = (f"Replace the library {library} with the backup {info.path} "
                    f"({info.papers} papers{f', {holds.said()}' if holds else ''})? "
                    "The current library is kept in "
                    f"{backups_folder(library)}. [y/N]")
        if not _confirmed(question):
            fail("restore cancelled; nothing was changed")
            return 1
    report = restore(info.path, library)
    kept = f"; the library as it was is kept as {report.previous}" if report.previous else ""
    put, aside = restore_files(info.path, library)
    if put is not None:
        kept += f"; {put.said()} put back" + (f" (the folder as it was is kept as {aside})"
                                                if aside else "")
    say(escaped(f"restored {report.papers} papers from {report.restored_from} into "
                f"{report.library}{kept}"))
    return 0
