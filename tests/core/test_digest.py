"""The digest parser on the seed files and on the traps real files bring."""

from __future__ import annotations

import codecs
from datetime import date

import pytest

from paperdesk.core.model.digest import YEAR_FROM_ENTRIES, YEAR_FROM_FILE, parse_digest
from paperdesk.core.model.errors import DigestError
from tests.conftest import SEED_ENTRIES, SEEDS

COUNTS = {"000": 17, "001": 104, "002": 34, "003": 41, "004": 71}


def parse_seed(prefix: str, mtime_year: int = 2026):
    path = next(p for p in SEEDS if p.name.startswith(prefix))
    return parse_digest(path.read_bytes(), path.name, mtime_year)


@pytest.mark.parametrize("prefix", sorted(COUNTS))
def test_every_seed_parses_with_its_entry_count(prefix):
    digest = parse_seed(prefix)
    assert len(digest.entries) == COUNTS[prefix]
    assert all(e.title and e.abstract for e in digest.entries)
    assert [e.position for e in digest.entries] == list(range(COUNTS[prefix]))


def test_seed_total_is_267_entries():
    assert sum(len(parse_seed(p).entries) for p in COUNTS) == SEED_ENTRIES


def test_daily_papers_digest_year_is_one_after_latest_printed_year():
    digest = parse_seed("001")
    assert digest.daily_papers
    assert digest.year == 2025 and digest.year_source == YEAR_FROM_ENTRIES
    assert digest.date == date(2025, 10, 30)
    assert digest.year_inferred


def test_metadata_author_count_date_and_upvotes():
    entries = {e.title: e for e in parse_seed("001").entries}
    e = entries["Surveying the Effects of Quality, Diversity, and Complexity in Synthetic Data "
                "From Large Language Models"]
    assert (e.author_count, e.published, e.upvotes, e.year_inferred) == (
        20, date(2024, 12, 3), 3, False)
    physix = entries["PhysiX: A Foundation Model for Physics Simulations"]
    assert physix.published == date(2025, 6, 21) and physix.year_inferred
    assert physix.upvotes is None and physix.author_count == 4


def test_organisation_line_and_yearless_date_with_upvotes():
    entries = {e.title: e for e in parse_seed("002").entries}
    e = entries["Training Foundation Models on a Full-Stack AMD Platform: Compute, Networking, "
                "and System Design"]
    assert (e.organization_handle, e.organization, e.author_count) == ("Zyphra", "Zyphra", None)
    assert e.published == date(2025, 11, 21) and e.year_inferred and e.upvotes == 1
    deepseek = [e for e in parse_seed("001").entries if e.organization_handle == "deepseek-ai"]
    assert len(deepseek) == 1 and deepseek[0].organization == "DeepSeek"


def test_some_daily_entries_have_no_metadata():
    entries = parse_seed("001").entries
    bare = [e for e in entries if e.meta_raw is None]
    assert len(bare) == 4
    assert all(e.published is None and e.author_count is None for e in bare)


def test_digest_without_any_year_falls_back_to_file_year_with_warning():
    digest = parse_seed("000", mtime_year=2031)
    assert not digest.daily_papers
    assert digest.year == 2031 and digest.year_source == YEAR_FROM_FILE
    assert any("assumed 2031" in w for w in digest.warnings)
    assert all(e.published is None for e in digest.entries)


def test_crlf_bom_tabs_trailing_blanks_and_extra_blank_lines_change_nothing():
    clean = SEEDS[1].read_bytes()
    messy = clean.decode().replace("\n\n", "\n \t\n\n").replace("\n", "  \r\n")
    digest = parse_digest(codecs.BOM_UTF8 + messy.encode(), "messy.txt", 2026)
    reference = parse_digest(clean, "clean.txt", 2026)
    assert [(e.title, e.abstract, e.published, e.upvotes) for e in digest.entries] == [
        (e.title, e.abstract, e.published, e.upvotes) for e in reference.entries]
    assert digest.warnings == []


def test_other_encoding_is_read_with_a_warning():
    text = SEEDS[0].read_text().replace("POLCA", "POLCA café")
    digest = parse_digest(text.encode("cp1252"), "latin.txt", 2026)
    assert digest.entries[0].title.startswith("POLCA café")
    assert any("not UTF-8" in w and "cp1252" in w for w in digest.warnings)


def test_utf16_with_bom_is_read():
    text = SEEDS[0].read_text()
    digest = parse_digest(text.encode("utf-16"), "utf16.txt", 2026)
    assert len(digest.entries) == COUNTS["000"]


def test_truncated_file_keeps_complete_entries_and_warns_with_line():
    lines = SEEDS[1].read_text().split("\n")
    cut = "\n".join(lines[:40]) + "\n\nA Title Whose Abstract Was Lost\n"
    digest = parse_digest(cut.encode(), "cut.txt", 2026)
    assert digest.entries and digest.entries[-1].title != "A Title Whose Abstract Was Lost"
    assert any(w.startswith("line ") and "truncated" in w for w in digest.warnings)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty"),
    (b"   \n\n  \n", "empty"),
    (bytes(range(256)) * 20, "binary"),
    (b"Dear diary,\n\ntoday I read a paper.\n", "not a Hugging Face Daily Papers digest"),
    (b"new\n\nSubscribe\n\nbyAK and the research community\n\n", "no date"),
    (b"new\n\nbyAK and the research community\n\nOct 30\n", "no papers"),
    (b"new\n\nbyAK and the research community\n\nyesterday\n\nT\n\nA\n", "expected the digest"),
])
def test_not_a_digest_is_refused_with_a_clear_message(data, message):
    with pytest.raises(DigestError, match=message) as info:
        parse_digest(data, "bad.txt", 2026)
    assert "\n" not in str(info.value)


def test_counts_past_what_sqlite_holds_are_left_empty_with_their_line(lib, tmp_path):
    """Upvotes of 2**63 or more, or a 26-digit author count: that field is left empty and
    named with its line; the papers import (SQLite's integers end at 2**63 - 1)."""
    text = ("new\n\nGet trending papers in your email inbox!\n\nSubscribe\n\nDaily Papers\n\n"
            "byAK and the research community\n\nOct 30\n\n"
            "First Paper\n\nAbstract one.\n\n  • 7 authors\n·\nOct 1, 2024 9223372036854775808\n\n"
            f"Second Paper\n\nAbstract two.\n\n  • {'9' * 26} authors\n·\nOct 2, 2024 5\n")
    parsed = parse_digest(text.encode(), "big.txt", 2025)
    assert [(e.upvotes, e.author_count) for e in parsed.entries] == [(None, 7), (5, None)]
    assert "line 19: 9,223,372,036,854,775,808 upvotes is out of range (at most " \
        "1,000,000,000); left empty" in parsed.warnings
    assert any(w.startswith(f"line 25: {int('9' * 26):,} authors is out of range")
               for w in parsed.warnings)
    path = tmp_path / "big.txt"
    path.write_text(text)
    [report] = lib.import_paths([path])
    assert report.status == "imported" and lib.stats()["papers"] == 2
