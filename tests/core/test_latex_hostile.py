"""A hostile digest and a hostile Hub, through import, enrich, fetch and export, then
compiled with ``pdflatex -shell-escape`` + bibtex and + biber: nothing runs (the canary
file is never made) and no file is read (the canary's text is in no .bbl, log or PDF).
The same payloads written into a .bib by hand do both, so the check can fail."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import bibtexparser
import pytest

from tests import latex_build as tex
from tests.command_line import paperdesk
from tests.core.test_tex_safe import assert_inert
from tests.digest_files import HEADER
from tests.fake_hub import FakeHub, list_item, record

pytestmark = pytest.mark.tex

SECRET = "4815162342"  # the canary file's text


def payloads(made: str, secret: str) -> dict[str, str]:
    """Text that runs ``touch made`` or reads ``secret`` wherever LaTeX reads it raw."""
    return {
        "write18": f"$\\immediate\\write18{{touch {made}}}$",
        "input": f"$\\input{{{secret}}}$",
        "hat": f"$x^^5cinput{{{secret}}}$",
        "close": f"}}, howpublished = {{\\immediate\\write18{{touch {made}}}}}, note = {{",
    }


def hostile_digest(folder, made: str, secret: str):
    p = payloads(made, secret)
    entries = [
        (f"Shell {p['write18']} escape", "We \\def\\x{\\input{" + secret + "}} show } that {{ "
         "braces never close " + p["input"] + ".", "  • 3 authors\n·\nOct 1, 2024 8"),
        (f"Reading {p['input']} files", f"An abstract with {p['hat']} and 100% {p['close']}",
         f"evil{p['input']} Evil {p['write18']} Corp\n·\nOct 2, 2024 3"),
        ("Hostile names from the Hub", "A paper whose authors the Hub names with commands.",
         "  • 2 authors\n·\nOct 3, 2024 1"),
    ]
    blocks = ["Oct 30"] + ["\n\n".join(e) for e in entries]
    path = folder / "hostile.txt"
    path.write_text(HEADER + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return path, entries


def hostile_hub(hub: FakeHub, entries, made: str, secret: str) -> None:
    p = payloads(made, secret)
    (t1, a1, _), (t2, a2, _), (t3, a3, _) = entries
    hub.add(record("2410.00001" + p["close"], t1, a1, ["Ann Lee"], "2024-10-01"))
    hub.add(record("2410.00002", t2, a2, ["Bo Chen"], "2024-10-02",
                   github="https://github.com/a/b}{" + p["input"] + "}"))
    hub.add(record("2410.00003", t3, a3, [f"\\input{{{secret}}}", "Eve " + p["close"],
                                          p["hat"]], "2024-10-03",
                   github="https://github.com/good/repo", project="https://example.org/p",
                   organization=("org", f"Org {p['write18']}")))
    day = record("2511.00001}{" + p["input"], f"Daily {p['input']} item",
                 f"Daily abstract {p['write18']}", ["Dee Day"], "2025-11-04")
    hub.add(day, "2025-11-04")
    assert list_item(day)["paper"]["id"].startswith("2511.00001}")


def hand_written(made: str, secret: str) -> str:
    p = payloads(made, secret)
    return (f"@misc{{a, title = {{Shell {p['write18']}}}, year = 2020}}\n"
            f"@misc{{b, title = {{Read {p['input']}}}, year = 2020}}\n")


def _compile(folder, backend):
    build = tex.build(folder, backend, shell_escape=True)
    return build, tex.pdf_strings(folder / "doc.pdf")


def test_the_check_can_fail_the_payloads_run_when_written_raw(tmp_path):
    """The control: the payloads in a .bib written by hand run and read under -shell-escape."""
    tex.require_tools()
    (tmp_path / "canary.txt").write_text(SECRET + "\n")
    folder = tmp_path / "raw"
    folder.mkdir()
    made = tmp_path / "MADE"
    (folder / "refs.bib").write_text(hand_written(str(made), str(tmp_path / "canary.txt")))
    _build, text = _compile(folder, "bibtex")
    assert made.exists() and SECRET in text


@pytest.fixture
def short_folder():
    """A folder with a short path: the payloads name files in it, and the tag that
    carries one must stay within the 100 characters a tag may have, wherever pytest
    puts its own folders (a worker's are longer)."""
    folder = Path(tempfile.mkdtemp(prefix="hx"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("backend", ["bibtex", "biber"])
def test_hostile_digest_and_hub_export_runs_and_reads_nothing(tmp_path, short_folder, backend):
    tex.require_tools()
    secret = short_folder / "canary.txt"
    secret.write_text(SECRET + "\n")
    made = short_folder / "MADE"
    library = tmp_path / "lib.sqlite"
    digest, entries = hostile_digest(tmp_path, str(made), str(secret))
    out = paperdesk("--library", library, "import", digest, check_rc=0)
    assert "3 new papers" in out.stderr, out.stderr
    with FakeHub() as hub:
        hostile_hub(hub, entries, str(made), str(secret))
        env = {"HF_ENDPOINT": hub.url}
        enrich = paperdesk("--library", library, "enrich", env=env)
        fetch = paperdesk("--library", library, "fetch", "--date", "2025-11-04", env=env)
        # the record with a closing brace in its arXiv id was never asked for
        assert not any("}" in r or "%7D" in r for r in hub.requests if "/api/papers/2" in r)
    assert "is not an arXiv id" in enrich.stderr and "is not a GitHub repository" in enrich.stderr
    assert "completed 1 of 3" in enrich.stderr, enrich.stderr
    assert "is not an arXiv id" in fetch.stderr, fetch.stderr
    # the user's own text: a tag (keywords) and a note (annote)
    p = payloads(str(made), str(secret))
    paperdesk("--library", library, "tag", "1", "+" + p["input"], "+x}" + p["write18"],
              check_rc=0)
    paperdesk("--library", library, "note", "2", p["close"] + " " + p["hat"], check_rc=0)
    folder = tmp_path / backend
    folder.mkdir()
    style = "bibtex" if backend == "bibtex" else "biblatex"
    paperdesk("--library", library, "export", "-o", folder / "refs.bib", "--style", style,
              "--notes", check_rc=0)
    written = (folder / "refs.bib").read_text(encoding="utf-8")
    entries_out = bibtexparser.parse_string(written).entries
    assert len(entries_out) == 4
    for entry in entries_out:
        assert set(entry.fields_dict) <= {"author", "title", "year", "month", "date", "eprint",
                                          "archivePrefix", "url", "abstract", "howpublished",
                                          "addendum", "key", "label", "note", "keywords",
                                          "annote"}, (
            entry.fields_dict)
        for field in entry.fields:
            assert_inert(field.value)
    assert "2410.00001" not in written and "2511.00001" not in written
    assert "eprint = {2410.00003}" in written  # the good record was taken
    assert "keywords = {" in written and "annote = {" in written
    build, text = _compile(folder, backend)
    assert not made.exists()
    for where in (build.bbl, build.log, build.final, text):
        assert SECRET not in where
    assert not re.search(r"\(" + re.escape(str(secret)), build.log)  # never opened
    assert "write18" in text  # the hostile title is printed, as text
