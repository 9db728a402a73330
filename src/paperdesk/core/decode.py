"""Turning the bytes of a text file into text, or refusing a file that is not text."""

from __future__ import annotations

import codecs

from paperdesk.core.errors import DigestError

_BOMS = [
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
# Tried in order when a file is not UTF-8. cp1252 is what most Windows tools
# write; latin-1 accepts any byte, so it is the last resort.
_FALLBACKS = ["cp1252", "latin-1"]


def _control_share(text: str) -> float:
    bad = sum(1 for c in text[:20000] if ord(c) < 32 and c not in "\r\n\t\f")
    return bad / max(1, min(len(text), 20000))


def decode_text(data: bytes, name: str) -> tuple[str, str, list[str]]:
    """Return (text with \\n line ends, encoding used, warnings)."""
    if not data.strip():
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
        if b"\x00" in data[:8192]:
            raise DigestError(f"{name}: a binary file, not a text digest")
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError as exc:
            for encoding in _FALLBACKS:
                try:
                    text = data.decode(encoding)
                    break
                except UnicodeDecodeError:
                    continue
            warnings.append(f"not UTF-8 (first bad byte at offset {exc.start}); read as {encoding}")
    if "\x00" in text[:8192] or _control_share(text) > 0.01:  # with a BOM or without
        raise DigestError(f"{name}: a binary file, not a text digest")
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    return text, encoding, warnings
