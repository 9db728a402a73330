"""The TeX commands a .bib file's own fields are warned about on import (pure).

A .bib file's fields are kept as written (the file is the user's), and bibtex and
biber copy them into the ``.bbl``, which LaTeX runs: the import report's warning is
the guard. ``DANGEROUS`` lists, by what they do, the primitives of TeX, e-TeX,
pdfTeX, XeTeX and LuaTeX, and the commands of LaTeX and its common packages, that
read or write a file, run a program, put raw PDF or PostScript into the output, or
change how TeX reads (and so can hide any of the others). docs/latex-safety.md lists
them; ``tests/core/test_tex_danger.py`` keeps the two in step.

A command may be hidden: spelt in TeX's ``^^`` notation (``^^5cinput``), built by
``\\csname input\\endcsname``, written with another escape character after a
``\\catcode`` change (``\\catcode`|=0 |input``), or cut in pieces that ``\\scantokens``
reads again. The hiding itself is on the list (``^^``, ``\\csname``, ``\\catcode``,
``\\scantokens``...), so it is always warned about; ``hidden`` also says which
command it spells, where it can tell.
"""

from __future__ import annotations

import re

# Each group: what its commands do (as the import report and the documentation say it),
# and their names without the backslash (``@`` is a letter in them, as in a package).
GROUPS: dict[str, str] = {
    "read a file into the document or the PDF": (
        "input include @@input @input @iinput @input@ @include InputIfFileExists "
        "IfFileExists openin read readline endinput CatchFileDef CatchFileEdef "
        "lstinputlisting verbatiminput VerbatimInput BVerbatimInput LVerbatimInput "
        "inputminted includegraphics includepdf includestandalone import subimport "
        "inputfrom subinputfrom includefrom subincludefrom usepackage RequirePackage "
        "documentclass LoadClass bibliography addbibresource DTLloaddb DTLloadrawdb "
        "csvreader csvautotabular csvautobooktabular pgfplotstableread "
        "pdffiledump pdfmdfivesum pdffilesize pdffilemoddate filedump filemdfivesum "
        "filesize filemoddate pdf@filedump pdf@filemdfivesum pdf@filesize pdf@filemoddate "
        "pdfximage pdfobj XeTeXpicfile XeTeXpdffile XeTeXpdfpagecount saveimageresource "
        "embedfile attachfile textattachfile"),
    "write a file": (
        "openout write immediate newwrite protected@write @writefile addtocontents "
        "newoutputstream openoutputfile addtostream"),
    "run a program, or put raw PDF or PostScript into the output": (
        "write18 ShellEscape DelayedShellEscape pdf@system pdf@pipe directlua latelua "
        "luaexec luadirect luafunction luafunctioncall lateluafunction luabytecode "
        "luabytecodecall luadef mintinline mint special pdfliteral pdfannot pdfstartlink"),
    "change how TeX reads, or build a command's name (and so hide any of these)": (
        "catcode csname ifcsname @nameuse @namedef csuse csdef csgdef csedef csxdef cslet "
        "csletcs letcs scantokens scantextokens detokenize def edef gdef xdef let futurelet "
        "everyeof makeatletter ExplSyntaxOn primitive pdfprimitive"),
}
DANGEROUS: tuple[str, ...] = tuple(name for names in GROUPS.values() for name in names.split())
# Environments whose body is written to a file or run (``\begin{filecontents}``).
ENVIRONMENTS = ("filecontents", "filecontents*", "VerbatimOut", "luacode", "luacode*",
                "minted")
# The LaTeX3 (expl3) names of the same things, for text under ``\ExplSyntaxOn``:
# a primitive as ``\tex_input:D`` (any prefix, ``\pdftex_pdffiledump:D``), and the
# functions that read, write or run.
EXPL_FUNCTIONS = ("sys_shell_now sys_shell_shipout iow_open iow_now iow_shipout ior_open "
                   "ior_get ior_str_get ior_map_inline ior_str_map_inline file_input "
                   "file_get file_if_exist file_size file_mdfive_hash file_timestamp "
                   "file_hex_dump lua_now lua_shipout lua_shipout_e cs:w use:c").split()

_NAME = "|".join(re.escape(name) for name in sorted(DANGEROUS, key=len, reverse=True))
_ENV = "|".join(re.escape(name) for name in ENVIRONMENTS)
_EXPL = (r"\\(?:[A-Za-z]+_)?(?:" + _NAME.replace("@", "") + r"):D(?![A-Za-z_:])|\\(?:"
         + "|".join(re.escape(name) for name in EXPL_FUNCTIONS) + r")(?=[:\s{\\]|$)")
