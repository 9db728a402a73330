"""Running a query: ids of matching papers, sorted and paged in SQL.

Relevance orders word queries: papers whose notes or tags hold a word of the
query first, then by bm25 (titles weighing most) of the paper's text row plus
that of its notes and tags. (bm25 on the small table of notes and tags alone
weighs its words by how rare they are there, not in the library.) The papers of a query that
every result must match come from the full-text index with their rank, and the
other conditions filter them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import store
from paperdesk.core.db.database import Database
from paperdesk.core.model.errors import QueryError
from paperdesk.core.search import query_fts
from paperdesk.core.search.query import DUPLICATE_TABLE, Compiled, compile_query
from paperdesk.core.search.sorts import SORTS

if TYPE_CHECKING:
    from paperdesk.core.db.kernel import Kernel

# Sorts whose ascending order is their column's descending order.
_REVERSED = {"status"}

# Papers in the trash are left out by rowid, so that sorting and filtering read
# only indexes (each sort column's index holds the paper id too), not the rows.
ALIVE = "p.id NOT IN (SELECT id FROM papers WHERE deleted_at IS NOT NULL) AND "

# bm25 weights of the FTS columns: title, abstract, notes, tags.
RANK = "bm25(10.0, 1.0, 2.0, 5.0)"


# SQLite's messages for statements beyond its limits.
_LIMITS = ("parser stack overflow", "Expression tree is too large", "too many",
           "string or blob too big")


def _shown(query: str, width: int = 60) -> str:
    query = " ".join(query.split())
    return query if len(query) <= width else query[:width - 1] + "…"


@dataclass
class SearchResult:
    ids: list[int]
    # A first page ranked among the newest matches only (``search(first_page=True)``).
    partial: bool = False


def _direction(descending: bool) -> str:
    return "DESC" if descending else "ASC"


def order_clause(sort: str | None, descending: bool, fts: str | None) -> tuple[str, list]:
    """ORDER BY for every sort but relevance; relevance without words sorts by id."""
    if sort is None:
        sort = "relevance" if fts else "added"
    if sort not in SORTS:
        raise QueryError(f"cannot sort by {sort!r}; choose from {', '.join(SORTS)}")
    direction = _direction(descending != (sort in _REVERSED))
    if sort == "relevance":
        return f"p.id {direction}", []
    # Papers without a value (no date, no upvotes) sort last either way.
    return f"{SORTS[sort]} {direction} NULLS LAST, p.id {direction}", []


@dataclass(frozen=True)
class _Plan:
    """How to run a word query: ``newest`` (rank only text matches from this id on) and
    ``many`` (many annotated papers hold its words: rank them in a set)."""

    newest: int | None = None
    many: bool = False


def _sql(c: Compiled, sort: str | None, descending: bool, alive: str,
         plan: _Plan = _Plan()) -> tuple[str, list]:
    sql, params = _statement(c, sort, descending, alive, plan)
    return c.with_ + sql, [*c.with_params, *params]


def hits(c: Compiled, newest: int | None = None, many: bool = False) -> tuple[str, list]:
    """(id, t, r): the papers matching ``c.fts`` (``c.fts_required``) with their order:
    ``t`` 0 when their notes or tags hold a word of the query, else 1, then ``r`` the
    bm25 rank of their text row plus that of their notes and tags. With ``newest``, of
    the papers matching through their text row only those from that id on. ``many``:
    many annotated papers hold words of the query, so their ranks come from ranking
    every match rather than from a lookup per paper."""
    text = (f"SELECT rowid AS id, 1 AS t, rank AS r FROM papers_fts WHERE papers_fts MATCH ? "
            f"AND rank MATCH '{RANK}' {'' if newest is None else f'AND rowid >= {int(newest)} '}"
            f"AND rowid NOT IN {c.annotated}")
    if many:
        ranked = ("(SELECT rowid, rank FROM {t} WHERE {t} MATCH ? AND rank MATCH '"
                  + RANK + "')")
        return (f"{text} UNION ALL SELECT m.id, g.rowid IS NULL, "
                f"coalesce(f.rank, 0) + coalesce(g.rank, 0) FROM {c.annotated_match} m "
                f"LEFT JOIN {ranked.format(t='papers_fts')} f ON f.rowid = m.id "
                f"LEFT JOIN {ranked.format(t='annotations_fts')} g ON g.rowid = m.id",
                [c.fts, c.rank_fts, c.rank_fts])
    ranked = "SELECT rank FROM {t} WHERE {t} MATCH ? AND rank MATCH '" + RANK + "' AND rowid = m.id"
    return (f"{text} UNION ALL SELECT id, r2 IS NULL, coalesce(r1, 0) + coalesce(r2, 0) FROM "
            f"(SELECT m.id, ({ranked.format(t='papers_fts')}) AS r1, "
            f"({ranked.format(t='annotations_fts')}) AS r2 FROM {c.annotated_match} m)",
            [c.fts, c.rank_fts, c.rank_fts])


def _statement(c: Compiled, sort: str | None, descending: bool,
               alive: str, plan: _Plan) -> tuple[str, list]:
    if (sort or ("relevance" if c.fts else None)) == "relevance" and c.fts:
        direction = _direction(descending)
        if c.fts_required:
            # The index matches and ranks; the other conditions filter.
            found, params = hits(c, plan.newest, plan.many)
            order = f"ORDER BY h.t {direction}, h.r {direction}, h.id {direction}"
            if c.rest == "1":  # words only: no paper row is read
                return (f"SELECT h.id FROM ({found}) h WHERE {alive.replace('p.id', 'h.id')}1 "
                        f"{order}", params)
            return (f"SELECT p.id FROM ({found}) h JOIN papers p ON p.id = h.id "
                    f"WHERE {alive}({c.rest}) {order}", [*params, *c.rest_params])
        rank = "coalesce(f.rank, 0) + coalesce(g.rank, 0)"
        return (f"SELECT p.id FROM papers p LEFT JOIN (SELECT rowid, rank FROM papers_fts "
                f"WHERE papers_fts MATCH ? AND rank MATCH '{RANK}') f ON f.rowid = p.id "
                f"LEFT JOIN (SELECT rowid, rank FROM annotations_fts "
                f"WHERE annotations_fts MATCH ? AND rank MATCH '{RANK}') g ON g.rowid = p.id "
                f"WHERE {alive}({c.where}) ORDER BY f.rank IS NULL AND g.rank IS NULL, "
                f"g.rank IS NULL {direction}, {rank} {direction}, p.id {direction}",
                [c.fts, c.fts, *c.params])
    order, order_params = order_clause(sort, descending, c.fts)
    return (f"SELECT p.id FROM papers p WHERE {alive}({c.where}) ORDER BY {order}",
            [*c.params, *order_params])


def search(db: Database, query: str, *, sort: str | None = None, descending: bool = False,
           limit: int | None = None, offset: int = 0, include_deleted: bool = False,
           first_page: bool = False) -> SearchResult:
    """``first_page``: a page for the window to show at once (the full list follows).
    A word query by relevance with more than ``FIRST_PAGE_RANKS`` matches then ranks
    the newest of them only, instead of every match (bm25 of 300,000 rows is most of a
    second); ``SearchResult.partial`` says so."""
    if sort is not None and sort not in SORTS:
        raise QueryError(f"cannot sort by {sort!r}; choose from {', '.join(SORTS)}")
    compiled = compile_query(query)
    alive = "" if include_deleted else ALIVE
    plan = _Plan()
    if compiled.fts_required and (sort or "relevance") == "relevance":
        newest = None
        if first_page and limit is not None:
            newest = _newest_ranked(db, compiled)
        plan = _Plan(newest, _annotated(db, compiled) > query_fts.FEW)
    result = _run(db, query, compiled, sort, descending, alive, limit, offset, plan)
    result.partial = plan.newest is not None
    return result


# At most this many matches are ranked for a first page: bm25 costs 3-12 us a row here
# (quiet to loaded), and a common word at a million papers has 300,000 matches. Among
# the newest 2,000 matches of a common word a few hundred hold it in their titles, and
# those rank first, so the page shows good matches until the full order arrives.
FIRST_PAGE_RANKS = 2_000


def _annotated(db: Database, c: Compiled) -> int:
    """How many papers' notes and tags hold a word of the query (a small table)."""
    try:
        return db.execute("SELECT count(*) FROM annotations_fts WHERE annotations_fts MATCH ?",
                          [c.annotated_words]).fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # _run says what is wrong with the query


