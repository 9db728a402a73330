"""tag, tags, note, rate, status, year, reading-list, search: curating papers.

Messages go to stderr, data (``--json``, lists) to stdout. Usage mistakes exit
2; a refused value (a bad query, an unknown paper) exits 1 with one line.
"""

from __future__ import annotations

import argparse
import sys

from paperdesk.cli import Commands
from paperdesk.cli import ids as numbers
from paperdesk.cli.library_cmds import cmd_list
from paperdesk.cli.output import emit_json, listing, say, short
from paperdesk.core.api import SORTS, STATUSES, Library, NotFound, plural


def _group(sub: Commands, name: str, help: str, description: str,
           func) -> tuple[argparse.ArgumentParser, Commands]:
    p = sub.add_parser(name, help=help, description=description)
    p.set_defaults(func=func, parser=p, action=None)
    return p, p.add_subparsers(dest="action", metavar="ACTION")


def register(sub: Commands) -> None:
    _register_tags(sub)
    _register_notes(sub)
    _register_papers(sub)
    _register_reading_list(sub)
    _register_searches(sub)


def _register_tags(sub: Commands) -> None:
    p = sub.add_parser(
        "tag", help="add or remove tags on papers", usage="paperdesk tag ID... +TAG -TAG",
        description="Add (+name) and remove (-name) tags on one or more papers, e.g. "
                    "`paperdesk tag 12 14 +vision -todo`. Tags match regardless of case.")
    p.add_argument("items", nargs=argparse.REMAINDER, metavar="ID... +TAG -TAG",
                   help="paper ids, then tags to add (+name) or remove (-name)")
    p.set_defaults(func=cmd_tag, parser=p)

    p, actions = _group(sub, "tags", "list, rename, merge or delete tags",
                        "List the tags with how many papers carry each; or rename, merge "
                        "or delete one.", cmd_tags)
    p.add_argument("--json", action="store_true", help="print the tags as JSON")
    a = actions.add_parser("rename", help="rename a tag", description="Rename a tag "
                           "(a change of case is a rename too).")
    a.add_argument("old", help="the tag's current name")
    a.add_argument("new", help="its new name")
    a = actions.add_parser("merge", help="merge one tag into another",
                           description="Give every paper tagged SOURCE the tag TARGET, "
                                       "then delete SOURCE.")
    a.add_argument("source", help="the tag that goes away")
    a.add_argument("target", help="the tag that stays")
    a = actions.add_parser("delete", help="delete a tag",
                           description="Delete a tag and take it off every paper.")
    a.add_argument("name", help="the tag to delete")


def _register_notes(sub: Commands) -> None:
    p = sub.add_parser(
        "note", help="add, list, edit or delete notes",
        description="`note ID TEXT` adds a note to a paper (TEXT - reads it from stdin); "
                    "`note ID` lists the paper's notes; `note --edit NOTE_ID TEXT` "
                    "replaces a note's text; `note --delete NOTE_ID` deletes it.")
    p.add_argument("args", nargs="*", metavar="ID [TEXT]", help="a paper id and the note")
    p.add_argument("--edit", type=numbers.note_id, metavar="NOTE_ID",
                   help="replace this note's text")
    p.add_argument("--delete", type=numbers.note_id, metavar="NOTE_ID", help="delete this note")
    p.add_argument("--json", action="store_true", help="list the notes as JSON")
    p.set_defaults(func=cmd_note, parser=p)


def _register_papers(sub: Commands) -> None:
    p = sub.add_parser("rate", help="rate papers 0-5 stars",
                       description="Give papers 0 to 5 stars (0 clears the rating).")
    p.add_argument("ids", nargs="+", type=numbers.paper_id, metavar="ID", help="paper ids")
    p.add_argument("rating", type=int, choices=range(6), metavar="N", help="stars, 0-5")
    p.set_defaults(func=cmd_rate)

    p = sub.add_parser("status", help="set papers' reading status",
                       description="Set the reading status of papers: "
                                   f"{', '.join(STATUSES)}. To-read papers join the end "
                                   "of the reading list.")
    p.add_argument("ids", nargs="+", type=numbers.paper_id, metavar="ID", help="paper ids")
    p.add_argument("status", choices=STATUSES, metavar="STATUS", help=" | ".join(STATUSES))
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("year", help="correct a paper's year",
                       description="Set a paper's year (for a year PaperDesk had to infer); "
                                   "the paper's date moves to that year.")
    p.add_argument("id", type=numbers.paper_id, metavar="ID", help="paper id")
    p.add_argument("year", type=numbers.year, help="the right year")
    p.set_defaults(func=cmd_year)


