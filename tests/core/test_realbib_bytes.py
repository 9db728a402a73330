"""The export of every real .bib file of the corpus (tests/data/realbib/) is byte for
byte the one recorded in tests/data/realbib-exports.json: the SHA-256 of each file's
export (``lib.bibtex.export()``) after an import into an empty library. A change made
for the reader's or the writer's speed leaves what they write exactly as it was.

Only a change meant to alter the output records the digests anew:
``PYTHONPATH=src python -m tests.core.test_realbib_bytes --record``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import pytest

from paperdesk.core.library import Library
from tests.realbib import corpus

RECORDED = Path(__file__).resolve().parents[1] / "data" / "realbib-exports.json"


def export_digest(path: Path, work: Path) -> str:
    with Library.open(work / f"{path.stem}.sqlite") as lib:
        report = lib.import_paths([path])[0]
        assert report.status == "imported", report.error
        text = lib.bibtex.export()
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def test_every_file_of_the_corpus_is_recorded():
    assert sorted(json.loads(RECORDED.read_text())) == [p.name for p in corpus()]


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.stem[:40])
def test_the_export_is_byte_for_byte_the_recorded_one(path, tmp_path):
    assert export_digest(path, tmp_path) == json.loads(RECORDED.read_text())[path.name]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory() as name:
        digests = {p.name: export_digest(p, Path(name)) for p in corpus()}
    RECORDED.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"{len(digests)} digests written to {RECORDED}")
