"""pdf: a paper's PDFs, attached (a copy kept beside the library, or a link), listed,
removed, opened in the system's viewer, located when a linked file moved."""

from __future__ import annotations

import argparse
from typing import Any

from paperdesk.cli import Commands, ids, pdf_fetch_cmds, pdf_text_cmds
from paperdesk.cli.output import emit_json, escaped, fail, listing, say, short
from paperdesk.core.api import Library


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "pdf", help="attach, list, remove and open papers' PDFs",
        description="A paper's PDFs. `pdf attach ID FILE` keeps a copy of FILE in the "
                    "files folder beside the library (NAME.files/), or links it with "
                    "--link; `pdf attach FILE` finds the paper by the arXiv id or DOI the "
                    "PDF names, else adds it as `add` would. Every PDF is read in a "
                    "separate process first: a damaged, encrypted or hostile file gets "
                    "one line and changes nothing.")
    actions = p.add_subparsers(dest="pdf_action", metavar="ACTION", required=True)
    a = actions.add_parser("attach", help="attach a PDF to a paper, or to the paper it names",
                           description="Attach FILE to paper ID; without ID, to the paper "
                                       "of the library whose arXiv id or DOI the PDF names, "
                                       "else to a new paper made from it. The same file "
                                       "twice is one attachment.")
    a.add_argument("target", nargs="+", metavar="[ID] FILE", help="the paper id, then the PDF")
    a.add_argument("--link", action="store_true",
                   help="keep the file where it is (a link to it) instead of storing a copy")
    a.add_argument("--json", action="store_true", help="print what became of it as JSON")
    a.set_defaults(func=cmd_attach, parser=a)
    li = actions.add_parser("list", help="list the PDFs (of the papers a query finds)",
                            description="List the attachments of the papers QUERY finds "
                                        "(all without one); a linked file that went "
                                        "missing reads as missing.")
    li.add_argument("query", nargs="?", default="", metavar="QUERY", help="a search query")
    li.add_argument("--json", action="store_true", help="print the attachments as JSON")
    li.set_defaults(func=cmd_list)
    r = actions.add_parser("remove", help="take a PDF off its paper",
                           description="Take attachment ID off its paper (its highlights "
                                       "with it). A stored copy stays in the files folder "
                                       "until the trash is emptied.")
    r.add_argument("id", type=ids.attachment_id, metavar="ID", help="the attachment id")
    r.set_defaults(func=cmd_remove)
    o = actions.add_parser("open", help="open a PDF in the system's viewer",
                           description="Open attachment ID in the system's PDF viewer "
                                       "($PAPERDESK_PDF_OPENER names another command).")
    o.add_argument("id", type=ids.attachment_id, metavar="ID", help="the attachment id")
    o.set_defaults(func=cmd_open)
    lo = actions.add_parser("locate", help="point a missing PDF at where it is now",
                            description="Point attachment ID, whose file went missing, at "
                                        "FILE (read like any attached PDF).")
    lo.add_argument("id", type=ids.attachment_id, metavar="ID", help="the attachment id")
    lo.add_argument("file", metavar="FILE", help="where the PDF is now")
    lo.set_defaults(func=cmd_locate)
    pdf_text_cmds.register(actions)  # pdf index: the text for pdf:word searches
    pdf_fetch_cmds.register(actions)


def cmd_attach(args: argparse.Namespace, lib: Library) -> int:
    if len(args.target) > 2:
        fail("pdf attach: name one paper id and one file (or only the file)")
        return 2
    paper = None
    if len(args.target) == 2:
        try:
            paper = ids.paper_id(args.target[0])
        except argparse.ArgumentTypeError as exc:  # a usage error, as argparse's own
            args.parser.error(str(exc))
    changes = lib.pdf.attach(paper, args.target[-1], link=args.link)
    result = changes.result
    if args.json:
        emit_json(dict(result))
        return 0
    row = lib.paper(result["paper_id"], with_notes=False)
    who = f"paper {row['id']} ({row.get('citekey') or short(row['title'], 60)})"
    if result["already"]:
        say(f"{escaped(result['name'])} is attached to {who} already "
            f"(attachment {result['attachment_id']})")
    else:
        made = " (a new paper)" if result["new_paper"] else ""
        how = "linked" if result["kind"] == "linked" else "stored"
        say(f"attached {escaped(result['name'])} ({result['pages']} pages, {how}) to "
            f"{who}{made}: attachment {result['attachment_id']}")
    return 0


def _line(row: dict[str, Any]) -> str:
    state = "" if row["state"] == "ok" else f"  [{row['state']}]"
    return (f"{row['id']:>5}  {row['paper_id']:>6}  {short(row.get('citekey') or '', 20):<20}  "
            f"{escaped(short(row['name'], 60))}{state}")


def cmd_list(args: argparse.Namespace, lib: Library) -> int:
    rows = lib.pdf.listing(args.query)
    missing = sum(r["state"] != "ok" for r in rows)
    return listing(rows, _line, as_json=args.json, total=f"{len(rows)} PDF{'s' * (len(rows) != 1)}"
                   + (f", {missing} missing" if missing else ""))


def cmd_remove(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.pdf.remove(args.id)
    say(f"removed {escaped(changes.result['name'])} from paper {changes.result['paper_id']}")
    return 0


def cmd_open(args: argparse.Namespace, lib: Library) -> int:
    lib.pdf.open(args.id)
    return 0


def cmd_locate(args: argparse.Namespace, lib: Library) -> int:
    changes = lib.pdf.locate(args.id, args.file)
    say(f"attachment {args.id} is now {escaped(changes.result['path'])}")
    return 0