def _register_reading_list(sub: Commands) -> None:
    p, actions = _group(sub, "reading-list", "show or reorder the reading list",
                        "Show the to-read papers in reading order, or move one.", cmd_reading)
    p.add_argument("--json", action="store_true", help="print full records as JSON")
    a = actions.add_parser("move", help="move a paper within the reading list",
                           description="Move a paper to POSITION (1 = first) of the list.")
    a.add_argument("id", type=numbers.paper_id, metavar="ID", help="paper id")
    a.add_argument("position", type=numbers.position, help="its new place, 1 = first")


def _register_searches(sub: Commands) -> None:
    _, actions = _group(sub, "search", "save, list, run or delete saved searches",
                        "Saved searches (smart lists): a name for a query. "
                        "`paperdesk list QUERY` runs a query.", cmd_search)
    a = actions.add_parser("save", help="save a query under a name",
                           description="Save QUERY under NAME (replacing a search of that "
                                       "name). The query is checked first.")
    a.add_argument("name", help="the search's name")
    a.add_argument("query", nargs="+", help="the query")
    a = actions.add_parser("list", help="list the saved searches",
                           description="List the saved searches with their queries.")
    a.add_argument("--json", action="store_true", help="print them as JSON")
    a = actions.add_parser("delete", help="delete a saved search",
                           description="Delete a saved search.")
    a.add_argument("name", help="the search's name")
    a = actions.add_parser("run", help="list the papers a saved search finds",
                           description="Run a saved search and list its papers, "
                                       "as `paperdesk list` does.")
    a.add_argument("name", help="the search's name")
    a.add_argument("--json", action="store_true", help="print full records as JSON")
    a.add_argument("--limit", type=numbers.count, metavar="N", help="at most N papers")
    a.add_argument("--sort", choices=sorted(SORTS), help="sort field")
    a.add_argument("--desc", action="store_true", help="sort in descending order")


def _report(changes, done: str) -> int:
    say(done if changes else "nothing to change")
    return 0


def cmd_tag(args: argparse.Namespace, lib: Library) -> int:
    ids: list[int] = []
    add: list[str] = []
    remove: list[str] = []
    for item in args.items:
        if item[:1] in ("+", "-") and len(item) > 1:
            (add if item[0] == "+" else remove).append(item[1:])
        elif item[:1].isdigit() and not (add or remove):
            ids.append(_paper_id(args, item))
        else:
            args.parser.error(f"expected paper ids, then +TAG or -TAG items; got {item!r}")
    if not ids or not (add or remove):
        args.parser.error("give paper ids and at least one +TAG or -TAG")
    lib.require(ids)
    done = []
    if add:
        result = lib.curation.add_tags(ids, add).result
        done.append(f"added {plural(result['tagged'], 'tag')}")
    if remove:
        result = lib.curation.remove_tags(ids, remove).result
        done.append(f"removed {plural(result['untagged'], 'tag')}")
    say(f"{', '.join(done)} on {plural(len(ids), 'paper')}")
    return 0


def cmd_tags(args: argparse.Namespace, lib: Library) -> int:
    c = lib.curation
    if args.action == "rename":
        return _report(c.rename_tag(args.old, args.new), f"renamed {args.old} to {args.new}")
    if args.action == "merge":
        changes = c.merge_tags(args.source, args.target)
        return _report(changes, f"merged {args.source} into {args.target}")
    if args.action == "delete":
        changes = c.delete_tag(args.name)
        return _report(changes, f"deleted {args.name} from "
                                f"{plural(changes.result['untagged'], 'paper')}")
    tags = c.tags()
    return listing(tags, lambda tag: f"{tag['count']:>6}  {tag['name']}", as_json=args.json,
                   total=plural(len(tags), "tag"))


