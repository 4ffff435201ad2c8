"""Platypus: a table's measured rows, a contents' entries, a paragraph's parse and its
broken lines (see :mod:`cardforge.render.backend`)."""
from __future__ import annotations

import itertools
from collections.abc import Callable

from cardforge.cache.registry import LINE_BREAKS, ONCE, PARAGRAPHS

# -- tables and contents --------------------------------------------------------------------


def table_row_heights(table) -> list[float]:
    """The height (pt) of each row of a platypus ``Table`` as its last ``wrap`` laid it out
    (header rows included). Raises ``AttributeError`` before the table is wrapped."""
    return list(table._rowHeights)


def contents_entries(toc) -> list[tuple]:
    """The entries ``(level, text, page, key)`` a ``TableOfContents`` printed in the pass
    just built (those ``addEntries`` would give the next pass)."""
    return [tuple(entry) for entry in toc._lastEntries]


def kept_together(flowable) -> list:
    """The flowables a platypus ``KeepTogether`` holds, in order; [] for any other flowable."""
    from reportlab.platypus import KeepTogether

    return list(flowable._content) if isinstance(flowable, KeepTogether) else []


_PARSED = PARAGRAPHS.mapping()  # (markup, style key, bullet, case) -> (text, frags, bullet frags)
_STYLES = PARAGRAPHS.mapping()  # id(style) -> (style, its settings as read, its style_key)
_TOKENS = PARAGRAPHS.mapping()  # a style's settings (sorted (name, repr) pairs) -> its style_key
_NEXT_TOKEN = itertools.count(1)  # never reset: a token once given is never given to other settings


def parse_paragraph(text: str, style, bullet: str | None, case_sensitive: int = 1,
                    reusable: Callable[[list], bool] = lambda pictures: True,
                    reader_of: Callable[[str], object | None] = lambda src: None) -> tuple[str, list, object]:
    """``(text cleaned, fragments, bullet)`` for ``Paragraph(text, style, bullet, frags=...)``:
    ReportLab's parse of ``text``, once a process for each markup, :func:`style_key` and bullet
    while ``reusable(pictures)`` holds (pictures are read when parsed: an ``<img>`` whose
    ``src`` has a reader ``reader_of(src)``, an ``ImageReader``, shares that reader's
    decoded picture rather than opening the file again, unless the paragraphs memo is turned
    off); fresh copies of the fragments each call. Raises ``ValueError`` for markup ReportLab cannot parse."""
    from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags

    key = (text, style_key(style), bullet, case_sensitive)
    parsed = _PARSED.get(key)
    if parsed is None or not reusable(_pictures(parsed[1])):
        cleaned = cleanBlockQuotedText(text)
        parser = _parser_class()(reader_of if _PARSED.limit else lambda src: None)
        parser.caseSensitive = case_sensitive
        _, frags, bullet_frags = parser.parse(cleaned, style)
        if frags is None:
            raise ValueError(f"xml parser error ({parser.errors[0]}) in paragraph beginning\n'{text[:30]}'")
        textTransformFrags(frags, style)
        parsed = (cleaned, frags, bullet_frags or bullet)
        if not reusable(_pictures(frags)):
            return parsed
        _PARSED[key] = parsed
    cleaned, frags, bullet = parsed
    return cleaned, [_copy(f) for f in frags], [_copy(f) for f in bullet] if isinstance(bullet, list) else bullet


