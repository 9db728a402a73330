"""add, enrich, fetch: the only commands that talk to metadata services.

The Hub is ``$HF_ENDPOINT`` (default huggingface.co); ``HF_HUB_OFFLINE=1``
keeps the Hub out. ``add`` also asks arXiv's API (``$PAPERDESK_ARXIV_API``) and
Crossref (``$PAPERDESK_CROSSREF_API``). Nothing else PaperDesk does uses the network.
"""

from __future__ import annotations

import argparse
import datetime as dt
from dataclasses import replace
from typing import Any

from paperdesk.cli import Commands
from paperdesk.cli.output import emit_json, escaped, say, short
from paperdesk.core.api import Library


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"not a number of seconds from 0 to 3600: {text!r}")
    return value


def _limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                        help="the longest one request to the Hub may take, every byte of "
                             "its answer included (default 30)")


def _hub(args: argparse.Namespace) -> Any:
    from paperdesk.core.api import DEFAULT_LIMITS, Hub

    limits = DEFAULT_LIMITS if args.timeout is None else replace(DEFAULT_LIMITS,
                                                                 timeout=args.timeout)
    return Hub(limits)


MAX_LINE = 4096  # a line of standard input longer than this is no identifier


def register(sub: Commands) -> None:
    _register_add(sub)
    _register_hub(sub)
    _register_follow(sub)


def _register_add(sub: Commands) -> None:
    p = sub.add_parser(
        "add", help="add papers by arXiv id, DOI or link (arXiv, Hugging Face, OpenReview)",
        description="Add the papers that arXiv ids (2401.12345, arXiv:2401.12345v2, "
                    "hep-th/9901001), arXiv, Hugging Face paper and OpenReview links, and "
                    "DOIs (10.1145/..., doi:..., https://doi.org/...) name. arXiv's API, "
                    "the Hub and Crossref describe them (authors in order, title, "
                    "abstract, date, DOI). A paper the library already has is named, "
                    "never added twice. One a service cannot describe (offline, unknown) "
                    "is kept with what its link gives, marked incomplete; adding it again "
                    "completes it. One undoable edit.")
    p.add_argument("links", nargs="+", metavar="ARXIV_DOI_OR_LINK",
                   help="an arXiv id, DOI or link; - reads one per line from standard input")
    p.add_argument("--json", action="store_true", help="print what became of each as JSON")
    _limits(p)
    p.set_defaults(func=cmd_add)


