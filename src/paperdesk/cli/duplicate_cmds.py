"""duplicates, merge, unmerge, not-duplicate: finding and resolving repeated papers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from paperdesk.cli import Commands, ids
from paperdesk.cli.output import emit_json, listing, say, short
from paperdesk.core.api import CHOICES, TIERS, DuplicateError, Library, NotFound


def register(sub: Commands) -> None:
    p = sub.add_parser("duplicates", help="list groups of papers that may be the same work",
                       description="Scan the library for papers that may be the same work. "
                                   "Each group shows its tier (certain, likely, possible), a "
                                   "score and the evidence; the first id is the suggested keeper.")
    p.add_argument("--tier", choices=TIERS, help="only groups of this tier")
    p.add_argument("--json", action="store_true", help="print the groups as JSON")
    p.add_argument("--stats", action="store_true",
                   help="also say on stderr how many title pairs the scan compared")
    p.set_defaults(func=cmd_duplicates)

    p = sub.add_parser("merge", help="merge papers into one",
                       description="Merge papers into the first one named (KEEP): sightings and "
                                   "notes move to it, tags are joined, the highest rating and the "
                                   "furthest reading status win, and empty fields are filled. "
                                   "Every merge can be undone with `unmerge`.")
    p.add_argument("ids", nargs="*", type=ids.paper_id, metavar="ID",
                   help="KEEP then the papers to merge into it")
    p.add_argument("--all-certain", action="store_true",
                   help="merge every group the scan calls certain")
    p.add_argument("--take", action="append", default=[], metavar="FIELD=ID",
                   help=f"take FIELD from paper ID ({', '.join(CHOICES)}); repeatable")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_merge)

    p = sub.add_parser("unmerge", help="undo a merge",
                       description="Undo a merge: the merged papers come back with their ids, "
                                   "fields, tags, notes and sightings. Without an id, lists the "
                                   "merges.")
    p.add_argument("merge_id", nargs="?", type=ids.merge_id, metavar="MERGE_ID",
                   help="the merge to undo")
    p.add_argument("--paper", type=ids.paper_id, metavar="ID",
                   help="undo the latest merge that involved paper ID (in a shared "
                        "library, one no merge made here holds: the merges into it made "
                        "on other computers)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_unmerge)

    p = sub.add_parser("not-duplicate", help="mark papers as different works",
                       description="Remember that these papers are different works; the "
                                   "duplicate scan never groups them again.")
    p.add_argument("ids", nargs="+", type=ids.paper_id, metavar="ID",
                   help="two or more paper ids")
    p.set_defaults(func=cmd_not_duplicate)


def cmd_duplicates(args: argparse.Namespace, lib: Library) -> int:
    groups = lib.duplicates.scan(tier=args.tier)
    if args.stats:
        print(f"compared {groups.candidates} candidate pairs of titles", file=sys.stderr)

    def lines(g: Any) -> str:
        titles = {p["id"]: p["title"] for p in lib.papers(g.ids)}
        return "\n".join([f"{g.tier:<8} {g.score:>3}  {', '.join(g.evidence)}"]
                         + [f"    {pid:>7}  {short(titles.get(pid), 90)}" for pid in g.ids])

    return listing(groups, lines, as_json=args.json, json_item=lambda g: g.to_json(),
                   total=f"{len(groups)} groups")


def _choices(takes: list[str]) -> dict[str, int]:
    out = {}
    for take in takes:
        name, _, value = take.partition("=")
        if not ids.is_paper_id(value):
            raise DuplicateError(f"--take wants FIELD=ID with a paper id, not {take[:40]!r}")
        out[name.strip()] = ids.paper_id(value)
    return out


def cmd_merge(args: argparse.Namespace, lib: Library) -> int:
    if args.all_certain:
        if args.ids or args.take:
            raise DuplicateError("--all-certain takes no paper ids or --take")
        changes = lib.duplicates.merge_all_certain()
        result = changes.result
        if args.json:
            emit_json({k: result[k] for k in ("groups", "papers", "merge_ids")})
        else:
            say(f"merged {result['groups']} certain groups "
                f"({result['papers']} papers merged into others)")
        return 0
    if len(args.ids) < 2:
        raise DuplicateError("name the paper to keep and at least one to merge into it")
    keep = args.ids[0]
    lib.require(args.ids)
    key_before = lib.paper(keep)["citekey"]
    changes = lib.duplicates.merge(keep, args.ids[1:], _choices(args.take))
    if args.json:
        emit_json(dict(changes.result))
    else:
        say(f"merge {changes.result['merge_id']}: merged "
            f"{', '.join(map(str, args.ids[1:]))} into {keep} "
            f"(undo with `paperdesk unmerge {changes.result['merge_id']}`)")
        key = lib.paper(keep)["citekey"]
        if key != key_before:  # a key that left PaperDesk wins (it is cited somewhere)
            say(f"  paper {keep}'s citation key is now {key} (was {key_before})")
    return 0


def cmd_unmerge(args: argparse.Namespace, lib: Library) -> int:
    if args.merge_id is None and args.paper is None:
        merges = lib.duplicates.history()
        return listing(merges, lambda m: f"{m['id']:>5}  {m['created']}  "
                                         f"{'undone' if m['undone'] else '      '}  kept "
                                         f"{m['kept_id']}, merged "
                                         f"{', '.join(map(str, m['merged_ids']))}",
                       as_json=args.json, total=f"{len(merges)} merges")
    if args.merge_id is not None and args.paper is not None:
        raise DuplicateError("give a merge id or --paper, not both")
    if args.merge_id is None and _merged_elsewhere(lib, args.paper):
        back = list(lib.share.unmerge(args.paper).result.restored)
        if args.json:
            emit_json({"kept_id": args.paper, "restored_ids": back, "shared": True})
        else:
            say(f"took apart the merges into paper {args.paper} made on another computer: "
                f"paper{'s' if len(back) > 1 else ''} {', '.join(map(str, back))} "
                f"{'are' if len(back) > 1 else 'is'} back, here and at each computer's "
                "next exchange")
        return 0
    merge_id = args.merge_id if args.paper is None else lib.duplicates.latest_merge_of(args.paper)
    changes = lib.duplicates.unmerge(merge_id)
    if args.json:
        emit_json({**changes.result, "rekeyed": {str(k): v for k, v in
                                                 changes.result["rekeyed"].items()}})
    else:
        back = changes.result["restored_ids"]
        say(f"undid merge {merge_id}: paper{'s' if len(back) > 1 else ''} "
            f"{', '.join(map(str, back))} {'are' if len(back) > 1 else 'is'} back")
        for pid, key in changes.result["rekeyed"].items():
            say(f"  paper {pid} got the citation key {key} (its old one is in use)")
    return 0


def _merged_elsewhere(lib: Library, paper_id: int) -> bool:
    """Whether ``--paper`` names a paper that no merge made here holds, in a shared
    library: the shared document's merges into it are taken apart (``share.unmerge``)."""
    if lib.share.where is None:
        return False
    try:
        lib.duplicates.latest_merge_of(paper_id)
    except NotFound:
        return True
    return False


def cmd_not_duplicate(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.duplicates.mark_different(args.ids)
    say(f"marked {len(set(args.ids))} papers as different works "
        f"({changes.result.get('pairs', 0)} new pairs)")
    return 0
