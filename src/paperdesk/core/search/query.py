"""The search query language, compiled to SQL over ``papers p``.

    transformer "scaling law"       words and phrases (title, abstract, notes, tags,
                                    highlights' text and comments)
    diffus*                         a word prefix
    tag:ml  -tag:old  tag:"deep rl" papers with (without) a tag; tag:vis* a tag prefix
    status:to-read                  unread, to-read, reading, read
    rating>=4  year:2024  year>=2023  year:2020..2022  upvotes>10   (: = > >= < <=)
    digest:oct  digest:2024-10-30   a digest's file name (part of it) or its date
    has:notes  has:highlights  has:tags  has:rating  has:upvotes  has:date  has:abstract
    has:pdf
    pdf:word  pdf:"a phrase"  pdf:transfor*   words in the text of a paper's PDFs
    is:duplicate-candidate  is:year-inferred
    title:word  abstract:word  note:word   a word in one field only (note: holds highlights)
    org:deepseek                    the organisation (part of its name or handle)
    a OR b   (a b) OR c   -word   -(a OR b)   NOT word   AND is implied

Words become one FTS5 expression wherever the boolean structure allows, so a
query of words alone is one MATCH whose rank orders the results; fields become
indexed-column conditions. ``compile_query`` raises ``QueryError`` with the
position (1-based) of the problem for a malformed query.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field

from paperdesk.core.db.fulltext_db import FUNCTION as PDF_FUNCTION
from paperdesk.core.db.schema import STATUSES
from paperdesk.core.model.errors import QueryError
from paperdesk.core.model.text import tag_key
from paperdesk.core.search.query_fts import Expr, Tables, but_not, joined, word
from paperdesk.core.search.query_parse import Field, Group, Node, Not, Word, parse

DUPLICATE_TABLE = "duplicate_candidates"


@dataclass(frozen=True)
class Compiled:
    where: str = "1"
    params: list[object] = field(default_factory=list)
    # An FTS5 expression whose bm25 rank can order the results, if any.
    fts: str | None = None
    # The words a result may match, OR'd: ranks the rows of both indexes.
    rank_fts: str | None = None
    # When ``fts_required``: the table of annotated papers that hold one of its
    # words ("a1"; the rest match exactly when their text row does) and the one
    # of those that match it ("m1"), both in ``with_``; the words OR'd.
    annotated: str = ""
    annotated_match: str = ""
    annotated_words: str = ""
    # True when every result matches ``fts``: then ``rest``/``rest_params`` is
    # the condition left once the papers come from the FTS index itself.
    fts_required: bool = False
    rest: str = "1"
    rest_params: list[object] = field(default_factory=list)
    # Deeply nested parts of the query, as common table expressions that ``where``
    # and ``rest`` name: "WITH q1(id) AS (...), ..." goes before the statement,
    # and its parameters before all others.
    with_: str = ""
    with_params: list[object] = field(default_factory=list)
    # The ``pdf:`` fields a result may match (not those negated): what a hit's page
    # and snippet are found by, read from the same compilation as the search.
    pdf: tuple[Field, ...] = ()


@dataclass
class _Part:
    """Matches when: MATCH fts (if any), NOT MATCH neg (if any), and every sql conjunct."""

    fts: Expr | None = None
    neg: Expr | None = None
    sql: list[str] = field(default_factory=list)
    params: list[object] = field(default_factory=list)

    def fts_only(self) -> Expr | None:
        """The whole part as one FTS5 expression, if it can be one."""
        if self.sql or self.fts is None:
            return None
        return but_not(self.fts, self.neg)

    def neg_only(self) -> bool:
        return self.neg is not None and self.fts is None and not self.sql

    def to_sql(self, tables: Tables) -> tuple[str, list[object]]:
        terms, params = [], []
        for expr, test in ((self.fts, "IN"), (self.neg, "NOT IN")):
            if expr is not None:
                sql, more = tables.matched(expr)
                terms.append(f"p.id {test} ({sql})")
                params.extend(more)
        terms.extend(self.sql)
        params.extend(self.params)
        if not terms:
            return "1", []
        return (terms[0] if len(terms) == 1 else " AND ".join(f"({t})" for t in terms)), params


def _phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _joined(op: str, items: list[str]) -> str:
    return items[0] if len(items) == 1 else f" {op} ".join(f"({x})" for x in items)


def _and(parts: list[_Part]) -> _Part:
    fts = [p.fts for p in parts if p.fts is not None]
    neg = [p.neg for p in parts if p.neg is not None]
    return _Part(fts=joined("AND", fts) if fts else None,
                 neg=joined("OR", neg) if neg else None,
                 sql=[x for p in parts for x in p.sql],
                 params=[v for p in parts for v in p.params])


def _or(parts: list[_Part], tables: Tables) -> _Part:
    whole = [p.fts_only() for p in parts]
    if all(w is not None for w in whole):
        return _Part(fts=joined("OR", whole))  # type: ignore[arg-type]
    if all(p.neg_only() for p in parts):  # -a OR -b is -(a AND b)
        return _Part(neg=joined("AND", [p.neg for p in parts]))  # type: ignore[misc]
    pieces = [p.to_sql(tables) for p in parts]
    return _Part(sql=[_joined("OR", [s for s, _ in pieces])],
                 params=[v for _, ps in pieces for v in ps])


def _positive_words(node: Node | None, negated: bool = False) -> list[str]:
    """FTS expressions of the words a result may match, for ranking."""
    if isinstance(node, Word):
        return [] if negated else [_word_fts(node)]
    if isinstance(node, Not):
        return _positive_words(node.child, not negated)
    if isinstance(node, Group):
        return [w for c in node.children for w in _positive_words(c, negated)]
    return []


def _word_fts(node: Word) -> str:
    column = f"{node.column} : " if node.column else ""
    return column + _phrase(node.text) + (" *" if node.prefix else "")


# SQLite's and FTS5's parsers run out of stack at about 30 alternations of AND
# and OR; every HOIST_EVERY levels, the part below becomes a table of its own.
HOIST_EVERY = 8


class _Compiler:
    def __init__(self, tables: frozenset[str] | None) -> None:
        self.tables = tables
        self.ctes: list[str] = []
        self.cte_params: list[object] = []
        self.fts_tables = Tables(self.ctes, self.cte_params)

    def part(self, node: Node, negated: bool = False, level: int = 0) -> _Part:
        """The part matching ``node`` (or, when ``negated``, every paper it does not match).

        Negations are pushed down to the words and fields (De Morgan), and a
        negated field is "not known to be true", so a paper whose value is absent
        (NULL) is left out of ``X`` and found by ``-X``: the two always partition
        the library. Each alternation of AND and OR adds one level of parentheses.
        """
        while isinstance(node, Not):
            node, negated = node.child, not negated
        if isinstance(node, Word):
            expr = word(_word_fts(node))
            return _Part(neg=expr) if negated else _Part(fts=expr)
        if isinstance(node, Field):
            sql, params = field_sql(node, self.tables)
            return _Part(sql=[f"({sql}) IS NOT TRUE" if negated else sql], params=params)
        op = node.op if not negated else ("AND" if node.op == "OR" else "OR")
        parts = [self.part(c, neg, level + 1) for c, neg in _operands(node, negated, op)]
        part = _or(parts, self.fts_tables) if op == "OR" else _and(parts)
        return self.hoisted(part) if level and level % HOIST_EVERY == 0 else part

    def hoisted(self, part: _Part) -> _Part:
        """The part as a table of its own, which the statement names."""
        sql, params = part.to_sql(self.fts_tables)
        name = f"q{sum(c.startswith('q') for c in self.ctes) + 1}"
        self.ctes.append(f"{name}(id) AS (SELECT p.id FROM papers p WHERE {sql})")
        self.cte_params.extend(params)
        return _Part(sql=[f"p.id IN {name}"])


def _operands(node: Group, negated: bool, op: str) -> list[tuple[Node, bool]]:
    """The operands of ``node`` seen as ``op``, nested groups of the same operator
    (after negations) flattened into it: "a (b c)" is "a b c"."""
    out: list[tuple[Node, bool]] = []
    stack = [(c, negated) for c in reversed(node.children)]
    while stack:
        child, neg = stack.pop()
        while isinstance(child, Not):
            child, neg = child.child, not neg
        if isinstance(child, Group) and (child.op if not neg else
                                         ("AND" if child.op == "OR" else "OR")) == op:
            stack.extend((c, neg) for c in reversed(child.children))
        else:
            out.append((child, neg))
    return out


def compile_query(text: str, *, tables: frozenset[str] | None = None) -> Compiled:
    """Compile ``text``; ``tables``, when given, names the optional tables that exist.

    A query is compiled once, however many readers ask: the search, its count, the
    table's check for ranked words and the hints of one keystroke all read the same
    ``Compiled`` (frozen; nothing in it depends on the clock or the library)."""
    return _compiled(text, tables)


@functools.lru_cache(maxsize=256)
def _compiled(text: str, tables: frozenset[str] | None) -> Compiled:
    root = parse(text)
    if root is None:
        return Compiled()
    found = _pdf_fields(root)
    compiled = _compile(root, tables)
    return dataclasses.replace(compiled, pdf=found) if found else compiled


def _compile(root: Node, tables: frozenset[str] | None) -> Compiled:
    compiler = _Compiler(tables)
    part = compiler.part(root)
    words = _positive_words(root)
    rank = _joined("OR", words) if words else None
    if part.fts is not None:
        # Negated words fold into the one MATCH: "a NOT b".
        fts = but_not(part.fts, part.neg)
        annotated, annotated_match = compiler.fts_tables.annotated(fts)
        where, params = _Part(sql=part.sql, params=part.params).to_sql(compiler.fts_tables)
        where = (f"p.id IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? AND rowid "
                 f"NOT IN {annotated} UNION ALL SELECT id FROM {annotated_match})"
                 + ("" if where == "1" else f" AND ({where})"))
        rest, rest_params = _Part(sql=part.sql, params=part.params).to_sql(compiler.fts_tables)
        return Compiled(where, [fts.fts(), *params], fts.fts(), rank, annotated,
                        annotated_match, fts.any_word(), True, rest, rest_params,
                        _with(compiler), compiler.cte_params)
    where, params = part.to_sql(compiler.fts_tables)
    return Compiled(where, params, rank, rank, fts_required=False, rest=where,
                    rest_params=list(params), with_=_with(compiler),
                    with_params=compiler.cte_params)


def _with(compiler: _Compiler) -> str:
    return f"WITH {', '.join(compiler.ctes)} " if compiler.ctes else ""


# -- fields ------------------------------------------------------------------------------

_COMPARE = {":": "=", "=": "=", ">": ">", ">=": ">=", "<": "<", "<=": "<="}
_ISO_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_HAS = {
    "notes": "p.id IN (SELECT paper_id FROM notes)",
    "highlights": "p.id IN (SELECT a.paper_id FROM attachments a WHERE EXISTS "
                  "(SELECT 1 FROM highlights h WHERE h.attachment_id = a.id))",
    "tags": "p.id IN (SELECT paper_id FROM paper_tags)",
    "rating": "p.rating > 0",
    "upvotes": "p.upvotes > 0",
    "date": "p.published IS NOT NULL",
    "abstract": "p.abstract != ''",
    "pdf": "p.id IN (SELECT paper_id FROM attachments)",
}
# The papers with an attachment whose pages match an FTS5 expression: the attachments
# come from the full-text file (``core/db/fulltext_db.py``: the function's notes).
PDF_SQL = ("p.id IN (SELECT a.paper_id FROM attachments a WHERE a.id IN "
           f"(SELECT value FROM json_each({PDF_FUNCTION}(?))))")
_IS = {
    "duplicate-candidate": f"p.id IN (SELECT paper_id FROM {DUPLICATE_TABLE})",
    "year-inferred": "p.year_inferred = 1",
}
_IS_ALIASES = {"duplicate": "duplicate-candidate", "duplicates": "duplicate-candidate",
               "inferred": "year-inferred", "inferred-year": "year-inferred"}
_STATUS_ALIASES = {"toread": "to-read", "to_read": "to-read", "new": "unread", "done": "read"}
MAX_INTEGER = 2**63 - 1  # SQLite's largest integer
_NUMBERS = {"rating": ("p.rating", 0, 5), "year": ("p.year", 0, 9999),
            "upvotes": ("p.upvotes", 0, MAX_INTEGER)}


def pdf_expression(f: Field) -> str:
    """The FTS5 expression of a ``pdf:`` field: its words as a phrase, or a prefix."""
    return _phrase(f.value) + (" *" if f.prefix else "")


def pdf_fields(text: str) -> list[Field]:
    """The ``pdf:`` fields of the query a result may match (not those negated)."""
    return list(compile_query(text).pdf)


def _pdf_fields(root: Node) -> tuple[Field, ...]:
    found: list[Field] = []

    def walk(node: Node | None, negated: bool) -> None:
        if isinstance(node, Field) and node.name == "pdf" and not negated:
            found.append(node)
        elif isinstance(node, Not):
            walk(node.child, not negated)
        elif isinstance(node, Group):
            for child in node.children:
                walk(child, negated)

    walk(root, False)
    return tuple(found)


def pdf_words(text: str) -> str | None:
    """The ``pdf:`` fields a result may match, OR'd as one FTS5 expression (what a
    hit's snippet shows), or None when the query has none."""
    found = dict.fromkeys(pdf_expression(f) for f in pdf_fields(text))
    return " OR ".join(found) or None


