"""A .bib file's own fields are kept as written, so the import report's warning is the
guard: every command that reads or writes a file or runs a program (TeX, pdfTeX, XeTeX,
LuaTeX, LaTeX and common packages) is named in one line per entry and field, or per
``@preamble``, at import; so is a command hidden by ``^^``, ``\\csname`` or a
``\\catcode`` change. The compile test shows what plain pdflatex (no shell escape) and
bibtex read with the commands the warnings missed before."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from tests import latex_build as tex

DOC = Path(__file__).parents[2] / "docs" / "latex-safety.md"

# What issue 43 named, that any list must hold (the list holds more).
NAMED = ("input include @@input openin read readline openout write immediate pdffiledump "
         "pdfmdfivesum pdffilesize pdffilemoddate filesize filedump filemdfivesum filemoddate "
         "IfFileExists InputIfFileExists lstinputlisting verbatiminput VerbatimInput "
         "includegraphics directlua luaexec write18 ShellEscape catcode csname scantokens "
         "detokenize").split()

# A command hidden, and the one it spells.
HIDDEN = [
    (r"\csname input\endcsname{/etc/hostname}", "\\input"),
    (r"\csname pdffiledump\endcsname length 9 {/etc/hostname}", "\\pdffiledump"),
    (r"\csuse{lstinputlisting}{/etc/hostname}", "\\lstinputlisting"),
    ("^^5cinput{/etc/hostname}", "\\input"),
    ("^^5c^^70dffiledump length 9 {/etc/hostname}", "\\pdffiledump"),
    ("^^^^005cinput{/etc/hostname}", "\\input"),
    (r"\catcode`\|=0 |input{/etc/hostname}", "\\input"),
    (r"\catcode124=0 |pdfmdfivesum file {/etc/hostname}", "\\pdfmdfivesum"),
    (r"\scantokens{\string\in put{/etc/hostname}}", "\\input"),
    (r"\scantokens\expandafter{\detokenize{\inp}ut{/etc/hostname}}", "\\input"),
]


def _import(lib, tmp_path: Path, text: str):
    bib = tmp_path / "h.bib"
    bib.write_text(text, encoding="utf-8")
    report = lib.import_paths([bib])[0]
    assert report.status == "imported", report
    return report.warnings


def _named(line: str) -> list[str]:
    """The commands a warning line names, as written in it."""
    m = re.search(r"holds (.*), which can read or write files or run programs", line)
    assert m, line
    return m.group(1).split()


def test_every_command_named_in_the_issue_is_on_the_list():
    from paperdesk.core.bibtex.tex_danger import DANGEROUS

    assert set(NAMED) <= set(DANGEROUS)


def test_the_documented_list_is_the_list():
    from paperdesk.core.bibtex import tex_danger

    doc = DOC.read_text(encoding="utf-8").split("## A .bib file's own fields")[1]
    listed = [line for line in doc.splitlines() if line.startswith("- ")]
    assert len(listed) == len(tex_danger.GROUPS)
    for line, (what, names) in zip(listed, tex_danger.GROUPS.items(), strict=True):
        assert line.startswith(f"- {what}: ")
        assert re.findall(r"`\\([A-Za-z@0-9]+)`", line) == names.split()
    for name in (*tex_danger.ENVIRONMENTS, *tex_danger.EXPL_FUNCTIONS):
        assert name in doc, name


def _all_commands() -> list[str]:
    from paperdesk.core.bibtex.tex_danger import DANGEROUS

    return list(dict.fromkeys([*NAMED, *DANGEROUS]))


def test_each_command_in_a_field_is_warned_about_in_one_line(lib, tmp_path):
    names = _all_commands()
    text = "".join(f"@misc{{k{n}, title = {{Title {n}}},\n  note = {{See \\{name}{{/etc/hostname}}"
                   f" here}}}}\n" for n, name in enumerate(names))
    warnings = _import(lib, tmp_path, text)
    for n, name in enumerate(names):
        lines = [w for w in warnings if f"entry 'k{n}' field note:" in w]
        assert len(lines) == 1, (name, lines)
        assert _named(lines[0]) == [f"\\{name}"], lines[0]
    assert len(warnings) == len(names)


def test_each_command_in_a_preamble_is_warned_about_in_one_line(lib, tmp_path):
    names = _all_commands()
    text = "".join(f'@preamble{{"\\{name}{{/etc/hostname}}"}}\n' for name in names)
    warnings = _import(lib, tmp_path, text + "@misc{k, title = {Fine}}\n")
    assert len(warnings) == len(names), warnings
    for name, line in zip(names, warnings, strict=True):
        assert line.startswith("h.bib: @preamble holds "), line
        assert _named(line) == [f"\\{name}"], line


def test_environments_and_latex3_names_are_warned_about(lib, tmp_path):
    values = [r"\begin{filecontents}{x.tex}\input{y}\end{filecontents}",
              r"\begin {luacode*}os.execute('x')\end{luacode*}",
              r"\ExplSyntaxOn \tex_input:D {/etc/hostname}",
              r"\ExplSyntaxOn \sys_shell_now:n {touch x} \file_get:nnN {/etc/hostname} {} \l"]
    text = "".join(f"@misc{{k{n}, title = {{T}}, howpublished = {{{v}}}}}\n"
                   for n, v in enumerate(values))
    warnings = _import(lib, tmp_path, text)
    assert len(warnings) == len(values), warnings
    assert "holds \\begin{filecontents} \\input," in warnings[0]
    assert "holds \\begin {luacode*}," in warnings[1]
    assert "holds \\ExplSyntaxOn \\tex_input:D," in warnings[2]
    assert "holds \\ExplSyntaxOn \\sys_shell_now \\file_get," in warnings[3]


@pytest.mark.parametrize(("value", "spelt"), HIDDEN)
def test_a_hidden_command_is_warned_about_and_named(lib, tmp_path, value, spelt):
    text = (f"@misc{{k, title = {{T}}, howpublished = {{{value}}}}}\n"
            f'@preamble{{"{value}"}}\n')
    warnings = _import(lib, tmp_path, text)
    assert len(warnings) == 2, warnings
    for line in warnings:
        named = " ".join(_named(line))
        assert re.search(re.escape(spelt) + r" \((spelt|its name|written with|in pieces)",
                         named), line


def test_ordinary_commands_are_not_warned_about(lib, tmp_path):
    text = (r"@misc{k, title = {{\"U}ber \emph{x} \textbf{y} $\alpha$}, "
            r"note = {\inputenc \writer \reading \definition \letter \csnames \url{x}}}"
            "\n")
    assert _import(lib, tmp_path, text) == []


# Payloads that read the secret files with plain pdflatex, no shell escape, each in a
# field of its own entry (or the preamble); the name of each secret file is its command's.
READERS = {
    "pdffiledump": r"\pdffiledump offset 0 length 10 {{{f}}}",
    "pdfmdfivesum": r"\pdfmdfivesum file {{{f}}}",
    "pdffilesize": r"\pdffilesize{{{f}}}",
    "pdffilemoddate": r"\pdffilemoddate{{{f}}}",
    "input": r"\input{{{f}}}",
    "csname": r"\csname input\endcsname{{{f}}}",
    "hat": r"^^5cinput{{{f}}}",
    "catcode": r"{{\catcode`\|=0 |input{{{f}}}}}",
    "lstinputlisting": r"\lstinputlisting{{{f}}}",  # a document that loads listings
}


@pytest.mark.tex
def test_the_commands_read_files_with_plain_pdflatex_and_each_is_warned_about(lib, tmp_path):
    """The control for the warnings: compiled without -shell-escape, each payload puts its
    secret file's text, bytes (hex), MD5 sum, size or date into the PDF."""
    tex.require_tools()
    build = tmp_path / "build"
    build.mkdir()
    secrets = {}
    for n, name in enumerate([*READERS, "preamble"]):
        secret = build / f"s{name}.txt"
        secret.write_text(f"{n}{n}48151623{n}{n}\n", encoding="utf-8")
        secrets[name] = secret
    entries = "".join(f"@misc{{k{name}, author = {{Ann Lee}}, title = {{Entry {name}}}, year = "
                      f"2020, howpublished = {{[{p.format(f=secrets[name].name)}]}}}}\n"
                      for name, p in READERS.items())
    text = ('@preamble{"\\makeatletter\\@@input{' + secrets["preamble"].name
            + '}\\makeatother"}\n' + entries)
    warnings = _import(lib, tmp_path, text)
    assert len(warnings) == len(READERS) + 1, warnings
    assert "@preamble holds \\makeatletter \\@@input," in warnings[0]
    for name, line in zip(READERS, warnings[1:], strict=True):
        assert f"entry 'k{name}' field howpublished: holds " in line, line
    # as written (a bare ^ outside math is escaped otherwise: \^{}\^{}5cinput reads nothing)
    assert "{[\\^{}\\^{}5cinput{shat.txt}]}" in lib.bibtex.export()
    (build / "refs.bib").write_text(lib.bibtex.export(as_written=True), encoding="utf-8")
    tex.build(build, "bibtex", shell_escape=False, uncompressed=True, packages="listings")
    pdf = tex.pdf_strings(build / "doc.pdf")
    read = {name: secret.read_text().strip() for name, secret in secrets.items()}
    for name in ("input", "csname", "hat", "catcode", "lstinputlisting", "preamble"):
        assert read[name] in pdf, name  # the file's text
    assert secrets["pdffiledump"].read_bytes()[:10].hex().upper() in pdf  # bytes, as hex
    assert hashlib.md5(secrets["pdfmdfivesum"].read_bytes()).hexdigest().upper() in pdf
    assert f"[{secrets['pdffilesize'].stat().st_size}]" in pdf
    assert re.search(r"\[D:\d{14}", pdf)  # the date the file was changed
