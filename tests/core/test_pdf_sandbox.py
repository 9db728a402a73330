"""The PDF sandbox: pypdfium2 in a child process, with a deadline and a memory cap.

Real PDFs (written by tests/pdf_files.py, and by pdflatex in the tex tier), a real
child process, real kills. Hostile files get one PdfError naming the file, and the
sandbox goes on reading the next file.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import psutil
import pytest

from paperdesk.core.model import child_env
from paperdesk.core.model.errors import PdfError
from paperdesk.core.pdf import sandbox as sandbox_module
from paperdesk.core.pdf.sandbox import PdfSandbox
from tests.latex_build import latex
from tests.pdf_files import claims_pages, encrypted_pdf, nested_pdf, write_pdf

PAGES = [["Known phrase alpha on the first page.", "A second line."],
         ["Page two holds the ef\ufb02uent words of a hyphen-", "ated line."],
         ["Third page: bravo charlie."]]


@pytest.fixture(scope="module")
def sandbox():
    with PdfSandbox() as pdf:
        yield pdf


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "paper.pdf", PAGES, title="A Paper Title")


def test_info_text_boxes_and_render(sandbox: PdfSandbox, paper: Path) -> None:
    info = sandbox.info(paper)
    assert info["pages"] == 3
    assert info["metadata"]["Title"] == "A Paper Title"
    text = sandbox.text(paper)
    assert len(text) == 3
    assert "Known phrase alpha" in text[0] and "bravo charlie" in text[2]
    assert "effluent" in text[1]  # the ligature glyph reads as its letters
    assert sandbox.text(paper, [2, 0]) == [text[2], text[0]]
    boxes = sandbox.boxes(paper, 2)
    assert boxes.text.startswith("Third page") and len(boxes.boxes) == len(boxes.text)
    assert (boxes.width, boxes.height) == (612, 792)
    left, bottom, right, top = boxes.boxes[0]  # "T" at 72 pt from the left, 740 up
    assert 71 <= left < right <= 80 and 739 <= bottom < top <= 752
    page = sandbox.render(paper, 0, 2.0)
    assert (page.width, page.height) == (1224, 1584)
    assert len(page.data) == page.stride * page.height and page.stride >= 4 * page.width
    pixels = memoryview(page.data)
    assert pixels[0:4].tobytes() == b"\xff\xff\xff\xff"  # white paper, opaque
    assert min(pixels) < 128  # and some dark ink on it


def test_no_such_page(sandbox: PdfSandbox, paper: Path) -> None:
    with pytest.raises(PdfError, match=r"^paper\.pdf has no such page \(page 4 of 3\)$"):
        sandbox.text(paper, [3])
    with pytest.raises(PdfError, match="too large to render"):
        sandbox.render(paper, 0, 100.0)


HOSTILE = {
    "encrypted.pdf": (encrypted_pdf(), "is encrypted"),
    "empty.pdf": (b"", "is empty"),
    "words.pdf": (b"plain words, not a PDF\n" * 50, "is not a PDF, or is damaged"),
    "cut.pdf": (None, "is not a PDF, or is damaged"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_one_line_each(sandbox: PdfSandbox, paper: Path, name: str) -> None:
    data, said = HOSTILE[name]
    path = paper.with_name(name)
    path.write_bytes(paper.read_bytes()[:200] if data is None else data)
    for task in (sandbox.info, sandbox.text):
        with pytest.raises(PdfError) as caught:
            task(path)
        message = str(caught.value)
        assert message == f"{name} {said}" + (" (it needs a password)" if "encr" in said else "")
        assert "\n" not in message
    assert sandbox.text(paper)[2].startswith("Third page")  # and it reads the next file


def test_deep_nesting_and_a_million_pages_claimed(sandbox: PdfSandbox, tmp_path: Path) -> None:
    nested = tmp_path / "nested.pdf"
    nested.write_bytes(nested_pdf(200_000))
    assert sandbox.text(nested) == ["nested"]  # PDFium bounds the depth it parses
    claims = tmp_path / "claims.pdf"
    claims.write_bytes(claims_pages(1_000_000))
    assert sandbox.info(claims)["pages"] == 1_000_000  # what the file says
    assert sandbox.text(claims, [0]) == ["one page"]
    with pytest.raises(PdfError, match=r"^claims\.pdf has a page that cannot be loaded .*"
                                       r"\(page 2 of 1,000,000\)$"):
        sandbox.text(claims)  # page 2 is not there


def test_missing_file(sandbox: PdfSandbox, tmp_path: Path) -> None:
    with pytest.raises(PdfError, match=r"^gone\.pdf cannot be read \(no such file"):
        sandbox.info(tmp_path / "gone.pdf")


def test_texts_read_ahead_and_say_each_file(sandbox: PdfSandbox, paper: Path) -> None:
    """One answer per file, in order, a hostile one among them, then a file read again."""
    bad = paper.with_name("bad.pdf")
    bad.write_bytes(b"not a pdf at all" * 10)
    got = list(sandbox.texts([paper, bad, paper]))
    assert [p.name for p, _ in got] == ["paper.pdf", "bad.pdf", "paper.pdf"]
    assert got[0][1] == got[2][1] == sandbox.text(paper)
    assert isinstance(got[1][1], PdfError)
    assert str(got[1][1]) == "bad.pdf is not a PDF, or is damaged"
    # Stopped early, with the next file being read: the child is still in step.
    texts = sandbox.texts([paper, paper, paper])
    next(texts)
    texts.close()
    assert sandbox.info(paper)["pages"] == 3
    assert list(sandbox.texts([])) == []


def test_deadline_kills_and_restarts(paper: Path) -> None:
    with PdfSandbox() as pdf:
        pdf.info(paper)
        first = psutil.Process(pdf.process.pid)
        with pytest.raises(PdfError, match=r"^paper\.pdf: reading it took longer than .* s; "
                                           r"stopped$"):
            pdf.text(paper, deadline=1e-9)
        assert not first.is_running()
        assert pdf.text(paper)[0].startswith("Known phrase")  # a new child
        assert pdf.started == 2


def test_memory_cap_kills_and_restarts(paper: Path) -> None:
    with PdfSandbox(memory_mb=120) as pdf:
        assert pdf.info(paper)["pages"] == 3
        # Scale 9: 5,508 x 7,128 pixels, 157 MB of bitmap.
        with pytest.raises(PdfError, match=r"^paper\.pdf: reading it needed more than 120 MB "
                                           r"of memory; stopped$"):
            pdf.render(paper, 0, 9.0)
        assert pdf.started == 1
        assert pdf.render(paper, 0, 1.0).width == 612
        assert pdf.started == 2


@pytest.mark.skipif(not hasattr(psutil.Process, "rlimit"), reason="no process rlimit here")
def test_the_system_caps_the_childs_memory_between_two_looks(
        paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch looks only at the deadline here, far too late for a 157 MB bitmap: the
    system's cap (twice the resident limit) makes the render fail in the child, which
    says so, is stopped and replaced, and reads on."""
    monkeypatch.setattr(sandbox_module, "_WATCH_S", 60.0)
    with PdfSandbox(memory_mb=60) as pdf:
        assert pdf.info(paper)["pages"] == 3
        assert pdf.capped
        limit = psutil.Process(pdf.process.pid).rlimit(psutil.RLIMIT_DATA)
        assert limit == (120 << 20, 120 << 20)
        first = psutil.Process(pdf.process.pid)
        with pytest.raises(PdfError, match=r"^paper\.pdf: reading it needed more than 60 MB "
                                           r"of memory; stopped$"):
            pdf.render(paper, 0, 9.0)
        assert not first.is_running()
        assert pdf.render(paper, 0, 1.0).width == 612
        assert pdf.started == 2
    # Without the cap the same render succeeds: the cap, not the watch, stopped it.
    with PdfSandbox(memory_mb=60) as pdf:
        monkeypatch.setattr(sandbox_module, "_cap", lambda process, limit: False)
        pdf.info(paper)
        assert not pdf.capped
        assert pdf.render(paper, 0, 9.0).width == 5508


