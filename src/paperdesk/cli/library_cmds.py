"""import, list, show, stats: getting digests in and looking at what is there."""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdesk.cli import Commands, ids, pdf_text_cmds
from paperdesk.cli.output import emit_json, emit_json_list, escaped, say, short
from paperdesk.core.api import SORTS, Library, author_line, describe, paper_links, plural


def register(sub: Commands) -> None:
    p = sub.add_parser("import", help="import digest files or folders of them",
                       description="Import digest files (or folders of them). Each file is "
                                   "imported whole or not at all. --undo takes the "
                                   "library's last import back (or the last import of the "
                                   "file named), whoever made it: the papers it created "
                                   "go, those you changed since go to the trash.")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--undo", action="store_true",
                   help="undo the last import (of the file PATH names, if given)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("list", help="list papers matching a query",
                       description="List papers, optionally filtered by a search query: "
                                   "words, \"phrases\", tag:x, -tag:x, status:to-read, "
                                   "rating>=4, year:2024, year>=2023, upvotes>10, digest:NAME, "
                                   "has:notes, has:pdf, pdf:word, pdf:\"a phrase\" (the text "
                                   "`pdf index` extracted; a hit's page and snippet are "
                                   "shown), is:duplicate-candidate, OR, (...), -word. "
                                   "Put -- before a query that starts with '-'.")
    p.add_argument("query", nargs="*", help="search query (see above)")
    p.add_argument("--json", action="store_true", help="print full records as JSON")
    p.add_argument("--limit", type=ids.count, metavar="N", help="at most N papers")
    p.add_argument("--sort", choices=sorted(SORTS), help="sort field")
    p.add_argument("--desc", action="store_true", help="sort in descending order")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show one paper", description="Show one paper in full.")
    p.add_argument("id", type=ids.paper_id, metavar="ID", help="the paper's id")
    p.add_argument("--json", action="store_true", help="print the record as JSON")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("stats", help="count what the library holds",
                       description="Count papers, digests, sightings, tags and notes.")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.set_defaults(func=cmd_stats)


def cmd_import(args: argparse.Namespace, lib: Library) -> int:
    from paperdesk.core.api import ERROR  # the importer's reports: not loaded by the others

    if args.undo:
        return _undo_import(args, lib)
    if not args.paths:
        say("paperdesk: import: name the files or folders to import (or --undo)")
        return 2
    reports = lib.import_paths(args.paths)
    if args.json:
        emit_json([r.to_json() for r in reports])
    else:
        for r in reports:
            if r.status == ERROR:  # each line of a report is one line, whatever the names
                say(f"error: {escaped(r.error or '')}")
                continue
            if r.error:
                say(f"{r.status}: {escaped(r.error)}")
                continue
            say(f"{r.status}: {escaped(r.name)}: {plural(r.entries, 'entry', 'entries')}, "
                f"{plural(r.new_papers, 'new paper')}, {r.merged} merged into existing")
            for line in r.merge_lines():
                say(f"  merged: {escaped(line)}")
            for line in r.rename_lines():
                say(f"  renamed: {escaped(line)}")
            for w in r.warnings:
                say(f"  warning: {escaped(w)}")
    return 1 if any(r.status == ERROR for r in reports) else 0


def _undo_import(args: argparse.Namespace, lib: Library) -> int:
    if len(args.paths) > 1:
        say("paperdesk: import --undo: name one file, or none for the last import")
        return 2
    name = Path(args.paths[0]).name if args.paths else None
    record = lib.imports.last(name)
    if record is None:
        say("paperdesk: " + (f"no import of {escaped(name)} is left to undo" if name
                             else "no import is left to undo"))
        return 1
    changes = lib.imports.undo(record)
    if args.json:
        emit_json({"undone": record.files, **dict(changes.result)})
    else:
        say(f"{escaped(record.label)}: {lib.imports.summary(changes.result).lower()}")
    return 0


def cmd_list(args: argparse.Namespace, lib: Library) -> int:
    query = " ".join(args.query)
    ids = lib.search(query, sort=args.sort, descending=args.desc, limit=args.limit).ids
    hits = pdf_text_cmds.hits_of(lib, ids, query)  # the pages of pdf: words, if any
    if args.json:
        emit_json_list(({**p, "pdf_hits": hits.get(p["id"], [])} if hits is not None else p)
                       for p in lib.iter_papers(ids, with_notes=True))
        return 0
    for paper in lib.iter_papers(ids):
        year = paper["year"] or "    "
        mark = "?" if paper["year_inferred"] else " "
        print(f"{paper['id']:>6}  {year}{mark} {paper['upvotes'] or '':>4}  "
              f"{short(paper['title'], 90)}")
        pdf_text_cmds.print_hits((hits or {}).get(paper["id"], []))
    say(plural(len(ids), "paper"))
    return 0


def cmd_show(args: argparse.Namespace, lib: Library) -> int:
    paper = lib.paper(args.id)
    if args.json:
        paper["sightings"] = lib.sightings(args.id)
        emit_json(paper)
        return 0
    print(paper["title"])
    print()
    who = author_line(paper["authors"]) or paper["organization"] or (
        f"{paper['author_count']} authors" if paper["author_count"] else "authors unknown")
    year = f"{paper['published'] or 'date unknown'}"
    if paper["year_inferred"]:
        year += " (year inferred)"
    upvotes = "upvotes unknown" if paper["upvotes"] is None else plural(paper["upvotes"],
                                                                        "upvote")
    print(f"{who} · {year} · {upvotes} · key {paper['citekey']}")
    print(f"status {paper['status']} · rating {paper['rating']} · "
          f"tags {', '.join(paper['tags']) or '-'}")
    print(f"seen in {escaped(', '.join(paper['digests'])) or '-'}")  # files' names
    links = paper_links(paper)
    if links:
        print(" · ".join(f"{name} {url}" for name, url in links))
    described = [f"{name}: {describe(entry)}" for name, entry in paper["sources"].items()
                 if name not in ("title", "abstract")]
    if described:
        print("sources: " + escaped("; ".join(described)))  # names of .bib files too
    print()
    print(paper["abstract"])
    for note in paper.get("notes", []):
        print(f"\n[note {note['id']}, {note['updated']}]\n{note['text']}")
    return 0


def cmd_stats(args: argparse.Namespace, lib: Library) -> int:
    stats = lib.stats()
    if args.json:
        emit_json(stats)
    else:
        for key, value in stats.items():
            print(f"{key:>14}  {value}")
    return 0
