"""Fonts a game pack declares: game.yaml ``fonts:`` -> :class:`~cardforge.model.PackFont`.

A pack whose cards or rules are in a script the shipped DejaVu fonts lack (Chinese,
Japanese, Korean...) declares a TrueType font of its own::

    fonts:
      cjk:                                   # layouts write `font: cjk`
        regular: fonts/NotoSansSC-Regular.ttf
        bold: fonts/NotoSansSC-Bold.ttf      # optional: bold, italic, bold_italic
        rules: true                          # optional: the rules documents print in it

Each file must lie inside the pack folder (symlinks followed; so the build cache, which
hashes every file of the pack, sees it), be a regular file of at most
:data:`MAX_FONT_BYTES`, and be a TrueType font ReportLab can embed. Every problem is a
located diagnostic on the line of the declaration: ``path-outside-pack``, ``pack-missing``,
``file-special``, ``file-too-large``, or ``font-invalid`` (not a font; PostScript/CFF
outlines, which ReportLab cannot embed; a collection; a web font; a font whose licence
forbids embedding; a name that clashes with a shipped font; two rules fonts).
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

from cardforge.util.diagnostics import FONT_INVALID, PACK_MISSING, PATH_OUTSIDE_PACK, Diagnostic, diag
from cardforge.model import FACES, PackFont, Source
from cardforge.util.paths import InputFileError, read_limited, resolve_inside

MAX_FONT_BYTES = 64 * 1024 * 1024  # a complete CJK TrueType font is 10-20 MB
_FALLBACK = {"bold": "regular", "italic": "regular", "bold_italic": "bold"}
_CFF_HINT = ("use the TrueType version (.ttf, glyf outlines), such as the static Noto Sans SC/JP/KR "
             "files from Google Fonts, or convert it (fontTools: otf2ttf)")


def font_keys(game) -> dict[str, str]:
    """The font names a layout of ``game`` may use (shipped, and the pack's own) and their
    font keys (:mod:`cardforge.render.fonts`)."""
    from cardforge.model.typefaces import FONTS

    return {**{name: name for name in FONTS}, **{name: font.key for name, font in game.fonts.items()}}


def pack_fonts(data: dict, pack: Path, source: Source) -> tuple[dict[str, PackFont], list[Diagnostic]]:
    """The fonts declared in game.yaml ``data`` of the pack in folder ``pack``, by name, and
    the diagnostics of the declarations that cannot be used (those fonts are left out)."""
    from cardforge.model.typefaces import FAMILIES, FONTS

    fonts, problems = {}, []
    rules_font = None
    for name, spec in (data.get("fonts") or {}).items():
        where = dict(file=source.file, line=source.line("fonts", name), column=source.column("fonts", name))
        if name in FONTS or name in FAMILIES:
            problems.append(diag(FONT_INVALID, f"font {name!r} has the name of a font cardforge ships; "
                                 "give the pack's font a name of its own", hint="for example `cjk` or `title`",
                                 **where))
            continue
        files, found = {}, []
        for which in FACES:
            if which in spec:
                file, problem = _font_file(pack, name, which, spec[which], source)
                if problem:
                    found.append(problem)
                files[which] = file
        if found:
            problems += found
            continue
        for which in FACES[1:]:
            files.setdefault(which, files[_FALLBACK[which]])
        digest = hashlib.sha256(name.encode())
        for which in FACES:
            digest.update(b"\0" + files[which][1])
        if spec.get("rules") and rules_font is not None:
            problems.append(diag(FONT_INVALID, f"fonts {rules_font!r} and {name!r} both say `rules: true`; the "
                                 "rules documents print in one font", file=source.file,
                                 line=source.line("fonts", name, "rules"), column=source.column("fonts", name, "rules")))
            continue
        if spec.get("rules"):
            rules_font = name
        fonts[name] = PackFont(name, tuple(files[which][0] for which in FACES), digest.hexdigest(),
                               rules=bool(spec.get("rules")))
    return fonts, problems


def _font_file(pack: Path, name: str, which: str, value: object, source: Source
               ) -> tuple[tuple[Path, bytes] | None, Diagnostic | None]:
    """(real path, bytes) of one face's file, or the diagnostic of why it cannot be used."""
    from cardforge.cache.files import ignored as _ignored

    where = dict(file=source.file, line=source.line("fonts", name, which), column=source.column("fonts", name, which))
    what = f"font {name!r} {which.replace('_', ' ')} file"
    found = resolve_inside(pack, value, roots=(pack,), must_exist=True, what=what, **where)
    if isinstance(found, Diagnostic):
        if found.code == PATH_OUTSIDE_PACK:
            found = diag(found.code, found.message.replace("outside the pack and project", "outside the pack"),
                         hint="copy the font file into the pack folder (a fonts/ folder, say)", **where)
        return None, found
    if any(_ignored(part) for part in Path(str(value)).parts if part not in (".", "..")):
        return None, diag(FONT_INVALID, f"{what} {value!r} is a hidden or backup file, which builds do not track",
                          hint="name the file without a leading dot or trailing ~", **where)
    try:
        data = read_limited(found, MAX_FONT_BYTES, display=str(value))
    except InputFileError as exc:
        return None, exc.diagnostic.at(source.file, where["line"], where["column"])
    except OSError as exc:
        return None, diag(PACK_MISSING, f"cannot read {what} {value!r}: {exc.strerror}", **where)
    problem = _not_embeddable(data)
    if problem:
        message, hint = problem
        return None, diag(FONT_INVALID, f"{what} {value!r} {message}", hint=hint, **where)
    return (found, data), None


def _not_embeddable(data: bytes) -> tuple[str, str] | None:
    """Why ReportLab cannot embed the font file ``data`` (message, hint), or None."""
    magic = data[:4]
    if magic == b"OTTO":
        return ("has PostScript (CFF) outlines, which cardforge's PDF library (ReportLab) cannot embed",
                _CFF_HINT)
    if magic == b"ttcf":
        return ("is a font collection (.ttc); name a single TrueType font (.ttf)",
                "extract the font you want as a .ttf (fontTools: ttx or a font editor); " + _CFF_HINT)
    if magic in (b"wOFF", b"wOF2"):
        return "is a web font (WOFF); name the TrueType font (.ttf) it was made from", _CFF_HINT
    if magic not in (b"\x00\x01\x00\x00", b"true"):
        return "is not a TrueType font", "name a .ttf file"
    from reportlab.pdfbase.ttfonts import TTFontFile, TTFError

    try:
        TTFontFile(io.BytesIO(data), validate=0)
    except TTFError as exc:
        reason = str(exc).replace('"(ttf)"', "").replace("  ", " ")
        if "embed" in reason.lower():
            return (f"cannot be embedded in a PDF: its licence forbids it ({reason})",
                    "use another TrueType font, one whose licence allows embedding (the OFL fonts do)")
        return f"is a damaged TrueType font ({reason})", "download or export the font again"
    except Exception as exc:  # a damaged file: ReportLab's parser raises struct and index errors
        return f"is a damaged TrueType font ({type(exc).__name__})", "download or export the font again"
    return None
