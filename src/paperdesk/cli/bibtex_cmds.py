"""export, citekey: BibTeX and CSL-JSON out of the library, and the citation keys.

BibTeX files come in through ``paperdesk import`` like digests do.
"""

from __future__ import annotations

import argparse
import sys

from paperdesk.cli import Commands, ids
from paperdesk.cli.output import emit_json, escaped, say
from paperdesk.core.api import FORMATS, ExportReport, Library, PaperDeskError, plural

NAMES = [f.name for f in FORMATS]  # every format (core/bibtex/formats.py)
formats_by_name = {f.name: f for f in FORMATS}
STYLES = [f.name for f in FORMATS if f.family == "bibtex"]  # the BibTeX dialects


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "export", help="export papers as BibTeX or CSL-JSON",
        description="Write BibTeX entries (or CSL-JSON items, for pandoc, Quarto and Zotero) "
                    "for the whole library, the papers matching a query, or chosen ids; to "
                    "standard output unless -o is given. The file is UTF-8 (for biber) "
                    "unless --ascii is given.")
    p.add_argument("query", nargs="*", help="search query (words, \"phrases\"); default: all")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (replaced whole, never half-written)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace FILE even when it holds something other than BibTeX "
                        "(or CSL-JSON)")
    p.add_argument("--any-suffix", action="store_true",
                   help="write FILE whatever its name ends in (without it, CSL-JSON into a "
                        ".bib name, or BibTeX into a .json name, is refused)")
    p.add_argument("--style", choices=STYLES, default="bibtex",
                   help="bibtex: @misc with year/month; biblatex: @online with date "
                        "(default: bibtex)")
    p.add_argument("--format", choices=NAMES, default="bibtex",
                   help="; ".join(f"{f.name}: {f.label}" for f in FORMATS)
                        + " (default: bibtex, in --style)")
    p.add_argument("--ascii", action="store_true",
                   help="write non-ASCII characters as LaTeX escapes (ä -> {\\\"a}); "
                        "in CSL-JSON, as \\u escapes")
    p.add_argument("--notes", action="store_true", help="export your notes in the annote field")
    p.add_argument("--files", action="store_true",
                   help="write each paper's PDFs in JabRef's file field (their absolute paths)")
    p.add_argument("--as-written", action="store_true",
                   help="write the fields of entries from .bib files exactly as written, "
                        "without escaping their bare # & _ ^ (see docs/latex-safety.md)")
    p.add_argument("--ids", type=ids.paper_id_list, metavar="1,2,3",
                   help="only these papers, in this order (with a query: those that match)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "citekey", help="show or set a paper's citation key",
        description="Show a paper's citation key, or set it. A new paper's key is "
                    "provisional: it follows the paper's metadata (first author, year, "
                    "first title word) until it leaves PaperDesk (exported, copied, "
                    "dragged out); then it is frozen and never changes. A key you set is "
                    "kept: PaperDesk never changes it. Keys are unique, ignoring case. "
                    "Whether the key is frozen goes to standard error (with --json: in the "
                    "JSON as frozen, true or false).")
    p.add_argument("id", type=ids.paper_id, metavar="ID", help="the paper's id")
    p.add_argument("key", nargs="?", help="the new key (letters, digits, _ : . - + /)")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON: id, citekey, frozen (true/false)")
    p.add_argument("--status", action="store_true",
                   help="with --json: add state (frozen, kept, provisional)")
    p.set_defaults(func=cmd_citekey)


def cmd_export(args: argparse.Namespace, lib: Library) -> int:
    style = args.style if args.format == "bibtex" else args.format
    report = ExportReport()
    options = {"query": " ".join(args.query) or None, "style": style, "ascii": args.ascii,
               "notes": args.notes, "as_written": args.as_written, "report": report,
               **({"with_files": True} if args.files else {})}
    if args.output and not args.any_suffix:
        wrong = formats_by_name[style].misnamed(args.output)
        # a file that holds something else is refused by export_to, naming --overwrite
        if wrong and (args.overwrite or not lib.bibtex.foreign(args.output, style)):
            raise PaperDeskError(f"{escaped(wrong)}; nothing written (name the file for "
                                 "its format, or add --any-suffix)")
    if args.output:
        count = lib.bibtex.export_to(args.output, args.ids, overwrite=args.overwrite, **options)
        say(f"exported {plural(count, 'entry', 'entries')} to {escaped(args.output)}")
        for line in report.lines():
            say(f"  {line}")
        return 0
    count = lib.bibtex.write(sys.stdout.write, args.ids, freeze=True, **options)
    sys.stdout.flush()
    say(f"exported {plural(count, 'entry', 'entries')}")
    for line in report.lines():
        say(f"  {line}")
    return 0


def cmd_citekey(args: argparse.Namespace, lib: Library) -> int:
    if args.key is not None:
        lib.bibtex.set_citekey(args.id, args.key)
    status = lib.bibtex.key_status(args.id)
    if args.json:
        shown = {"id": args.id, "citekey": status["citekey"], "frozen": status["frozen"]}
        if args.status:
            shown["state"] = status["state"]
        emit_json(shown)
    else:
        print(status["citekey"])
        say(_STATES[status["state"]])
    return 0


_STATES = {
    "frozen": "frozen: the key has left PaperDesk and will not change",
    "kept": "kept: you set this key (or a .bib file brought it); it will not change",
    "provisional": "provisional: follows the paper's metadata until it is exported, copied "
                   "or dragged out",
}
