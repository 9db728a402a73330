"""Turning the bytes of a text file into text, or refusing a file that is not text."""

from __future__ import annotations

import codecs

from paperdesk.core.model.errors import DigestError

_BOMS = [
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
# Tried in order when a file is not UTF-8. cp1252 is what most Windows tools
# write; latin-1 accepts any byte, so it is the last resort.
_FALLBACKS = ["cp1252", "latin-1"]


def utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when ``data`` looks like UTF-16 text that lacks a
    byte-order mark: text in Latin script has a zero in every other byte, on one side."""
    sample = data[:8192]
    half = len(sample) // 2
    if half < 4:
        return None
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd >= 0.3 * half and even <= 0.02 * half:
        return "utf-16-le"
    if even >= 0.3 * half and odd <= 0.02 * half:
        return "utf-16-be"
    return None


def sniff_text(data: bytes, limit: int | None = None) -> str:
    """The start of the file (``limit`` bytes, or all) as text, for recognising its kind:
    byte-order marks and UTF-16 without one are honoured, bad bytes replaced."""
    head = data if limit is None else data[:limit]
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            return head[len(bom):].decode(encoding, errors="replace")
    return head.decode(utf16_without_bom(head) or "utf-8", errors="replace")


def _control_share(text: str) -> float:
    bad = sum(1 for c in text[:20000] if ord(c) < 32 and c not in "\r\n\t\f")
    return bad / max(1, min(len(text), 20000))


def decode_text(data: bytes, name: str, *, stray_cr: str = "\n") -> tuple[str, str, list[str]]:
    """Return (text with \\n line ends, encoding used, warnings). A CR is a line end
    (``line_ends``); ``stray_cr`` is what a CR inside a line becomes."""
    if not data or data.isspace():  # as ``not data.strip()``, without copying the file
        raise DigestError(f"{name}: the file is empty")
    warnings: list[str] = []
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise DigestError(f"{name}: not valid {encoding} text "
                                  f"(byte {exc.start})") from None
            break
    else:
        utf16 = utf16_without_bom(data) if b"\x00" in data[:8192] else None
        if utf16 is not None:
            if len(data) % 2:
                warnings.append("the file ends in half a character; its last byte was left out")
            try:
                text, encoding = data[:len(data) - len(data) % 2].decode(utf16), utf16
            except UnicodeDecodeError:
                raise DigestError(f"{name}: a binary file, not a text digest") from None
            warnings.append(f"{utf16} text without a byte-order mark; read as {utf16}")
        elif b"\x00" in data[:8192]:
            raise DigestError(f"{name}: a binary file, not a text digest")
        else:
            text, encoding = _eight_bit(data, warnings)
    if "\x00" in text[:8192] or _control_share(text) > 0.01:  # with a BOM or without
        raise DigestError(f"{name}: a binary file, not a text digest")
    if "\r" in text:  # one fast scan; most files have none
        text = line_ends(text, stray_cr)
    text = text.lstrip("\ufeff")
    return text, encoding, warnings


def line_ends(text: str, stray_cr: str = "\n") -> str:
    """``text`` with \\n line ends: CRLF is one, and so is a CR alone in a file whose
    lines end in CR (the old Mac way: lone CRs outnumber newlines). In a file whose lines
    end in \\n or CRLF, a CR alone is no line end but a stray control inside a line:
    it becomes ``stray_cr``. Only CR, LF and CRLF end lines, never the other characters
    ``str.splitlines`` breaks at (form feed, vertical tab, FS, GS, RS, NEL, U+2028/9)."""
    text = text.replace("\r\n", "\n")
    if stray_cr == "\n" or text.count("\r") > text.count("\n"):
        return text.replace("\r", "\n")
    return text.replace("\r", stray_cr)


BAD_BYTES_SHOWN = 10  # bad bytes reported one by one; the rest counted


def _utf8_replacing(data: bytes) -> tuple[str, list[tuple[int, int]], int] | None:
    """UTF-8 text with each bad byte sequence replaced by U+FFFD, the (offset, line) of
    each, and how many bytes of valid multi-byte characters there were beyond one per
    character; None when bad sequences outnumber those (mostly not UTF-8). Linear: each
    stretch between two bad bytes is decoded once."""
    view = memoryview(data)
    parts: list[str] = []
    bad: list[tuple[int, int]] = []
    extra = pos = 0
    line, counted = 1, 0
    while True:
        try:
            text, used = codecs.utf_8_decode(view[pos:], "strict", True)
        except UnicodeDecodeError as exc:
            text, used = codecs.utf_8_decode(view[pos:pos + exc.start], "strict", True)
            line += data.count(b"\n", counted, pos + exc.start)
            counted = pos + exc.start
            bad.append((pos + exc.start, line))
            parts += (text, "\ufffd")
            extra += used - len(text)
            pos += exc.end
            if len(bad) > 64 and len(bad) > extra:
                return None
            continue
        parts.append(text)
        extra += used - len(text)
        return ("".join(parts), bad, extra) if len(bad) <= extra else None


def _eight_bit(data: bytes, warnings: list[str]) -> tuple[str, str]:
    """UTF-8; UTF-8 with its few bad bytes replaced (each reported with its line); else
    the first fallback that reads the bytes (with a warning)."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first = exc.start
    if (mostly := _utf8_replacing(data)) is not None:
        text, bad, _ = mostly
        for offset, line in bad[:BAD_BYTES_SHOWN]:
            warnings.append(f"line {line}: byte 0x{data[offset]:02x} at offset {offset} is "
                            "not UTF-8; replaced by U+FFFD")
        if len(bad) > BAD_BYTES_SHOWN:
            warnings.append(f"{len(bad) - BAD_BYTES_SHOWN} more bytes that are not UTF-8 "
                            "replaced by U+FFFD")
        return text, "utf-8"
    for encoding in _FALLBACKS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        warnings.append(f"not UTF-8 (first bad byte at offset {first}); read as {encoding}")
        return text, encoding
    raise AssertionError("latin-1 reads any byte")  # pragma: no cover