@ONCE.function
def _parser_class():
    """ReportLab's ``ParaParser``, its ``<img>`` tag reading the picture from a shared
    ``ImageReader`` where ``reader_of(src)`` gives one (ReportLab opens and reads the file
    for every tag it parses); the tag's fragment is as ReportLab makes it."""
    from reportlab.lib.abag import ABag
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus.paraparser import ParaParser

    class Parser(ParaParser):
        def __init__(self, reader_of: Callable[[str], object | None]):
            super().__init__()
            self._cardforge_reader_of = reader_of

        def end_img(self):
            frag = self._stack[-1]
            src = getattr(frag, "src", None)
            shared = self._cardforge_reader_of(src) if isinstance(src, str) else None
            if shared is None or not getattr(frag, "_selfClosingTag", ""):
                return super().end_img()
            defn = frag.cbDefn = ABag()  # as ParaParser.end_img, the reader a copy of the shared one
            defn.kind, defn.src, defn.image = "img", src, ImageReader(shared)
            size = defn.image.getSize()
            defn.width = getattr(frag, "width", size[0])
            defn.height = getattr(frag, "height", size[1])
            defn.valign = getattr(frag, "valign", "bottom")
            del frag._selfClosingTag
            self.handle_data("")
            self._pop("img")

    return Parser


_BROKEN = LINE_BREAKS.mapping()  # (parse key, widths) -> (lines, what breaking them sets on the paragraph)
_BREAK_STATE = ("_width_max", "_splitLongWordCount", "_hyphenations")


def break_lines(paragraph, widths: list[float], key: tuple, fresh: Callable[[list[float]], object]):
    """``paragraph``'s lines broken at ``widths`` (pt: the first line's, the others'), as
    ``fresh(widths)`` (ReportLab's ``breakLines``) breaks them: once a process for each
    ``key`` (what the paragraph was parsed from, see :func:`parse_paragraph`) and widths,
    the lines then shared by every paragraph of that key (see :func:`own_lines`). A
    paragraph given shared lines keeps its parsed fragments (ReportLab's own break swaps them
    for its word list; both read alike wherever ReportLab reads fragments)."""
    kept = _BROKEN.get((key, tuple(widths)))
    if kept is None:
        kept = _BROKEN[(key, tuple(widths))] = (fresh(widths), tuple(getattr(paragraph, n) for n in _BREAK_STATE))
    else:
        for name, value in zip(_BREAK_STATE, kept[1]):
            setattr(paragraph, name, value)
        paragraph.height = 0
    paragraph._cardforge_shared = kept[0]
    return kept[0]


def own_lines(paragraph, fresh: Callable[[list[float]], object]) -> None:
    """Break ``paragraph``'s lines again, at its last widths, when it shares them (see
    :func:`break_lines`): ReportLab's ``split`` changes the words of the lines it cuts."""
    lines = paragraph.__dict__.get("blPara")
    if lines is not None and lines is getattr(paragraph, "_cardforge_shared", None):
        paragraph.blPara = fresh(paragraph._wrapWidths)


def _copy(frag):
    picture = getattr(frag, "cbDefn", None)
    return frag.clone(cbDefn=picture.clone()) if picture is not None and hasattr(picture, "clone") else frag.clone()


def style_key(style) -> int | tuple:
    """A ``ParagraphStyle``'s settings as a small token (anew when changed in place): an int
    the same for every style of the same settings while the process keeps them, never given
    to other settings, so that the keys made of it (a paragraph's parse, its broken lines)
    hash in constant time, not over the style's forty-odd settings at every lookup. With
    the paragraphs memo turned off, the settings themselves (a sorted tuple)."""
    kept = _STYLES.get(id(style))
    if kept is None or kept[0] is not style or kept[1] != style.__dict__:
        settings = dict(style.__dict__)
        described = tuple(sorted((k, repr(v)) for k, v in settings.items()))
        token = _TOKENS.get(described)
        if token is None:
            token = next(_NEXT_TOKEN) if _TOKENS.limit else described
            _TOKENS[described] = token
        kept = _STYLES[id(style)] = (style, settings, token)
    return kept[2]


def paragraph_images(paragraph) -> list:
    """The pictures of a ``Paragraph``'s ``<img>`` tags, in order: objects whose ``src``
    is the tag's source and whose ``image`` is the ``ImageReader`` that will draw it
    (replace it to draw from another reader)."""
    return _pictures(paragraph.frags)


def _pictures(frags: list) -> list:
    return [frag.cbDefn for frag in frags if getattr(getattr(frag, "cbDefn", None), "kind", None) == "img"]
