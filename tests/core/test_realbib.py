"""Real .bib files nobody here wrote (tests/data/realbib/, sources in its README):
every key comes back, every field as written, the round trip is byte for byte, and
the export compiles with pdflatex+bibtex and pdflatex+biber with no more errors
than the file itself. ``python -m tests.realbib --tex`` prints the totals."""

from __future__ import annotations

import os

import pytest

from tests import realbib

FILES = realbib.corpus()
# Fields the export writes differently on purpose: a bare "#" or "&" in a printed
# text field, which LaTeX rejects wherever a style prints it ("key.field").
REPAIRED = {"biber-examples.bib": {"t1.TITLE"}}


def test_the_corpus_is_there_and_modest():
    assert len(FILES) >= 40
    assert sum(p.stat().st_size for p in FILES) < 2 * 1024 * 1024
    readme = (realbib.CORPUS / "README.md").read_text(encoding="utf-8")
    assert all(p.name in readme for p in FILES)  # each file's source and licence


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_keys_fields_and_round_trip(path, tmp_path):
    result, _text, _export = realbib.measure(path, tmp_path)
    assert result.keys_lost == []
    repaired = REPAIRED.get(path.name, set())
    changed = [c for c in result.changed if c.split(":", 1)[0] not in repaired]
    assert changed == []
    assert result.fields_as_written == result.fields - len(result.changed)
    assert result.round_trip_same


@pytest.mark.tex
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_export_compiles_no_worse_than_the_file(path, tmp_path):
    missing = realbib.tools_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"LaTeX tools missing: {', '.join(missing)} (CI installs them)")
        pytest.skip(f"LaTeX tools missing: {', '.join(missing)}")
    _result, text, export = realbib.measure(path, tmp_path)
    errors = realbib.compile_both(text, export, tmp_path / "tex", full=False)
    for backend, (original, exported) in errors.items():
        assert exported <= original, f"{backend}: {original} errors before, {exported} after"
