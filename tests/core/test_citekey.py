"""Citation keys: readable, ASCII, suffixed in arrival order, never changed under the user."""

from __future__ import annotations

import pytest

from paperdesk.core.bibtex.citekey import CitekeyError, ascii_text, base_key
from tests.conftest import SEED_PAPERS


def _bib(path, entries: list[tuple[str, str]]) -> str:
    """A .bib file with entries (key, fields-text)."""
    path.write_text("".join(f"@misc{{{key},\n{fields}\n}}\n\n" for key, fields in entries),
                    encoding="utf-8")
    return str(path)


def test_transliteration_to_ascii():
    assert ascii_text("Müller Ärger Straße") == "Mueller Aerger Strasse"
    assert ascii_text("José Łukasz Øre") == "Jose Lukasz Ore"


@pytest.mark.parametrize(("paper", "key"), [
    ({"authors": ["Ashish Vaswani", "Noam Shazeer"], "year": 2017}, "vaswani2017"),
    ({"authors": ["Müller, Jürgen"], "year": 2020}, "mueller2020"),
    ({"authors": ["José García Jr."], "year": 2021}, "garcia2021"),
    ({"authors": [], "organization": "DeepSeek", "year": 2025}, "deepseek2025"),
    ({"organization": "Reactive AI", "year": 2025}, "reactive2025"),
    ({"title": "The Power of Scale for Prompt Tuning", "year": 2021}, "power2021"),
    ({"title": "POLCA: Power Oversubscription", "year": None}, "polca"),
    ({"title": "Über die Straße", "year": 2019}, "ueber2019"),
])
def test_base_key_pattern(paper, key):
    assert base_key(paper) == key


def test_seed_keys_are_ascii_unique_and_readable(seed_lib):
    rows = seed_lib.db.execute("SELECT citekey, title, organization, year FROM papers").fetchall()
    keys = [r[0] for r in rows]
    assert len(keys) == SEED_PAPERS and all(keys)
    assert len({k.casefold() for k in keys}) == len(keys)
    assert all(k.isascii() and k.replace(":", "").isalnum() for k in keys)
    for key, _title, org, year in rows:
        if org:
            assert key.startswith(ascii_text(org).split()[0].lower()[:5]), (key, org)
        if year and str(year) in key:
            assert key.rstrip("abcdefghijklmnopqrstuvwxyz").endswith(str(year))


def test_suffixes_in_first_seen_order_and_existing_keys_never_change(lib, tmp_path):
    first = _bib(tmp_path / "one.bib", [
        ("x1", "title = {Alpha Paper}, author = {Ada Smith}, year = 2020"),
        ("x2", "title = {Beta Paper}, author = {Bob Smith}, year = 2020"),
    ])
    # keys x1/x2 are free, so they are kept; import again under keys that are not usable
    lib.import_paths([first])
    before = dict(lib.db.execute("SELECT title, citekey FROM papers").fetchall())
    assert before == {"Alpha Paper": "x1", "Beta Paper": "x2"}
    second = _bib(tmp_path / "two.bib", [
        ("bad key", "title = {Gamma Paper}, author = {Cy Smith}, year = 2020"),
        ("bad key 2", "title = {Delta Paper}, author = {Di Smith}, year = 2020"),
        ("bad key 3", "title = {Epsilon Paper}, author = {Ed Smith}, year = 2020"),
    ])
    lib.import_paths([second])
    third = _bib(tmp_path / "three.bib", [
        ("smith2020", "title = {Zeta Paper}, author = {Zed Smith}, year = 2020"),
    ])
    report = lib.import_paths([third])[0]
    keys = dict(lib.db.execute("SELECT title, citekey FROM papers").fetchall())
    assert keys["Gamma Paper"] == "smith2020"
    assert keys["Delta Paper"] == "smith2020a"
    assert keys["Epsilon Paper"] == "smith2020b"
    assert keys["Zeta Paper"] == "smith2020c"  # the file's key was taken: a new one
    assert any("'smith2020' is taken" in w for w in report.warnings)
    assert {t: keys[t] for t in before} == before