def _number(f: Field, text: str) -> int:
    _, low, high = _NUMBERS[f.name]
    if not re.fullmatch(r"\d+", text):
        raise QueryError(f"{f.name} needs a whole number, not {_shown(text)!r} "
                         f"(position {f.pos})")
    # Python refuses to read numbers of thousands of digits; those are out of range anyway.
    value = int(text) if len(text) <= 1000 else None
    if value is None or value < low or value > high:
        shown = text if len(text) <= 24 else f"a number of {len(text):,} digits"
        raise QueryError(f"{f.name} goes from {low} to {high}, not {shown} (position {f.pos})")
    return value


def _shown(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _needs_colon(f: Field) -> None:
    if f.op not in (":", "="):
        raise QueryError(f"{f.name}: takes a value, not a comparison {f.op!r} "
                         f"(position {f.pos})")


def field_sql(f: Field, tables: frozenset[str] | None) -> tuple[str, list[object]]:
    value = f.value
    if f.name in _NUMBERS:
        column = _NUMBERS[f.name][0]
        if f.name == "year" and f.op == ":" and ".." in value:
            low, _, high = value.partition("..")
            return f"{column} BETWEEN ? AND ?", [_number(f, low), _number(f, high)]
        return f"{column} {_COMPARE[f.op]} ?", [_number(f, value)]
    _needs_colon(f)
    if f.name == "pdf":
        return PDF_SQL, [pdf_expression(f)]
    if f.name == "tag":
        key = tag_key(value)
        if f.prefix:
            return ("p.id IN (SELECT pt.paper_id FROM paper_tags pt JOIN tags t "
                    "ON t.id = pt.tag_id WHERE t.name_key LIKE ? ESCAPE '\\')",
                    [_like(key) + "%"])
        return ("p.id IN (SELECT pt.paper_id FROM paper_tags pt JOIN tags t "
                "ON t.id = pt.tag_id WHERE t.name_key = ?)", [key])
    if f.name == "status":
        status = _STATUS_ALIASES.get(value.lower(), value.lower())
        if status not in STATUSES:
            raise QueryError(f"unknown status {value!r} (position {f.pos}); "
                             f"choose from {', '.join(STATUSES)}")
        return "p.status = ?", [status]
    if f.name == "digest":
        if _ISO_DATE.match(value):
            cond, arg = "d.digest_date LIKE ?", value + "%"
        else:
            cond, arg = "d.name LIKE ? ESCAPE '\\'", "%" + _like(value) + "%"
        return ("p.id IN (SELECT s.paper_id FROM sightings s JOIN digests d "
                f"ON d.id = s.digest_id WHERE {cond})", [arg])
    if f.name == "org":
        pattern = "%" + _like(value) + "%"
        return ("(p.organization LIKE ? ESCAPE '\\' OR p.organization_handle LIKE ? "
                "ESCAPE '\\')", [pattern, pattern])
    if f.name == "has":
        if value.lower() not in _HAS:
            raise QueryError(f"unknown has:{value} (position {f.pos}); "
                             f"choose from {', '.join(_HAS)}")
        return _HAS[value.lower()], []
    if f.name == "is":
        what = _IS_ALIASES.get(value.lower(), value.lower())
        if what not in _IS:
            raise QueryError(f"unknown is:{value} (position {f.pos}); "
                             f"choose from {', '.join(_IS)}")
        if what == "duplicate-candidate" and tables is not None and DUPLICATE_TABLE not in tables:
            return "0", []
        return _IS[what], []
    raise QueryError(f"unknown field {f.name!r} (position {f.pos})")  # parse() stops these
