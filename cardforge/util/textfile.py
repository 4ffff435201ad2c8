"""Text files that are not UTF-8: where the first bad byte is, and what the file looks like.

Every text file a pack holds (game.yaml, card files, errata.yaml, layouts, rules sources,
spreadsheets, icons) must be UTF-8. One that is not is reported at the line and column of
its first byte that does not decode, with the encoding the file looks like, so the fix
("save it as UTF-8") can be made in the editor that wrote it.
"""
from __future__ import annotations

from cardforge.util.diagnostics import Diagnostic, diag

# magic numbers of files that are not text at all
_BINARY = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"%PDF", "a PDF document"),
           (b"PK\x03\x04", "a zip archive (an .xlsx or .docx?)"), (b"GIF8", "a GIF image"),
           (b"\xd0\xcf\x11\xe0", "an old Office document (.xls or .doc)"))


def looks_like(raw: bytes) -> str:
    """The encoding (or kind of file) ``raw`` most likely is, in words: "UTF-16",
    "Windows-1252 (Latin-1)", "a PNG image"... Never raises."""
    for magic, what in _BINARY:
        if raw.startswith(magic):
            return what
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 (it starts with a UTF-16 byte order mark)"
    head = raw[:4096]
    if head and head.count(b"\x00") * 4 >= len(head):
        return "UTF-16 (every other byte is zero)"
    if b"\x00" in head:
        return "binary data, not text"
    try:
        head.decode("cp1252")
        return "Windows-1252 (Latin-1), as older Windows and Excel save text"
    except UnicodeDecodeError:
        pass
    for codec, name in (("shift_jis", "Shift JIS"), ("gb18030", "GB 18030"), ("mac_roman", "Mac Roman")):
        try:
            head.decode(codec)
            return name
        except UnicodeDecodeError:
            continue
    return "an 8-bit encoding other than UTF-8"


def position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, column) of byte ``offset`` of ``raw``; the column counts characters
    (what comes before the bad byte on its line is valid UTF-8)."""
    start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[start:offset].decode("utf-8", "replace")) + 1


def undecodable(raw: bytes, exc: UnicodeDecodeError, code: str, name: str, hint: str = "save the file as UTF-8") -> Diagnostic:
    """The ``code`` diagnostic of file ``name`` whose bytes ``raw`` failed to decode with
    ``exc``: at the first bad byte's line and column, saying what the file looks like."""
    line, column = position(raw, exc.start)
    return diag(code, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read (the file looks like "
                f"{looks_like(raw)})", file=name, line=line, column=column, hint=hint)
