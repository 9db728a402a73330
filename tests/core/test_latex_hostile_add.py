"""Hostile arXiv and Crossref answers, through ``add`` and export, then built with
``pdflatex -shell-escape`` and bibtex or biber: nothing runs and nothing is read."""

from __future__ import annotations

import re

import bibtexparser
import pytest

from tests import latex_build as tex
from tests.command_line import paperdesk
from tests.core.test_latex_hostile import SECRET, _compile, payloads, short_folder  # noqa: F401
from tests.core.test_tex_safe import assert_inert
from tests.fake_services import ArxivPaper, FakeServices, crossref_work

pytestmark = pytest.mark.tex


@pytest.mark.parametrize("backend", ["bibtex", "biber"])
def test_hostile_answers_to_add_export_inert(tmp_path, short_folder, backend,  # noqa: F811
                                             monkeypatch):
    from paperdesk.core.hub import service

    tex.require_tools()
    monkeypatch.setattr(service.ARXIV_API, "spacing", 0.0)
    monkeypatch.setattr(service.CROSSREF, "spacing", 0.0)
    secret = short_folder / "canary.txt"
    secret.write_text(SECRET + "\n")
    made = short_folder / "MADE"
    p = payloads(str(made), str(secret))
    library = tmp_path / "lib.sqlite"
    with FakeServices() as fake:
        fake.arxiv["2410.00007"] = ArxivPaper(
            "2410.00007", f"Shell {p['write18']} escape", f"Reads {p['input']} {p['close']}",
            [f"\\input{{{secret}}}", "Eve " + p["close"], p["hat"]],
            doi="10.1000/x}" + p["input"], journal_ref=p["write18"])
        doi = "10.1145/3292500.3330701"
        fake.works[doi] = crossref_work(doi, f"Crossref {p['input']} title",
                                        [("Mal", "Lory " + p["write18"])], 2019,
                                        container=p["close"], abstract=p["hat"])
        env = {**fake.env, "HF_HUB_OFFLINE": "1"}
        paperdesk("--library", library, "add", "2410.00007", doi, env=env, check_rc=0)
    folder = tmp_path / backend
    folder.mkdir()
    style = "bibtex" if backend == "bibtex" else "biblatex"
    paperdesk("--library", library, "export", "-o", folder / "refs.bib", "--style", style,
              check_rc=0)
    written = (folder / "refs.bib").read_text(encoding="utf-8")
    entries = bibtexparser.parse_string(written).entries
    assert len(entries) == 2
    for entry in entries:
        for field in entry.fields:
            assert_inert(field.value)
    assert "10.1000/x}" not in written  # a DOI that is not one never went in
    build, text = _compile(folder, backend)
    assert not made.exists()
    for where in (build.bbl, build.log, build.final, text):
        assert SECRET not in where
    assert not re.search(r"\(" + re.escape(str(secret)), build.log)  # never opened
    assert "write18" in text  # the hostile title is printed, as text
