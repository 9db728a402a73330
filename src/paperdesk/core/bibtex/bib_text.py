"""A .bib file's text made ready to read, its length and lines kept (pure): BibTeX's
loosest block starts in their usual form (``loosen``), ``%`` comments between fields
blanked (``strip_entry_comments``: biber reads them, bibtexparser would take one for a
field name), and jurabib's ``@commented{key,`` masked for bibtexparser (``readable``).
"""

from __future__ import annotations

import re

# BibTeX's loosest block start: white space, line breaks too, after "@" and after the type.
_LOOSE = re.compile(r"@(\s*)([\w-]+)(\s*)([{(])")
_COMMENT_TYPES = re.compile(r"(?mi)^([ \t]*@[ \t]*)(comment[a-z]+[ \t]*[{(][^,\n]*,)")
MASK = "paperdeskmasked"
# What changes the state of strip_entry_comments (a backslash takes the next character).
# It starts with a set of characters, which the regular expression engine skips to fast.
_STRIP_TOKEN = re.compile(r'[\\{}"@%](?:(?<=\\)[\s\S])?')

def _group(depth: int) -> str:
    """A brace group as strip_entry_comments steps through it below the top level of an
    entry: only braces count, a backslash takes the next character."""
    inner = r"[^{}\\]++|\\[\s\S]?"
    if depth > 1:
        inner += "|" + _group(depth - 1)
    return r"\{(?:" + inner + r")*+\}"


# Text in which strip_entry_comments finds no comment, in one pass of the regular
# expression engine: outside entries anything but "{"; at an entry's top level no
# "%" outside quotes, quotes closed, groups (nested at most 8 deep) closed.
_OUTSIDE = r"(?:[^{\\]++|\\[\s\S]?)*+"
_IN_QUOTES = r'"(?:[^{}"\\]++|\\[\s\S]?|' + _group(7) + r')*+"'
_NO_COMMENT = re.compile(_OUTSIDE + r"(?:\{(?:[^{}\"%\\]++|\\[\s\S]?|" + _IN_QUOTES + "|"
                         + _group(7) + r")*+\}" + _OUTSIDE + ")*+")


def strip_entry_comments(text: str) -> str:
    """The text with ``% ...`` comments between the fields of an entry blanked out
    (biber reads them; bibtexparser would take the comment for a field name).
    Values, and everything outside entries, are left as they are; lines keep their
    numbers."""
    if "%" not in text or _escaped_only(text) or _NO_COMMENT.fullmatch(text):
        return text
    out: list[str] = []
    depth, quoted, last, skip = 0, False, 0, -1
    for m in _STRIP_TOKEN.finditer(text):
        i = m.start()
        if i < skip:
            continue  # inside a comment
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 1:
            quoted = not quoted
        elif ch == "%" and depth == 1 and not quoted:
            out.append(text[last:i])
            end = text.find("\n", i)
            last = skip = len(text) if end < 0 else end
        elif ch == "@" and depth == 0:
            quoted = False
    out.append(text[last:])
    return "".join(out)


def _escaped_only(text: str) -> bool:
    """Every ``%`` of the text escaped by one backslash (``50\\%``): each such backslash
    follows no backslash, so it takes the ``%`` and no comment starts (counted in C;
    abstracts often hold ``\\%``, and ``_NO_COMMENT`` reads the whole entry)."""
    return text.count("%") == text.count("\\%") and "\\\\%" not in text


def loosen(text: str) -> str:
    """The text with BibTeX's loosest block starts in their usual form, as BibTeX reads
    them: ``@`` parted from its type by white space or a line break (``use.@`` at a
    line's end, ``MaNuAl (`` below), or a line break before the delimiter
    (``@FAKE-ENTRY`` on its own line, ``{`` on the next), outside any entry (the
    braces before it balance). Only white space and the ``@`` move, within the block
    start: the text keeps its length and its lines, and the entry's line is its type's."""
    if "@" not in text:
        return text
    out: list[str] = []
    last = counted = depth = 0  # braces open before text[counted]
    for m in _LOOSE.finditer(text):
        gap, word, space, mark = m.groups()
        if not gap and "\n" not in space:
            continue  # the usual form
        at = m.start()
        line_start = text.rfind("\n", 0, at) + 1
        if "\n" not in gap and text[line_start:at].strip():
            continue  # "@ type" in the middle of a line: as bibtexparser reads it
        depth += text.count("{", counted, at) - text.count("}", counted, at)
        counted = at
        if depth:
            continue  # inside an entry, or after a damaged one
        out.append(text[last:at] + gap + "@" + word + mark + space)
        last = m.end()
    return "".join(out) + text[last:] if out else text


def readable(text: str) -> str:
    """The text as bibtexparser should see it: ``%`` comments between fields blanked,
    and "@commented{key," (jurabib's type: an entry to BibTeX, a comment to
    bibtexparser, which takes any type starting with "comment" for one) masked."""
    text = _COMMENT_TYPES.sub(lambda m: m.group(1) + MASK + m.group(2), text)
    return strip_entry_comments(text)
