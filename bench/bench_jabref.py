"""The .bib round trip beside JabRef 3.8.2's, measured side by side in one run.

For the bench's 100,000-entry files of two shapes (bench_bibfile.py: the real entries
of seven real files made unique, and arXiv-style entries with abstracts), in turn:
PaperDesk's round trip (``paperdesk import`` into an empty library, then ``paperdesk
export``, two processes, as bench_bibfile.py times it) and JabRef's (the Debian package
``jabref``, from its command line without its window: ``jabref -n -i in.bib -o
out.bib``, which reads the file and writes it again), each as a whole process tree:
wall seconds, CPU seconds and peak memory. Runs alternate (PaperDesk, JabRef,
PaperDesk, JabRef...) so that a change of load falls on both; the median is shown.

Targets (issue 42): PaperDesk at most 0.7x JabRef's wall time on both shapes, and at
most a third of its memory.

    PYTHONPATH=src .venv/bin/python bench/bench_jabref.py [--entries 100000] [--runs 1]
        [--only real|arxiv]
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path

import bench_bibfile
from common import command_line, header, note, options, process_usage, scratch, verdict


def jabref(bib: Path, tmp: Path) -> tuple[float, float, float]:
    out = tmp / "jabref-out.bib"
    out.unlink(missing_ok=True)
    usage = process_usage(["jabref", "-n", "-i", str(bib), "-o", str(out)])
    if not out.exists() or out.stat().st_size < bib.stat().st_size // 4:
        raise SystemExit(f"JabRef wrote no whole export of {bib}")
    return usage


def paperdesk(bib: Path, tmp: Path) -> tuple[float, float, float]:
    (t_in, c_in, m_in, _h), (t_out, c_out, m_out, _h2), _size, _lib = \
        bench_bibfile.round_trip(bib, tmp)
    return t_in + t_out, c_in + c_out, max(m_in, m_out)


def main() -> int:
    parser = command_line(__doc__, 1)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--only", choices=("real", "arxiv"))
    args = options(parser)
    if shutil.which("jabref") is None:
        raise SystemExit("jabref is not installed (apt-get install jabref)")
    ok = True
    with scratch() as tmp:
        for label, make in (("real entries of seven real files, made unique",
                             bench_bibfile.real_file),
                            ("arXiv-style with abstracts", bench_bibfile.arxiv_file)):
            if args.only and not label.lower().startswith(args.only):
                continue
            bib = make(args.entries)
            ours, theirs = [], []
            for _ in range(args.runs):
                ours.append(paperdesk(bib, tmp))
                theirs.append(jabref(bib, tmp))
            t_p, c_p, m_p = (statistics.median(x) for x in zip(*ours, strict=True))
            t_j, c_j, m_j = (statistics.median(x) for x in zip(*theirs, strict=True))
            header(f".bib round trip beside JabRef 3.8.2, {label}: {args.entries:,} "
                   f"entries, {bib.stat().st_size / 2**20:.0f} MiB")
            fast, small = t_p <= 0.7 * t_j, m_p <= m_j / 3
            ok &= fast and small
            note(f"PaperDesk {t_p:.1f} s ({c_p:.1f} s CPU, {m_p:.0f} MB peak); JabRef "
                 f"{t_j:.1f} s ({c_j:.1f} s CPU, {m_j:.0f} MB peak)")
            note(f"time {t_p / t_j:.2f}x JabRef's (target <= 0.70x: "
                 f"{'met' if fast else 'NOT met'}); memory {m_p / m_j:.2f}x (target <= "
                 f"0.33x: {'met' if small else 'NOT met'}); CPU {c_p / c_j:.2f}x")
    return verdict(ok)


if __name__ == "__main__":
    raise SystemExit(main())
