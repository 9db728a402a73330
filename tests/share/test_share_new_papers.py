"""What a computer writes into the shared document for papers new to it: only the
registers that read otherwise unwritten (``document._push_registers``)."""

from __future__ import annotations


def _new_paper(**values) -> dict:
    from paperdesk.core.share import fields as f

    paper = {c: None for c in f.COLUMNS} | {c: v for c, v in f.DEFAULTS.items()}
    return paper | {"title": "A paper", "added": "2026-12-01T08:00:00+00:00",
                    f.TAGS: {}, f.NOTES: {}} | values


def test_a_paper_new_to_the_document_writes_only_what_reads_otherwise_unwritten():
    """A register a new paper would write as None or its column's default reads the same
    unwritten: it is left out (half a typical paper's), the paper reads back whole, and
    a paper made at once on two computers keeps the values either one gave."""
    import loro

    from paperdesk.core.share import document
    from paperdesk.core.share import fields as f
    from paperdesk.core.share.library_state import State

    here = _new_paper(doi="10.1000/x", rating=0, status="unread")
    doc = loro.LoroDoc()
    document.push(doc, State(), State(papers={"u1": here}))
    assert doc.get_map(f.PAPER + "u1").get_value() == {
        "title": "A paper", "added": "2026-12-01T08:00:00+00:00", "doi": "10.1000/x"}
    assert document.state(doc).papers == {"u1": here}
    there = _new_paper(url="https://example.org/p", rating=4)
    other = loro.LoroDoc()
    document.push(other, State(), State(papers={"u1": there}))
    doc.import_(other.export(loro.ExportMode.Snapshot()))
    other.import_(doc.export(loro.ExportMode.Snapshot()))
    for d in (doc, other):
        got = document.state(d).papers["u1"]
        assert (got["doi"], got["url"], got["rating"]) == (
            "10.1000/x", "https://example.org/p", 4)
    # a map written before (the paper made again after its trash was emptied) is
    # written whole: an old value must not outlive the paper's new row
    again = loro.LoroDoc()
    document.push(again, State(), State(papers={"u1": here}))
    again.get_map(f.PAPER + "u1").insert("url", "https://old.example.org")
    again.commit()
    document.push(again, State(), State(papers={"u1": here}))
    assert document.state(again).papers["u1"]["url"] is None
