"""Running a query: ids of matching papers, sorted in SQL."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from paperdesk.core.errors import QueryError
from paperdesk.core.query import compile_query

# Sort keys the CLI and the table accept, and the SQL behind each.
SORTS = {
    "id": "p.id",
    "title": "p.title_key",
    "year": "p.published",
    "published": "p.published",
    "upvotes": "p.upvotes",
    "rating": "p.rating",
    "status": ("CASE p.status WHEN 'unread' THEN 0 WHEN 'to-read' THEN 1 "
               "WHEN 'reading' THEN 2 ELSE 3 END"),
    "added": "p.added",
    "modified": "p.modified",
    "digests": "p.seen_count",
    "citekey": "p.citekey",
    "relevance": None,
}


@dataclass
class SearchResult:
    ids: list[int]


def order_clause(sort: str | None, descending: bool, fts: str | None) -> tuple[str, list]:
    if sort is None:
        sort = "relevance" if fts else "added"
    if sort not in SORTS:
        raise QueryError(f"cannot sort by {sort!r}; choose from {', '.join(SORTS)}")
    direction = "DESC" if descending else "ASC"
    if sort == "relevance":
        if not fts:
            return f"p.id {direction}", []
        # bm25: lower is better, so ascending means most relevant first.
        return ("(SELECT bm25(papers_fts) FROM papers_fts WHERE papers_fts MATCH ? "
                f"AND rowid = p.id) {direction}, p.id", [fts])
    # Papers without a value (no date, no upvotes) sort last either way.
    return f"{SORTS[sort]} {direction} NULLS LAST, p.id {direction}", []


def search(db: Database, query: str, *, sort: str | None = None, descending: bool = False,
           limit: int | None = None, offset: int = 0,
           include_deleted: bool = False) -> SearchResult:
    compiled = compile_query(query)
    order, order_params = order_clause(sort, descending, compiled.fts)
    alive = "" if include_deleted else "p.deleted_at IS NULL AND "
    sql = f"SELECT p.id FROM papers p WHERE {alive}({compiled.where}) ORDER BY {order}"
    params = [*compiled.params, *order_params]
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    return SearchResult([r[0] for r in db.execute(sql, params)])