def test_user_set_key_is_validated_unique_and_undoable(seed_lib):
    pid, other = [r[0] for r in seed_lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 2")]
    old = seed_lib.paper(pid)["citekey"]
    other_key = seed_lib.paper(other)["citekey"]
    changes = seed_lib.bibtex.set_citekey(pid, "Mine:2024")
    assert seed_lib.paper(pid)["citekey"] == "Mine:2024"
    assert changes.paper_ids == {pid} and changes.undo is not None
    for bad, message in (("", "empty"), ("has space", "use only"), ("a{b}", "use only"),
                         (other_key.upper(), "already used")):
        with pytest.raises(CitekeyError, match=message):
            seed_lib.bibtex.set_citekey(pid, bad)
    assert seed_lib.paper(pid)["citekey"] == "Mine:2024"
    seed_lib.undo(changes.undo)
    assert seed_lib.paper(pid)["citekey"] == old
    seed_lib.redo(changes.undo)
    assert seed_lib.paper(pid)["citekey"] == "Mine:2024"


def test_a_user_key_survives_later_imports(seed_lib, seeds, tmp_path):
    pid = seed_lib.db.execute("SELECT id FROM papers ORDER BY id LIMIT 1").fetchone()[0]
    seed_lib.bibtex.set_citekey(pid, "keepme")
    snapshot = dict(seed_lib.db.execute("SELECT id, citekey FROM papers").fetchall())
    exported = tmp_path / "all.bib"
    seed_lib.bibtex.export_to(exported)
    seed_lib.import_paths([exported])  # every entry merges into its paper
    assert dict(seed_lib.db.execute("SELECT id, citekey FROM papers").fetchall()) == snapshot


def test_a_base_shared_by_hundreds_of_papers_never_runs_out(lib):
    from paperdesk.core.bibtex.citekey import KeyAllocator

    allocator = KeyAllocator(lib.db)
    keys = [allocator.take({"title": "Scaling things", "year": 2024}) for _ in range(800)]
    assert len(set(keys)) == 800
    assert keys[:3] == ["scaling2024", "scaling2024a", "scaling2024b"]
    assert keys[702:704] == ["scaling2024zz", "scaling2024aaa"]


@pytest.mark.parametrize("eager_after, keys_per_read", [(0, 10**9), (1, 10**9), (500, 32),
                                                       (0, 1)])
def test_allocator_sees_existing_keys_ignoring_case_read_lazily_or_all_at_once(
        seed_lib, monkeypatch, eager_after, keys_per_read):
    from paperdesk.core.bibtex.citekey import KeyAllocator

    # Every key read at once from the start (0, 10**9), after one base read alone, or
    # base by base (the library's size sets how many bases are read one by one).
    monkeypatch.setattr(KeyAllocator, "EAGER_AFTER", eager_after)
    monkeypatch.setattr(KeyAllocator, "KEYS_PER_READ", keys_per_read)
    seed_lib.bibtex.set_citekey(1, "Zeta2024")
    seed_lib.bibtex.set_citekey(2, "zeta2024A")
    allocator = KeyAllocator(seed_lib.db)
    assert allocator.take({"title": "Other words", "year": 1999}) == "other1999"
    assert allocator.take({"title": "Zeta function", "year": 2024}) == "zeta2024b"
    # A key as written is refused when a paper has it, even in another case (BibTeX
    # does not tell case apart), but for the paper's own; a made key never equals another.
    assert allocator.claim("Zeta2024") == "is taken"
    assert allocator.claim("zeta2024a") == "is taken in another case"
    assert allocator.claim("ZETA2024") == "is taken in another case"
    assert allocator.claim("ZETA2024", own="Zeta2024") is None
    assert allocator.claim("zeta2024c") is None
    assert allocator.take({"title": "Zeta again", "year": 2024}) == "zeta2024d"
    existing = {r[0] for r in seed_lib.db.execute("SELECT lower(citekey) FROM papers")}
    fresh = allocator.take({"title": seed_lib.paper(5)["title"], "year": seed_lib.paper(5)["year"]})
    assert fresh.lower() not in existing