def _register_hub(sub: Commands) -> None:
    p = sub.add_parser(
        "enrich", help="complete papers from Hugging Face (authors, arXiv ids, dates, links)",
        description="Ask the Hugging Face Hub about the papers (matching QUERY, else all) "
                    "that still lack an arXiv id or authors, and fill in the arXiv id, "
                    "the authors in order, the exact date, the GitHub repository, the "
                    "project page and the upvotes. A paper is completed only when the "
                    "Hub has one of the same title whose abstract agrees; the others are "
                    "left alone and reported. Values you typed are never replaced. One "
                    "run is one undoable edit. Uses $HF_ENDPOINT; HF_HUB_OFFLINE=1 asks "
                    "nothing.")
    p.add_argument("query", nargs="*", help="search query (words, \"phrases\"); default: all")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    _limits(p)
    p.set_defaults(func=cmd_enrich)

    p = sub.add_parser(
        "fetch", help="import the Hub's daily papers of a day (or days) as digests",
        description="Fetch the Hugging Face daily papers of --date (through --to) and "
                    "import each day as a digest, exactly as if the page had been saved "
                    "and imported, with authors and arXiv ids already complete. A day "
                    "fetched before is asked again and only its new papers come in.")
    p.add_argument("--date", type=_day, required=True, metavar="YYYY-MM-DD",
                   help="the (first) day")
    p.add_argument("--to", type=_day, metavar="YYYY-MM-DD", help="the last day (default: --date)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    _limits(p)
    p.set_defaults(func=cmd_fetch)


def _register_follow(sub: Commands) -> None:
    p = sub.add_parser(
        "follow", help="bring arXiv categories' and authors' new papers with Today",
        description="Follow arXiv categories (cs.CL, cs.LG, hep-th) and authors (--author "
                    "\"Ada Lovelace\"): each Today then asks arXiv for their new "
                    "submissions and imports them beside the Hub's daily papers (a paper "
                    "already here is one more sighting of it). --list shows what is "
                    "followed; --now fetches their new papers at once.")
    p.add_argument("categories", nargs="*", metavar="CATEGORY", help="arXiv categories")
    p.add_argument("--author", action="append", default=[], metavar="NAME",
                   help="an author to follow (again for more)")
    p.add_argument("--list", action="store_true", help="list what is followed")
    p.add_argument("--now", action="store_true", help="fetch the new papers now")
    p.add_argument("--json", action="store_true", help="print the list or report as JSON")
    p.set_defaults(func=cmd_follow)

    p = sub.add_parser("unfollow", help="stop following arXiv categories or authors",
                       description="Stop following arXiv categories and authors "
                                   "(their papers stay in the library).")
    p.add_argument("categories", nargs="*", metavar="CATEGORY", help="arXiv categories")
    p.add_argument("--author", action="append", default=[], metavar="NAME",
                   help="an author to stop following (again for more)")
    p.set_defaults(func=cmd_unfollow)


def cmd_enrich(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.enrich(query=" ".join(args.query) or None, hub=_hub(args))
    result = changes.result
    if args.json:
        emit_json({**dict(result), "rekeyed": {str(k): list(v) for k, v in
                                               result.rekeyed.items()}})
    else:
        for pid, title in result.not_found:
            say(f"  not found: {pid} {short(title, 70)}")
        for pid, title, why in result.unsure:
            say(f"  left alone: {pid} {short(title, 50)}: {why}")
        for pid, title, why in result.failed[:20]:
            say(f"  failed: {pid} {short(title, 40)}: {why}")
        if len(result.failed) > 20:
            say(f"  ... and {len(result.failed) - 20} more failed")
        for warning in result.warnings:
            say(f"  warning: {warning}")
        say(result.summary())
    return 1 if result.stopped or (result.failed and not result.completed) else 0


def cmd_fetch(args: argparse.Namespace, lib: Library) -> int:
    reports = lib.fetch_daily(args.date, args.to, hub=_hub(args))
    if args.json:
        emit_json([r.to_json() for r in reports])
    for r in reports:
        if r.error:
            say(f"{r.day}: {r.error}")
        elif not args.json:
            say(f"{r.day}: {r.status}: {r.papers} papers, {r.new_papers} new, "
                f"{r.completed} completed")
        for warning in r.warnings if not args.json else []:
            say(f"  {warning}")
    return 1 if any(r.status == "failed" for r in reports) else 0


def _inputs(words: list[str]) -> list[str]:
    import sys

    out: list[str] = []
    for word in words:
        if word != "-":
            out.append(word)
            continue
        for line in sys.stdin:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line if len(line) <= MAX_LINE else line[:MAX_LINE + 1])
    return out


def cmd_add(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.add(_inputs(args.links), hub=_hub(args))
    result = changes.result
    if args.json:
        emit_json([item.to_json() for item in result.inputs])
    for item in result.inputs:
        who = f"{item.citekey or item.paper_id}"
        if item.status == "failed":
            say(f"  failed: {item.why}")
        elif not args.json:
            title = short(item.title, 70)
            say(f"{item.status}: {who} {title}" if item.status != "already in the library"
                else f"already in the library as {who}: {title}"
                + (f" ({item.why})" if item.why else ""))
        for warning in [] if args.json else item.warnings:
            say(f"  warning: {warning}")
    failed = sum(item.status == "failed" for item in result.inputs)
    return 1 if failed else 0


def cmd_follow(args: argparse.Namespace, lib: Library) -> int:
    if not (args.categories or args.author or args.list or args.now):
        say("paperdesk: follow: name categories or --author NAME (or --list, --now)")
        return 2
    added = lib.follows.add("category", args.categories) if args.categories else []
    added += lib.follows.add("author", args.author) if args.author else []
    for value in added:
        say(f"following {value}")
    if args.list:
        rows = lib.follows.listed()
        if args.json:
            emit_json(rows)
        for row in [] if args.json else rows:
            print(f"{row['kind']:<8}  {row['value']}  (newest taken: {row['newest'] or '-'})")
    if args.now:
        reports = lib.follows.fetch()
        if args.json and not args.list:
            emit_json([r.to_json() for r in reports])
        for r in reports:
            say(f"{r.value}: {r.error or r.status}" + (
                f": {r.papers} papers, {r.new_papers} new" if r.status == "imported" else ""))
        return 1 if any(r.status == "failed" for r in reports) else 0
    return 0


def cmd_unfollow(args: argparse.Namespace, lib: Library) -> int:
    if not (args.categories or args.author):
        say("paperdesk: unfollow: name categories or --author NAME")
        return 2
    gone = (lib.follows.remove("category", args.categories)
            + lib.follows.remove("author", args.author))
    for value in gone:
        say(f"no longer following {value}")
    missing = [v for v in [*args.categories, *args.author] if " ".join(v.split()) not in gone]
    for value in missing:
        say(f"paperdesk: {escaped(value)} was not followed")
    return 1 if missing else 0