def _newest_ranked(db: Database, c: Compiled) -> int | None:
    """The lowest id of the newest ``FIRST_PAGE_RANKS`` matches of the text rows, or
    None when there are no more than that (counting stops there)."""
    try:
        row = db.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? "
                         "ORDER BY rowid DESC LIMIT 1 OFFSET ?",
                         [c.fts, FIRST_PAGE_RANKS]).fetchone()
    except sqlite3.OperationalError:
        return None  # _run says what is wrong with the query
    return None if row is None else row[0] + 1


def _run(db: Database, query: str, compiled: Compiled, sort: str | None, descending: bool,
         alive: str, limit: int | None, offset: int, plan: _Plan) -> SearchResult:
    sql, params = _sql(compiled, sort, descending, alive, plan)
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    try:
        return SearchResult([r[0] for r in db.execute(sql, params)])
    except sqlite3.OperationalError as exc:
        # The compiler quotes every word and keeps within SQLite's limits; this is a net.
        if "fts5" in str(exc) or any(limit in str(exc) for limit in _LIMITS):
            raise QueryError(f"cannot search for {_shown(query)!r}: the query is too "
                             f"complex for SQLite ({exc})") from None
        if DUPLICATE_TABLE not in str(exc):
            raise
    # The duplicate finder has not made its table in this library: no candidates.
    compiled = compile_query(query, tables=frozenset())
    sql, params = _sql(compiled, sort, descending, alive, plan)
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    return SearchResult([r[0] for r in db.execute(sql, params)])


def searched(lib: Kernel, query: str = "", **how: Any) -> SearchResult:
    """``search`` on an open library (``how``: its keywords), SQLite's errors as one
    line naming the library file: what every area and ``Library.search`` call."""
    try:
        return search(lib.db, query, **how)
    except sqlite3.Error as exc:
        raise store.translate(exc, lib.path) from None
