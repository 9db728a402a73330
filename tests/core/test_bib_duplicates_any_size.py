"""The duplicate check of a .bib import runs whatever the file's size, and the
report's count of likely duplicates is what ``paperdesk duplicates`` then finds."""

from __future__ import annotations

import random

from paperdesk.core.duplicates import duplicates
from tests.work import comparisons

WORDS = ("graph neural network transformer kernel sparse bayesian causal robust "
         "adaptive federated quantum protein language vision retrieval contrastive "
         "diffusion policy gradient spectral stochastic manifold tensor latent").split()


def big_bib(count: int, twins: int, seed: int = 7) -> str:
    """``count`` entries with distinct titles; the last ``twins`` repeat an earlier
    title with one letter dropped (the same work, typed again)."""
    rng = random.Random(seed)
    titles: list[str] = []
    seen: set[str] = set()
    while len(titles) < count - twins:
        title = " ".join(rng.sample(WORDS, 6)) + f" {len(titles)}"
        if title not in seen:
            seen.add(title)
            titles.append(title)
    for n in range(twins):
        original = titles[n * 97]
        titles.append(original[:5] + original[6:])
    return "".join(f"@article{{k{n},\n  title = {{{t}}},\n  author = {{Ann Author{n % 50}}},\n"
                   f"  journal = {{J}}, year = {{2020}}\n}}\n" for n, t in enumerate(titles))


def test_a_first_import_above_the_probe_limit_is_checked_as_a_scan(lib, tmp_path):
    path = tmp_path / "big.bib"
    path.write_text(big_bib(10_050, 20), encoding="utf-8")
    with comparisons() as compared:
        report = lib.import_paths([path])[0]
    assert report.new_papers == 10_050 > duplicates.IMPORT_PROBE_LIMIT
    groups = lib.duplicates.scan()
    in_groups = {pid for g in groups for pid in g.ids}
    assert len(in_groups) >= 40
    assert report.likely_duplicates == len(in_groups)
    # Never all pairs (50 million): fewer title comparisons than papers (40 pairs today).
    assert 0 < compared.strings // 2 < report.new_papers, compared


def test_a_small_import_into_a_small_library_agrees_with_the_scan(lib, tmp_path):
    path = tmp_path / "small.bib"
    path.write_text(big_bib(400, 4), encoding="utf-8")
    report = lib.import_paths([path])[0]
    in_groups = {pid for g in lib.duplicates.scan() for pid in g.ids}
    assert report.likely_duplicates == len(in_groups) >= 8
