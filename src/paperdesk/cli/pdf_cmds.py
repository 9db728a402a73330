"""pdf: a paper's PDFs. ``pdf fetch`` and ``pdf auto-fetch`` (``pdf_fetch_cmds``) are the
commands that download them from arXiv."""

from __future__ import annotations

from paperdesk.cli import Commands, pdf_fetch_cmds


def register(sub: Commands) -> None:
    p = sub.add_parser("pdf", help="a paper's PDFs: fetch them from arXiv",
                       description="The PDFs of the library's papers.")
    pdf = p.add_subparsers(dest="pdf_command", metavar="COMMAND", required=True)
    pdf_fetch_cmds.register(pdf)
