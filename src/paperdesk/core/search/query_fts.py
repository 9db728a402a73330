"""Word conditions over the two full-text tables.

A paper's words are in two FTS5 tables with the same columns: ``papers_fts``
(title, abstract) and ``annotations_fts`` (notes with the highlights' text and
comments, tags; a row only for papers that have some). A word matches a paper
when it matches either row; a boolean expression of words is read over the two
rows together. ``Expr`` is such an expression: its FTS5 text reads in both
tables, and ``matched`` writes the SQL that finds its papers:

- a paper whose annotation row holds none of the expression's words matches it
  exactly when its text row does: one MATCH on ``papers_fts`` finds those;
- the papers whose notes or tags hold one of its words (one MATCH on the small
  ``annotations_fts``) are checked word by word: each word a lookup of the
  paper's text row when they are few (FTS5 sets up a query for each lookup,
  a tenth of a millisecond), else a set of the word's matches made once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expr:
    """A word (``op`` "word", its FTS5 text in ``text``) or ``op`` ("AND", "OR",
    "NOT": the first item and none of the others) over ``items``."""

    op: str
    text: str = ""
    items: tuple[Expr, ...] = ()

    def fts(self) -> str:
        """The expression in FTS5's syntax."""
        if self.op == "word":
            return self.text
        if self.op == "NOT":
            return f"({self.items[0].fts()}) NOT ({self.items[1].fts()})"
        return f" {self.op} ".join(f"({x.fts()})" for x in self.items)

    def words(self) -> list[str]:
        """Every word of the expression (negated ones too), once each, in order."""
        if self.op == "word":
            return [self.text]
        return list(dict.fromkeys(w for x in self.items for w in x.words()))

    def any_word(self) -> str:
        """An FTS5 expression matching a row that holds any of the words."""
        return " OR ".join(f"({w})" for w in self.words())

    def member_sql(self, rowid: str, few: str) -> tuple[str, list[object]]:
        """SQL true when the paper ``rowid`` matches, its two rows read together;
        ``few`` is SQL true when the papers to check are few enough to look up."""
        if self.op == "word":
            return (f"(CASE WHEN {few} THEN EXISTS (SELECT 1 FROM papers_fts WHERE "
                    f"papers_fts MATCH ? AND rowid = {rowid}) ELSE {rowid} IN (SELECT rowid "
                    f"FROM papers_fts WHERE papers_fts MATCH ?) END OR {rowid} IN "
                    f"(SELECT rowid FROM annotations_fts WHERE annotations_fts MATCH ?))",
                    [self.text, self.text, self.text])
        parts = [x.member_sql(rowid, few) for x in self.items]
        params = [v for _, ps in parts for v in ps]
        if self.op == "NOT":
            return f"(({parts[0][0]}) AND NOT ({parts[1][0]}))", params
        return "(" + f" {self.op} ".join(f"({s})" for s, _ in parts) + ")", params


def word(text: str) -> Expr:
    return Expr("word", text)


def joined(op: str, items: list[Expr]) -> Expr:
    """``items`` under ``op``; a lone item as it is."""
    return items[0] if len(items) == 1 else Expr(op, items=tuple(items))


def but_not(positive: Expr, negative: Expr | None) -> Expr:
    return positive if negative is None else Expr("NOT", items=(positive, negative))


# Up to this many annotated papers are checked by looking up their rows one by one.
FEW = 64


def few_annotated(table: str) -> str:
    """SQL true when the table of annotated papers ``table`` holds few enough to look up."""
    return f"(SELECT count(*) FROM {table}) <= {FEW}"


@dataclass
class Tables:
    """Common table expressions a compiled query names: for each word condition, the
    annotated papers that hold one of its words (``a1``...) and those of them that
    match it (``m1``...)."""

    ctes: list[str]
    params: list[object]

    def annotated(self, expr: Expr) -> tuple[str, str]:
        """Names of the two tables for ``expr``, added to the statement."""
        n = sum(c.startswith("a") for c in self.ctes) + 1
        a, m = f"a{n}", f"m{n}"
        self.ctes.append(f"{a}(id) AS (SELECT rowid FROM annotations_fts "
                         f"WHERE annotations_fts MATCH ?)")
        self.params.append(expr.any_word())
        member, params = expr.member_sql(f"{a}.id", few_annotated(a))
        self.ctes.append(f"{m}(id) AS (SELECT id FROM {a} WHERE {member})")
        self.params.extend(params)
        return a, m

    def matched(self, expr: Expr) -> tuple[str, list[object]]:
        """A subquery of the ids of the papers ``expr`` matches."""
        a, m = self.annotated(expr)
        return (f"SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? AND rowid NOT IN {a} "
                f"UNION ALL SELECT id FROM {m}", [expr.fts()])
