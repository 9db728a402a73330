"""Reading the query language into a small tree (see query.py for the language).

Positions in errors are 1-based character offsets into the query. A query has
limits, each refused with a positioned one-line error rather than left to fail
deep inside Python or SQLite: at most ``MAX_LENGTH`` characters, ``MAX_TERMS``
words and fields, and ``MAX_DEPTH`` levels of parentheses and negations. A word
prefix (``diffus*``) reads every indexed word it begins, so a query holds at most
``MAX_PREFIXES`` of them, each of at least ``MIN_PREFIX`` characters.

The index keeps letters and digits only, so punctuation separates words, inside
a term (``state-of-the-art``) and between terms alike (``scaling + laws`` is
``scaling laws``). A query, an alternative of OR or a group made of punctuation
alone (``%``, ``a OR %``, ``(+ ~)``) asks for nothing the index can find: it is
refused with a positioned line, rather than taken to mean every paper (as the
empty query does) or dropped from its OR (which would answer part of the
question as if it were the whole).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdesk.core.model.errors import QueryError

# Fields that hold words searched in one column of the full-text index.
WORD_COLUMNS = {"title": "title", "abstract": "abstract", "note": "notes", "notes": "notes"}
VALUE_FIELDS = ("tag", "status", "rating", "year", "upvotes", "digest", "has", "is", "org", "pdf")
_FIELD = re.compile(r"([A-Za-z]+)(>=|<=|:|=|>|<)")
_STOP = set('()"')

MAX_LENGTH = 10_000  # characters
MAX_TERMS = 256      # words and fields; SQLite's expression trees stop near 1,000
MAX_DEPTH = 64       # nested parentheses and negations; SQLite's parser stops near 100
# 128 one- and two-letter prefixes OR-ed took 52 s on 150,000 papers, 26 single letters
# 15 s; 8 of the commonest two-letter prefixes take 1.4 s, of three letters 0.9 s.
MAX_PREFIXES = 8     # word prefixes (word*) in one query
MIN_PREFIX = 2       # characters before the '*' of a word prefix


@dataclass
class Word:
    text: str
    prefix: bool = False
    column: str | None = None
    pos: int = 0


@dataclass
class Field:
    name: str
    op: str
    value: str
    prefix: bool = False
    pos: int = 0


@dataclass
class Not:
    child: Node


@dataclass
class Group:
    op: str  # "AND" or "OR"
    children: list[Node]


Node = Word | Field | Not | Group


@dataclass
class _Tok:
    kind: str  # "(", ")", "OR", "AND", "NOT", "-", "TERM"
    pos: int
    name: str | None = None  # TERM: field name, if any
    op: str = ""
    value: str = ""
    quoted: bool = False


def _quoted(text: str, start: int) -> tuple[str, int]:
    """The text of a quoted phrase starting at ``start`` (a '"'), and where it ends."""
    end = text.find('"', start + 1)
    if end < 0:
        raise QueryError(f"unbalanced quote: the '\"' at position {start + 1} is never closed")
    return text[start + 1:end], end + 1


def tokenize(text: str) -> list[_Tok]:
    if len(text) > MAX_LENGTH:
        raise QueryError(f"the query is too long at position {MAX_LENGTH + 1}: at most "
                         f"{MAX_LENGTH:,} characters, this one has {len(text):,}")
    toks: list[_Tok] = []
    terms = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c in "()":
            toks.append(_Tok(c, i + 1))
            i += 1
            continue
        if c == "-" and i + 1 < n and (text[i + 1] in '("' or not text[i + 1].isspace()):
            toks.append(_Tok("-", i + 1))
            i += 1
            continue
        start = i
        tok = _Tok("TERM", start + 1)
        m = _FIELD.match(text, i)
        if m:
            tok.name, tok.op = m[1].lower(), m[2]
            i = m.end()
        if i < n and text[i] == '"':
            tok.value, i = _quoted(text, i)
            tok.quoted = True
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in _STOP:
                j += 1
            tok.value, i = text[i:j], j
        if tok.name is None and not tok.quoted and tok.value in ("OR", "AND", "NOT"):
            tok.kind = tok.value
        else:
            terms += 1
            if terms > MAX_TERMS:
                raise QueryError(f"the query is too large at position {start + 1}: at most "
                                 f"{MAX_TERMS} words and fields in one query")
        toks.append(tok)
    return toks


def _meaningful(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def _shown(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.end = len(text) + 1
        self.depth = 0  # parentheses and negations around the current token
        self.prefixes = 0  # word prefixes so far

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def where(self) -> int:
        tok = self.peek()
        return tok.pos if tok else self.end

    def parse(self) -> Node | None:
        node = self.parse_or()
        tok = self.peek()
        if tok is not None:  # only a ")" stops parse_or early
            raise QueryError(f"unbalanced parenthesis: the ')' at position {tok.pos} "
                             "has no '(' before it")
        if node is None and self.toks:
            self.blank(0)
        return node

    def blank(self, start: int) -> None:
        """Refuse the part of the query from token ``start``: punctuation only."""
        tok = next((t for t in self.toks[start:] if t.kind == "TERM"), self.toks[start])
        text = f'"{tok.value}"' if tok.quoted else tok.value or tok.kind
        raise QueryError(f"{_shown(text)!r} at position {tok.pos} has no "
                         "letters or digits to search for (punctuation only separates words)")

    def parse_or(self) -> Node | None:
        starts = [self.i]
        children = [self.parse_and()]
        while (tok := self.peek()) is not None and tok.kind == "OR":
            self.take()
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "OR"):
                raise QueryError(f"OR at position {tok.pos} needs something on both sides")
            starts.append(self.i)
            children.append(self.parse_and())
        if len(children) > 1 and None in children:  # an alternative of punctuation only
            self.blank(starts[children.index(None)])
        kept = [c for c in children if c is not None]
        if len(kept) <= 1:
            return kept[0] if kept else None
        return Group("OR", kept)

    def parse_and(self) -> Node | None:
        children: list[Node | None] = []
        while (tok := self.peek()) is not None and tok.kind not in (")", "OR"):
            if tok.kind == "AND":
                self.take()
                nxt = self.peek()
                if not children or nxt is None or nxt.kind in (")", "OR", "AND"):
                    raise QueryError(f"AND at position {tok.pos} needs something on both sides")
                continue
            children.append(self.parse_unary())
        if not children and tok is not None and tok.kind == "OR":
            raise QueryError(f"OR at position {tok.pos} needs something on both sides")
        kept = [c for c in children if c is not None]
        if len(kept) <= 1:
            return kept[0] if kept else None
        return Group("AND", kept)

    def deeper(self, tok: _Tok, levels: int) -> None:
        if self.depth + levels > MAX_DEPTH:
            raise QueryError(f"the query nests too deeply at position {tok.pos}: at most "
                             f"{MAX_DEPTH} levels of parentheses and negations")

    def parse_unary(self) -> Node | None:
        # A run of negations is read in a loop, so its length costs no recursion.
        negations = []
        while (tok := self.take()).kind in ("-", "NOT"):
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "OR", "AND"):
                raise QueryError(f"'{tok.value or tok.kind}' at position {tok.pos} "
                                 "needs a word, field or group after it")
            negations.append(tok)
            self.deeper(tok, len(negations))
        self.depth += len(negations)
        node = (self.parse_group(tok, negated=bool(negations)) if tok.kind == "("
                else self.term(tok))
        self.depth -= len(negations)
        if node is None and negations:
            first = negations[-1]
            raise QueryError(f"'{first.value or first.kind}' at position {first.pos} needs "
                             "a word, field or group after it, not only punctuation")
        if negations:
            assert node is not None  # refused just above
            for _ in negations:
                node = Not(node)
        return node

    def parse_group(self, tok: _Tok, *, negated: bool = False) -> Node | None:
        if (nxt := self.peek()) is not None and nxt.kind == ")":
            raise QueryError(f"empty parentheses at position {tok.pos}")
        self.deeper(tok, 1)
        self.depth += 1
        start = self.i
        node = self.parse_or()
        if node is None and not negated:  # negated: the negation says it (parse_unary)
            self.blank(start)
        self.depth -= 1
        close = self.peek()
        if close is None or close.kind != ")":
            raise QueryError(f"unbalanced parenthesis: the '(' at position {tok.pos} "
                             "is never closed")
        self.take()
        return node

    def bounded_prefix(self, value: str, tok: _Tok) -> None:
        """Refuse a word prefix too short, or one too many: either reads most of the index."""
        if len(value) < MIN_PREFIX:
            raise QueryError(f"the query is too broad at position {tok.pos}: a word prefix "
                             f"needs at least {MIN_PREFIX} characters before '*'")
        self.prefixes += 1
        if self.prefixes > MAX_PREFIXES:
            raise QueryError(f"the query is too broad at position {tok.pos}: at most "
                             f"{MAX_PREFIXES} word prefixes (word*) in one query")

    def term(self, tok: _Tok) -> Node | None:
        value, prefix = tok.value, False
        if not tok.quoted and len(value) > 1 and value.endswith("*"):
            value, prefix = value[:-1], True
        if prefix and _meaningful(value) and (tok.name is None or tok.name in WORD_COLUMNS
                                              or tok.name == "pdf"):
            self.bounded_prefix(value, tok)
        if tok.name == "pdf" and not _meaningful(value):
            raise QueryError(f"pdf: needs a word (position {tok.pos})")
        if tok.name is None:
            return Word(value, prefix, None, tok.pos) if _meaningful(value) else None
        if tok.name in WORD_COLUMNS:
            if tok.op != ":":
                raise QueryError(f"{tok.name}: takes words, not {tok.op!r} (position {tok.pos})")
            if not _meaningful(value):
                raise QueryError(f"{tok.name}: needs a word (position {tok.pos})")
            return Word(value, prefix, WORD_COLUMNS[tok.name], tok.pos)
        if tok.name not in VALUE_FIELDS:
            raise QueryError(
                f"unknown field {tok.name!r} at position {tok.pos}; fields are "
                f"{', '.join(VALUE_FIELDS + tuple(WORD_COLUMNS)[:2])}, note "
                "(put the text in quotes to search for it as words)")
        if not value.strip():
            raise QueryError(f"{tok.name}{tok.op} needs a value (position {tok.pos})")
        return Field(tok.name, tok.op, value.strip(), prefix, tok.pos)


def parse(text: str) -> Node | None:
    """The query as a tree; None for a query that asks for nothing (all papers)."""
    if not isinstance(text, str):
        raise QueryError(f"a query is text, not {type(text).__name__}")
    return _Parser(text).parse()
