"""share: one library on several computers, through a folder a sync tool keeps in step."""

from __future__ import annotations

import argparse

from paperdesk.cli import Commands
from paperdesk.cli.output import emit_json, escaped, fail, say
from paperdesk.core.api import Library, plural


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "share", help="share this library with other computers through a folder",
        description="Share this library through FOLDER, a folder your own sync tool keeps "
                    "in step on every computer (Syncthing, Dropbox, a NAS), or a git "
                    "repository: each computer keeps its own library and exchanges changes "
                    "there. With no FOLDER "
                    "and no option, show the share's status.")
    p.add_argument("where", nargs="?", metavar="FOLDER",
                   help="the shared folder (never the folder the library is in), or a "
                        "git repository: a bare repository's path or URL")
    p.add_argument("--person", metavar="NAME",
                   help="in a lab's shared folder: your name; your reading status, rating "
                        "and reading queue stay your own")
    p.add_argument("--with-files", action="store_true",
                   help="the PDF files travel too, each written once into the folder under "
                        "its SHA-256 (with FOLDER, or on a library shared already)")
    p.add_argument("--status", action="store_true",
                   help="show devices seen, the last exchange, what waits, what conflicted")
    p.add_argument("--json", action="store_true", help="print the status as JSON")
    p.add_argument("--now", action="store_true", help="exchange with the folder once, now")
    p.add_argument("--stop", action="store_true",
                   help="stop sharing (the library keeps everything; the folder is left)")
    p.set_defaults(func=cmd_share)


def cmd_share(args: argparse.Namespace, lib: Library) -> int:
    if args.stop:
        say("stopped sharing" if lib.share.stop() else "this library is not shared")
        return 0
    if args.where:
        _said(lib, lib.share.start(args.where, person=args.person,
                                   with_files=args.with_files).result)
        return 0
    if args.with_files:
        lib.share.with_files()
    if args.now or args.with_files:
        _said(lib, lib.share.now().result)
        return 0
    return _status(lib, args.json)


def _said(lib: Library, result) -> None:
    for line in result.skipped:
        fail(escaped(line))
    said = (f"exchanged: sent {plural(result.sent, 'change')}, read "
            f"{plural(result.read, 'update file')}; {result.added} added, "
            f"{result.changed} changed, {result.removed} removed")
    say(said)
    if result.in_trash:
        say(f"{plural(result.in_trash, 'edit')} landed on papers in the trash")
    files = lib.share.files
    if files.sent or files.fetched:
        say(f"files: sent {plural(files.sent, 'PDF')}, fetched {plural(files.fetched, 'PDF')}")
    for line in files.lines:
        fail(escaped(line))
    if result.conflicts:
        fail(f"{plural(len(result.conflicts), 'citation key')} conflicted: "
             "paperdesk share --status names them")


def _status(lib: Library, as_json: bool) -> int:
    status = lib.share.status()
    if as_json:
        emit_json(status.to_json())
        return 0
    if status.where is None:
        say("this library is not shared; paperdesk share FOLDER starts")
        return 0
    print(f"shared through {escaped(status.where)}"
          + (f" as {escaped(status.person)}" if status.person else ""))
    print(f"this computer: {status.device}; last exchange {status.last_exchange or 'never'}")
    for device, when in sorted(status.devices.items()):
        if device != status.device:
            print(f"  seen {device}: {when}")
    for line in status.waiting:
        print(f"  waiting: {escaped(line)}")
    for line in status.conflicted:
        print(f"  conflicted: {escaped(line)}")
    if status.in_trash:
        print(f"  {plural(status.in_trash, 'edit')} landed on papers in the trash")
    return 0