def test_a_child_killed_between_tasks_is_replaced(paper: Path) -> None:
    with PdfSandbox() as pdf:
        pdf.info(paper)
        pdf.process.kill()
        pdf.process.join()
        assert pdf.info(paper)["pages"] == 3
        assert pdf.started == 2


def test_a_background_sandbox_runs_below_normal_priority(paper: Path) -> None:
    with PdfSandbox(background=True) as low, PdfSandbox() as normal:
        low.info(paper)
        normal.info(paper)
        mine = psutil.Process().nice()
        assert psutil.Process(normal.process.pid).nice() == mine
        assert psutil.Process(low.process.pid).nice() != mine


def test_several_sandboxes_and_threads_at_once(paper: Path) -> None:
    """Two sandboxes, two threads each: every answer right, two children in all."""
    results: list[str] = []
    errors: list[BaseException] = []
    with PdfSandbox() as one, PdfSandbox() as two:
        def work(pdf: PdfSandbox, page: int) -> None:
            try:
                for _ in range(5):
                    results.append(pdf.text(paper, [page])[0])
            except BaseException as exc:  # reported below
                errors.append(exc)
        threads = [threading.Thread(target=work, args=(pdf, page))
                   for pdf in (one, two) for page in (0, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert one.process.pid != two.process.pid and one.started == two.started == 1
    assert len(results) == 20
    assert {r.split()[0] for r in results} == {"Known", "Third"}
    assert one.process is None and two.process is None  # closed: the children stopped


LATEX = r"""\documentclass{article}
\begin{document}
The first page holds the phrase quokka marmalade sandwich.
\newpage
A difficult, fluffy, official affair on the second page.
\newpage
The third page: zebra xylophone orchestra.
\end{document}
"""


@pytest.mark.tex
def test_a_pdf_made_by_pdflatex(sandbox: PdfSandbox, tmp_path: Path) -> None:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    (tmp_path / "doc.tex").write_text(LATEX)
    latex(tmp_path, "doc.tex")
    text = sandbox.text(tmp_path / "doc.pdf")
    assert len(text) == 3
    assert "quokka marmalade sandwich" in text[0]
    assert "zebra xylophone orchestra" in text[2]
    # TeX set "ffi", "ffl", "ff" as ligature glyphs; the text has them as characters
    # (PDFium reads some as their letters); the full text splits the rest.
    assert any(w in text[1] for w in ("difficult", "di\ufb03cult"))


def _minor_faults(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[7])  # field 10, minflt, after the name


@pytest.mark.skipif(not Path("/proc/self/stat").exists()
                    or not child_env._glibc(), reason="glibc on Linux")
def test_the_child_keeps_freed_memory_for_the_next_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PDFium allocates and frees its buffers at every page; with glibc's defaults each
    read of a page faults its memory in again. The child starts with the allocator told
    to keep it (``child_env.TUNABLES``); a user's own ``GLIBC_TUNABLES`` is left alone."""
    lines = [f"line {i} of a page with words to extract, again and again." for i in range(45)]
    pdf = write_pdf(tmp_path / "long.pdf", [lines] * 12)

    def faults_of_reads(env: str | None) -> tuple[int, str | None]:
        if env is None:
            monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
        else:
            monkeypatch.setenv("GLIBC_TUNABLES", env)
        with PdfSandbox() as pdf_box:
            pdf_box.text(pdf)  # the first read grows the heap either way
            assert pdf_box.process is not None
            pid = pdf_box.process.pid
            seen = os.environ.get("GLIBC_TUNABLES")  # what the child started with
            before = _minor_faults(pid)
            for _ in range(8):
                other = write_pdf(tmp_path / f"other{_}.pdf", [lines] * 12)
                assert len(pdf_box.text(other)) == 12
            return _minor_faults(pid) - before, seen

    tuned, seen = faults_of_reads(None)
    assert seen == child_env.TUNABLES
    default, seen = faults_of_reads("glibc.malloc.perturb=0")  # the user's, a no-op
    assert seen == "glibc.malloc.perturb=0"
    assert tuned * 4 < default, (tuned, default)
