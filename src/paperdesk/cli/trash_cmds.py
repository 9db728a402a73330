"""delete, trash: papers go to the trash first and come back from it."""

from __future__ import annotations

import argparse
import sys

from paperdesk.cli import Commands, ids
from paperdesk.cli.output import fail, listing, say, short
from paperdesk.core.api import Library, plural


def register(sub: Commands) -> None:
    p = sub.add_parser("delete", help="move papers to the trash",
                       description="Move papers to the trash; `paperdesk trash restore ID...` "
                                   "brings them back with their tags and notes.")
    p.add_argument("ids", nargs="+", type=ids.paper_id, metavar="ID", help="paper ids")
    p.set_defaults(func=cmd_delete)

    p = sub.add_parser("trash", help="list, restore from or empty the trash",
                       description="List the papers in the trash, bring some back "
                                   "(`trash restore ID...`), or empty it for good.")
    p.add_argument("action", nargs="?", choices=["list", "restore", "empty"], default="list")
    p.add_argument("ids", nargs="*", type=ids.paper_id, metavar="ID",
                   help="papers to restore")
    p.add_argument("--json", action="store_true", help="print the papers as JSON")
    p.add_argument("--yes", action="store_true", help="empty without asking")
    p.set_defaults(func=cmd_trash)


def cmd_delete(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.trash.delete(args.ids)
    say(f"{len(changes.paper_ids)} moved to the trash")
    return 0


def cmd_trash(args: argparse.Namespace, lib: Library) -> int:
    if args.action == "restore":
        if not args.ids:
            fail("name the papers to restore: paperdesk trash restore ID...")
            return 2
        changes = lib.trash.restore(args.ids)
        say(f"{len(changes.paper_ids)} restored")
        return 0
    ids = lib.trash.ids()
    if args.action == "list":
        return listing(lib.papers(ids), lambda p: f"{p['id']:>6}  {short(p['title'], 90)}",
                       as_json=args.json, total=f"{plural(len(ids), 'paper')} in the trash")
    if not args.yes:
        if not sys.stdin.isatty():
            fail("emptying the trash deletes papers for good; add --yes to confirm")
            return 1
        answer = input(f"Delete {plural(len(ids), 'paper')} for good? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            say("nothing deleted")
            return 1
    changes = lib.trash.empty()
    say(f"{plural(changes.result.get('deleted', 0), 'paper')} deleted for good")
    return 0
