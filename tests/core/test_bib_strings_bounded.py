"""``@string`` macros expand only so far: a value that would be longer than
``MAX_EXPANDED`` characters is refused as it is built, so a 1 KB file of macros that
each double the one before (2^40 characters) cannot eat the memory. The macro and the
entries using it are reported in one line each; the file's other entries import."""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import sys

from paperdesk.core.bibtex.bibtex_fields import MAX_EXPANDED

LIMIT = f"more than {MAX_EXPANDED:,} characters"


def doubling(n: int, entry: str = "bomb") -> str:
    """``n`` macros, each the one before twice: ``x{n-1}`` is 2^n characters."""
    return ('@string{x0 = "ab"}\n'
            + "".join(f"@string{{x{i} = x{i - 1} # x{i - 1}}}\n" for i in range(1, n))
            + f"@misc{{{entry}, title = x{n - 1}, year = 2020}}\n")


def _capped() -> None:
    """The import runs with 2 GB of address space at most: never the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


def test_a_file_of_doubling_macros_is_refused_in_one_line_and_changes_nothing(tmp_path):
    path = tmp_path / "bomb.bib"
    path.write_text(doubling(40), encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    run = [sys.executable, "-c", "import sys; from paperdesk.app import main; sys.exit(main())",
           "--library", str(library), "--create"]
    subprocess.run([*run, "list"], capture_output=True, timeout=60, check=True)
    done = subprocess.run([*run, "import", str(path)], capture_output=True, text=True,
                          timeout=60, preexec_fn=_capped)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert (f"bomb.bib: no BibTeX entry could be read (@string 'x20' would expand to {LIMIT}"
            in done.stderr)
    with sqlite3.connect(library) as db:
        assert db.execute("SELECT count(*) FROM papers").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM bib_files").fetchone()[0] == 0


def test_the_entries_using_a_macro_too_long_are_skipped_the_others_import(lib, tmp_path):
    path = tmp_path / "mixed.bib"
    path.write_text(doubling(24) + "@misc{ok, title = x19, year = 2021}\n"
                    "@misc{joined, title = x19 # x19 # {!}, year = 2022}\n"
                    "@misc{plain, title = {Plain}, year = 2023}\n", encoding="utf-8")
    report = lib.import_paths([path])[0]
    keys = [r[0] for r in lib.db.execute("SELECT citekey FROM papers ORDER BY id")]
    assert keys == ["ok", "plain"]
    assert [(s["key"], s["line"]) for s in report.skipped] == [("bomb", 25), ("joined", 27)]
    assert f"mixed.bib: @string 'x20' would expand to {LIMIT}; the entries using it are " \
           "skipped" in report.warnings
    assert (f"mixed.bib: line 25: skipped entry 'bomb': a field would expand to {LIMIT} "
            "(through @string 'x20')") in report.warnings
    assert f"mixed.bib: line 27: skipped entry 'joined': a field would expand to {LIMIT}" \
           in report.warnings
    assert len(lib.paper(1)["title"]) <= 2000  # the library's copy is cut, as any title


def test_macros_add_only_so_much_to_a_file_in_all(lib, tmp_path):
    """Each value under the cap, but many of them: once the file's macros have added
    ``MAX_GROWTH`` characters, the entries using them are skipped, each said so."""
    from paperdesk.core.bibtex.bibtex_fields import MAX_GROWTH

    size = 900_000
    path = tmp_path / "wide.bib"
    path.write_text('@string{big = "' + "a" * size + '"}\n'
                    + "".join(f"@misc{{e{i}, title = {{T {i}}}, note = big, year = 2020}}\n"
                              for i in range(100))
                    + "@misc{plain, title = {Plain}, year = 2021}\n", encoding="utf-8")
    report = lib.import_paths([path])[0]
    fit = MAX_GROWTH // (size - len("big"))
    keys = [r[0] for r in lib.db.execute("SELECT citekey FROM papers ORDER BY id")]
    assert keys == [f"e{i}" for i in range(fit)] + ["plain"]
    assert [s["key"] for s in report.skipped] == [f"e{i}" for i in range(fit, 100)]
    assert any(f"would add more than {MAX_GROWTH:,} characters" in w for w in report.warnings)
