"""published: where preprints appeared, from DBLP and Semantic Scholar (the network).

``paperdesk published [QUERY]`` asks about the papers with an arXiv id and changes
nothing: it lists each paper's candidates, numbered, with what accepting one would
change in the export. ``--accept`` records the candidate of each paper that has exactly
one; a paper with two or more is never decided for you: ``--pick ID:N`` records its
candidate N. ``--forget ID`` makes a paper a preprint again. The base URLs are
``$PAPERDESK_DBLP_API`` and ``$PAPERDESK_S2_API``.
"""

from __future__ import annotations

import argparse

from paperdesk.cli import Commands, ids
from paperdesk.cli.output import emit_json, escaped, fail, say, short
from paperdesk.core.api import Library, PaperDeskError


def _pick(text: str) -> tuple[int, int]:
    """"ID:N": a paper id and a candidate number, each checked (``cli/ids.py``)."""
    paper, colon, number = text.partition(":")
    if not colon:
        raise argparse.ArgumentTypeError(f"not ID:N (a paper id and a candidate number "
                                         f"from 1): {text[:40]!r}")
    return ids.paper_id(paper), ids.number(number, "a candidate number", 1, 1000)


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "published", help="find where preprints were published (DBLP, Semantic Scholar)",
        description="Ask DBLP and Semantic Scholar where the papers with an arXiv id were "
                    "published, and show what accepting each candidate would change in the "
                    "export (@inproceedings or @article with booktitle or journal, year, "
                    "pages, DOI; eprint kept). Nothing is recorded unless you --accept or "
                    "--pick. This asks the network.")
    p.add_argument("query", nargs="*", help="search query; default: every paper with an "
                                            "arXiv id")
    p.add_argument("--ids", type=ids.paper_id_list, metavar="1,2,3", help="only these papers")
    p.add_argument("--json", action="store_true",
                   help="print the findings as JSON: id, citekey, title, arxiv_id, current, "
                        "candidates (each with its changes), problems")
    p.add_argument("--accept", action="store_true",
                   help="record the candidate of each paper that has exactly one; those "
                        "with more are listed, not decided")
    p.add_argument("--pick", type=_pick, action="append", default=[], metavar="ID:N",
                   help="record candidate N (as numbered in the listing) for paper ID; "
                        "may be given again")
    p.add_argument("--forget", type=ids.paper_id, metavar="ID",
                   help="forget paper ID's published version: exported as a preprint again")
    p.set_defaults(func=cmd_published)


def cmd_published(args: argparse.Namespace, lib: Library) -> int:
    if args.forget is not None:
        changes = lib.published.forget(args.forget)
        say(f"paper {args.forget}: " + ("a preprint again" if changes.undo else
                                        "had no published version"))
        return 0
    picks = dict(args.pick)
    chosen = args.ids
    if picks and chosen is None and not args.query:
        chosen = list(picks)
    findings, stopped = lib.published.find(chosen, query=" ".join(args.query) or None)
    if stopped and not any(f.candidates for f in findings):
        fail(f"{stopped}; nothing changed")
        return 1
    recorded = asked = 0
    for finding in findings:
        number = picks.pop(finding.paper_id, None)
        if number is not None:
            if number > len(finding.candidates):
                raise PaperDeskError(f"paper {finding.paper_id} has {len(finding.candidates)} "
                                     f"candidate(s), not {number}; nothing recorded for it")
            lib.published.accept(finding.paper_id, finding.candidates[number - 1])
            recorded += 1
        elif args.accept and len(finding.candidates) == 1:
            lib.published.accept(finding.paper_id, finding.candidates[0])
            recorded += 1
        elif args.accept and len(finding.candidates) > 1:
            asked += 1
    for pid in picks:
        fail(f"paper {pid}: no arXiv id, or not found; nothing recorded for it")
    if args.json:
        emit_json([f.to_json() for f in findings])
    else:
        _show(findings)
    if stopped:
        say(f"stopped early: {stopped}")
    say(f"{len(findings)} paper(s) asked about; "
        f"{sum(1 for f in findings if f.candidates)} with a published version"
        + (f"; {recorded} recorded" if recorded else "")
        + (f"; {asked} with several candidates, not decided: choose with --pick ID:N"
           if asked else ""))
    return 1 if picks else 0


def _show(findings) -> None:
    for f in findings:
        print(f"{f.paper_id}\t{f.citekey}\t{short(escaped(f.title), 70)}\tarXiv:{f.arxiv_id}")
        if f.current:
            print(f"\trecorded: {escaped(f.current['venue'])} {f.current['year'] or ''} "
                  f"({f.current['source']}, {f.current['accepted'][:10]})")
        for n, venue in enumerate(f.candidates, 1):
            print(f"\t{n}: {escaped(venue.venue)} {venue.year or ''} [{venue.source}]: "
                  + "; ".join(escaped(line) for line in f.changes(venue)))
        if not f.candidates:
            print("\tno published version found")
        for line in f.problems:
            print(f"\t! {escaped(line)}")