def cmd_note(args: argparse.Namespace, lib: Library) -> int:
    c = lib.curation
    if args.delete is not None:
        if args.args or args.edit is not None:
            args.parser.error("--delete NOTE_ID takes nothing else")
        c.delete_note(args.delete)
        say(f"deleted note {args.delete}")
        return 0
    if args.edit is not None:
        if len(args.args) != 1:
            args.parser.error("--edit NOTE_ID needs the new TEXT")
        return _report(c.edit_note(args.edit, _text(args.args[0])), f"edited note {args.edit}")
    if not args.args or len(args.args) > 2 or not args.args[0][:1].isdigit():
        args.parser.error("give a paper ID and the note's TEXT (or ID alone to list notes)")
    paper_id = _paper_id(args, args.args[0])
    if len(args.args) == 1:
        lib.require([paper_id])
        notes = c.notes(paper_id)
        return listing(notes, lambda note: f"[note {note['id']}, {note['updated']}]\n"
                                           f"{note['text']}\n",
                       as_json=args.json, total=plural(len(notes), "note"))
    changes = c.add_note(paper_id, _text(args.args[1]))
    say(f"added note {changes.result['note_id']} to paper {paper_id}")
    return 0


def _paper_id(args: argparse.Namespace, text: str) -> int:
    try:
        return numbers.paper_id(text)
    except argparse.ArgumentTypeError as exc:
        args.parser.error(str(exc))
        raise  # parser.error exits


def _text(text: str) -> str:
    return sys.stdin.read() if text == "-" else text


def cmd_rate(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.curation.set_rating(args.ids, args.rating)
    return _report(changes, f"rated {plural(changes.result.get('changed', 0), 'paper')} "
                            f"{plural(args.rating, 'star')}")


def cmd_status(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.curation.set_status(args.ids, args.status)
    code = _report(changes, f"marked {plural(changes.result.get('changed', 0), 'paper')} "
                            f"{args.status}")
    if args.status == "to-read" and lib.settings.get("fetch_to_read"):  # pdf auto-fetch
        from paperdesk.cli.pdf_fetch_cmds import fetch_to_read

        code = max(code, fetch_to_read(lib, args.ids))
    return code


def cmd_year(args: argparse.Namespace, lib: Library) -> int:
    return _report(lib.curation.set_year(args.id, args.year),
                   f"paper {args.id} is now from {args.year}")


def cmd_reading(args: argparse.Namespace, lib: Library) -> int:
    c = lib.curation
    if args.action == "move":
        changes = c.move_in_reading_list(args.id, args.position - 1)
        order = c.reading_list()
        place = order.index(args.id) + 1  # a place past the end is the last one
        return _report(changes, f"moved paper {args.id} to place {place} of {len(order)}")
    ids = c.reading_list()
    if args.json:
        emit_json(lib.papers(ids, with_notes=True))
        return 0
    for n, paper in enumerate(lib.papers(ids), 1):
        print(f"{n:>4}. {paper['id']:>6}  {short(paper['title'], 90)}")
    say(f"{plural(len(ids), 'paper')} to read")
    return 0


def cmd_search(args: argparse.Namespace, lib: Library) -> int:
    c = lib.curation
    if args.action == "save":
        query = " ".join(args.query)
        return _report(c.save_search(args.name, query), f"saved {args.name}: {query}")
    if args.action == "run":
        saved = {s["name"]: s["query"] for s in c.saved_searches()}
        if args.name not in saved:
            raise NotFound(f"no saved search named {args.name!r}")
        args.query = [saved[args.name]]
        return cmd_list(args, lib)
    if args.action == "delete":
        c.delete_search(args.name)
        say(f"deleted {args.name}")
        return 0
    searches = c.saved_searches()
    if getattr(args, "json", False):
        emit_json(searches)
        return 0
    for s in searches:
        print(f"{s['name']}\t{s['query']}")
    say(f"{len(searches)} saved search{'' if len(searches) == 1 else 'es'}")
    return 0