# A command of the list (not the start of a longer name: ``\inputenc`` is not
# ``\input``), a begun environment of the list, an expl3 name, or ``^^``.
DIRECT = re.compile(r"\\(" + _NAME + r")(?![^\W\d_]|@)|\\begin\s*\{(?:" + _ENV + r")\}|"
                    + _EXPL + r"|\^\^")
# The same without ``^^``: it starts with a backslash, which the search skips to in C.
DIRECT_COMMAND = re.compile(DIRECT.pattern[:-len(r"|\^\^")])
_LOWER = {name.lower(): name for name in DANGEROUS}

# TeX's character notation: ^^^^^^ and six hex digits, ^^^^ and four (XeTeX, LuaTeX),
# ^^ and two (lower-case) hex digits, ^^ and a character (its code +/- 64).
_HATS = re.compile(r"\^{6}([0-9a-f]{6})|\^{4}([0-9a-f]{4})|\^\^([0-9a-f]{2})|\^\^([\x00-\x7f])")
# A name built from characters: \csname ...\endcsname, and the commands around it.
_BUILT = re.compile(r"\\(?:csname|ifcsname|tex_csname:D|cs:w)\s*(.*?)(?:\\endcsname|\\cs_end:|$)"
                    r"|\\(?:@nameuse|csuse|use:c|@namedef|csdef|csgdef|csedef|csxdef|cslet"
                    r"|csletcs|letcs|ifcsdef|ifcsundef)\s*(?:\\\w+\s*)?\{([^{}]*)\}", re.S)
# \catcode`\|=0 (or `|, 124, "7C, '174; "=" optional; \z@ is 0): | is then an escape.
_CATCODE = re.compile(r"\\catcode\s*(?:`\\?([\s\S])|(\d+)|\"([0-9A-Fa-f]+)|'([0-7]+))"
                      r"\s*=?\s*(?:0(?![0-9])|\\z@)")
# What \scantokens reads again may be text in pieces: without these and spaces (and
# then without the braces that cut a name too).
_PIECES = re.compile(r"\\(?:string|detokenize|noexpand|unexpanded|expandafter|relax)"
                     r"(?![A-Za-z@])|\s")
_INSIDE = re.compile(r"(?<=[A-Za-z@])(?:\}+\{*|\{\})(?=[A-Za-z@])")  # \inp}ut, \in{}put


def _hats(text: str) -> str:
    """``text`` with TeX's ``^^`` notation read, as TeX reads it (again and again: the
    character it gives may start the notation once more)."""
    for _ in range(8):
        read = _HATS.sub(lambda m: chr(int(m.group(1) or m.group(2) or m.group(3), 16))
                         if m.group(4) is None else chr((ord(m.group(4)) + 64) % 128), text)
        if read == text:
            break
        text = read
    return text


def names(text: str) -> list[str]:
    """The listed commands (``\\input``), environments (``\\begin{filecontents}``) and
    ``^^`` that ``text`` holds as written, each once, in order."""
    return list(dict.fromkeys(m.group() for m in DIRECT.finditer(text)))


def hidden(text: str, seen: list[str]) -> list[str]:
    """The listed commands ``text`` spells in hiding and does not hold as written
    (``seen``: those it holds), each as ``\\input (spelt with \\csname)``."""
    out: list[str] = []

    def add(found: list[str], how: str) -> None:
        for name in found:
            # not one held as written, nor a shorter reading of one (\write of \write18)
            if name != "^^" and not any(o.startswith(name) for o in (*seen, *out)):
                out.append(f"{name} ({how})")

    if "^^" in text:
        add(names(_hats(text)), "spelt in ^^ notation")
    if "cs" in text or "name" in text or "use:c" in text:
        for m in _BUILT.finditer(_hats(text)):
            built = re.sub(r"[{}\s]", "", m.group(1) or m.group(2) or "")
            if built.lower() in _LOWER:
                add(["\\" + _LOWER[built.lower()]], "its name built with \\csname")
    if "catcode" in text:
        for m in _CATCODE.finditer(text):
            char = (m.group(1) if m.group(1) is not None else
                    chr(int(m.group(2) or m.group(3) or m.group(4),
                            10 if m.group(2) else 16 if m.group(3) else 8)))
            if char != "\\" and char.strip():
                add(names(text[m.end():].replace(char, "\\")),
                    f"written with {char} for its backslash, after \\catcode")
    if "scantokens" in text or "scantextokens" in text or "detokenize" in text:
        joined = _PIECES.sub("", text)
        add(names(joined) + names(_INSIDE.sub("", joined)),
            "in pieces that \\scantokens reads again")
    return out
