"""CMYK print PDFs in PDF/X-1a:2003 form, for print shops that ask for them (DriveThruCards).

:func:`to_pdfx` takes a PDF whose pages are card faces with their TrimBox and BleedBox
(see :func:`cardforge.export.faces.face_pdf`) or imposed sheets, and rewrites it in
DeviceCMYK as drawn (:func:`vector_pdfx`): every ``rg``/``RG``/``g``/``G`` colour becomes
``k``/``K``, each distinct colour converted once from sRGB through a real ICC profile with
littleCMS (Pillow's ImageCms, relative colorimetric intent with black point compensation)
and its total ink (sum of C, M, Y and K) capped at the shop's limit; text keeps its
embedded fonts and icons their paths; raster images become DeviceCMYK pixels through the
same profile. Pages with the same content share one content stream, and page boxes are
rounded to 1/1000 pt, so a 2.75 in page is 198 pt, not 198.00000000000003. A PDF that
PDF/X-1a cannot hold as drawn (transparency, shadings, other colour spaces, fonts not
embedded: :class:`NotVector`) is instead rendered page by page with PDFium at ``dpi``
into DeviceCMYK images, each page exactly its image at ``dpi`` and identical images stored
once (:func:`raster_pdfx`). The catalog gets the PDF/X output intent (``GTS_PDFX``, the ICC
profile embedded as ``DestOutputProfile``) and the document information the
``GTS_PDFXVersion``, ``GTS_PDFXConformance`` and ``Trapped`` keys.

The profile is ``icc/cardforge-fogra39-240.icc``: built by ArgyllCMS's ``colprof`` from
Fogra's FOGRA39L characterization data (coated paper, ISO 12647-2), as shipped under the
Zlib licence by Debian's icc-profiles-free, with a total ink limit of 240 % and black limit
of 98 % (``tools/make_cmyk_profile.sh``; licence in ``icc/LICENSE.md``).

What this does not do (a commercial preflight such as Acrobat's or PitStop's would still
check it): black text is the profile's rich black rather than K only, spot colours and
overprint are not used, the profile is a FOGRA39-like condition rather than the shop's own press
profile, and the PDF/X conformance is by construction, not verified by a certified checker.
"""
from __future__ import annotations

import io
import zlib
from importlib import resources
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
from PIL import Image, ImageCms

from cardforge.cache.registry import ONCE

PROFILE = "export/icc/cardforge-fogra39-240.icc"
CONDITION = "FOGRA39"  # the characterization the profile is built from
RICH_BLACK = (60, 40, 40, 100)  # % C, M, Y, K: DriveThruCards' rich black, 240 % in all


def profile_bytes() -> bytes:
    """The CMYK output profile shipped with cardforge."""
    return resources.files("cardforge").joinpath(PROFILE).read_bytes()


@ONCE.function
def _transform() -> ImageCms.ImageCmsTransform:
    srgb = ImageCms.createProfile("sRGB")
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes()))
    return ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def to_cmyk(image: Image.Image, ink_limit: int = 240) -> Image.Image:
    """``image`` (RGB, taken as sRGB) in CMYK through the shipped profile, total ink at most
    ``ink_limit`` % in every pixel; near-black pixels become the rich black ``RICH_BLACK``
    scaled to the limit."""
    cmyk = ImageCms.applyTransform(image.convert("RGB"), _transform())
    return cap_ink(cmyk, ink_limit)


def cap_ink(cmyk: Image.Image, ink_limit: int) -> Image.Image:
    """Scale C, M and Y down (K kept) wherever C + M + Y + K exceeds ``ink_limit`` %."""
    import numpy as np

    a = np.asarray(cmyk, dtype=np.float64)
    limit = ink_limit / 100 * 255
    total = a.sum(axis=2)
    over = total > limit
    if over.any():
        k = a[..., 3]
        cmy = a[..., :3].sum(axis=2)
        room = np.clip(limit - k, 0, None)
        scale = np.where(over & (cmy > 0), room / np.maximum(cmy, 1e-9), 1.0)
        a[..., :3] *= scale[..., None]
        a[..., :3] = np.floor(a[..., :3])  # rounding down keeps the sum under the limit
    return Image.fromarray(a.astype("uint8"), "CMYK")


def ink(pixel: tuple[int, int, int, int]) -> float:
    """Total ink of a CMYK pixel (0-255 a channel), in %."""
    return sum(pixel) / 255 * 100


class NotVector(Exception):
    """The PDF draws something the vector conversion does not carry into PDF/X-1a as it is
    (transparency, a shading or pattern, a colour space other than DeviceRGB, DeviceGray or
    DeviceCMYK, an inline image, an image with a soft mask, a font not embedded)."""


class Colours:
    """sRGB colours converted to CMYK through the shipped profile, each colour once (a
    1 x 1 image through :func:`to_cmyk`, then kept), as the four operands (0-1, four
    decimals) a ``k``/``K`` operator takes."""

    def __init__(self, ink_limit: int):
        self.ink_limit = ink_limit
        self.known: dict[tuple[int, int, int], tuple[float, ...]] = {}

    def rgb(self, r: float, g: float, b: float) -> tuple[float, ...]:
        key = tuple(max(0, min(255, round(float(v) * 255))) for v in (r, g, b))
        if key not in self.known:
            pixel = to_cmyk(Image.new("RGB", (1, 1), key), self.ink_limit).getpixel((0, 0))
            self.known[key] = tuple(round(v / 255, 4) for v in pixel)
        return self.known[key]

    def gray(self, v: float) -> tuple[float, ...]:
        return self.rgb(v, v, v)


_SPACES = {"/DeviceRGB": 3, "/DeviceGray": 1, "/DeviceCMYK": 4}


def _vector_stream(operations: list, resources, colours: Colours, done: set) -> list:
    """``operations`` (pikepdf's parsed content stream) with every colour in DeviceCMYK;
    form and image XObjects the stream draws are converted in place (once each)."""
    out = []
    space = {"fill": 1, "stroke": 1}  # components of the current colour spaces (initially DeviceGray)
    for operands, op in operations:
        name = str(op)
        if name == "INLINE IMAGE":
            raise NotVector("an inline image")
        if name in ("rg", "RG"):
            out.append((colours.rgb(*operands), pikepdf.Operator("k" if name == "rg" else "K")))
        elif name in ("g", "G"):
            out.append((colours.gray(*operands), pikepdf.Operator("k" if name == "g" else "K")))
        elif name in ("cs", "CS"):
            which = "fill" if name == "cs" else "stroke"
            chosen = str(operands[0])
            if chosen not in _SPACES:
                raise NotVector(f"colour space {chosen}")
            space[which] = _SPACES[chosen]
            out.append(([pikepdf.Name.DeviceCMYK], op))
        elif name in ("sc", "scn", "SC", "SCN"):
            n = space["fill" if name in ("sc", "scn") else "stroke"]
            values = [float(v) for v in operands]
            cmyk = values if n == 4 else colours.rgb(*values) if n == 3 else colours.gray(*values)
            out.append((cmyk, op))
        elif name in ("sh", "BI", "ID", "EI"):
            raise NotVector("a shading" if name == "sh" else "an inline image")
        elif name == "gs":
            state = resources.ExtGState[operands[0]]
            if any(float(state.get(k, 1)) < 1 for k in ("/ca", "/CA")) or str(state.get("/SMask", "/None")) != "/None" \
                    or str(state.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
                raise NotVector("transparency (an opacity, soft mask or blend mode)")
            out.append((operands, op))
        else:
            if name == "Do":
                _vector_xobject(resources.XObject[operands[0]], colours, done)
            out.append((operands, op))
    return out


def _vector_xobject(xobject, colours: Colours, done: set) -> None:
    if xobject.objgen in done:
        return
    done.add(xobject.objgen)
    if xobject.Subtype == "/Image":
        _cmyk_image(xobject, colours)
    else:
        _vector_content(xobject, xobject.get("/Resources"), colours, done)


def _vector_content(holder, resources, colours: Colours, done: set) -> None:
    """Rewrite the content stream(s) of ``holder`` (a page's dictionary or a form XObject)
    in DeviceCMYK: a page gets one new content stream, a form its own rewritten."""
    if resources is not None and "/ColorSpace" in resources and len(resources.ColorSpace):
        raise NotVector("a named colour space")
    if resources is not None and ("/Shading" in resources or "/Pattern" in resources):
        raise NotVector("a shading or pattern")
    if "/Group" in holder:
        raise NotVector("a transparency group")
    operations = pikepdf.parse_content_stream(holder)
    data = pikepdf.unparse_content_stream(_vector_stream(operations, resources, colours, done))
    if holder.get("/Type") == "/Page":  # its Contents may be an array of streams: one in their place
        contents = holder.Contents if isinstance(holder.Contents, pikepdf.Stream) else holder.Contents[0]
        contents.write(data)
        holder.Contents = contents
    else:
        holder.write(data)


def _cmyk_image(xobject, colours: Colours) -> None:
    """An image XObject converted to DeviceCMYK through the profile (a stencil mask, which
    takes the fill colour, is left as it is)."""
    if xobject.get("/ImageMask", False):
        return
    if "/SMask" in xobject or "/Mask" in xobject:
        raise NotVector("an image with a mask or soft mask")
    image = pikepdf.PdfImage(xobject).as_pil_image()
    cmyk = image if image.mode == "CMYK" else to_cmyk(image.convert("RGB"), colours.ink_limit)
    xobject.write(zlib.compress(cmyk.tobytes(), 9), filter=pikepdf.Name.FlateDecode)
    xobject.ColorSpace = pikepdf.Name.DeviceCMYK
    xobject.BitsPerComponent = 8
    for key in ("/DecodeParms", "/Decode", "/Intent"):
        if key in xobject:
            del xobject[key]


def _exact(box, digits: int = 3) -> pikepdf.Array:
    """A page box with its edges rounded to ``digits`` decimals of a point (63.5 mm in
    points is 180.00000000000003: written as 180)."""
    return pikepdf.Array([round(float(v), digits) + 0 for v in box])


def to_pdfx(source: Path, out: Path, ink_limit: int = 240, dpi: int = 300, title: str = "",
            order: list[int] | None = None) -> str:
    """Write ``out``, ``source`` in DeviceCMYK with PDF/X-1a:2003 output intent and keys;
    ``out`` may be ``source``. Drawn as vectors where it can be (see :func:`vector_pdfx`):
    every colour converted once through the shipped profile, text kept as text with its
    fonts embedded, raster images converted to CMYK pixels; a PDF drawing something PDF/X-1a
    forbids (transparency, shadings, other colour spaces) is rendered page by page into
    images instead (:func:`raster_pdfx`). Returns "vector" or "raster": how it was made.

    ``order`` lists, for each page of ``out``, the index of the ``source`` page it shows (a
    page shown several times, such as the copies of a card, is stored once); by default
    every source page once, in order.
    """
    try:
        vector_pdfx(source, out, ink_limit, title, order)
        return "vector"
    except NotVector:
        raster_pdfx(source, out, ink_limit, dpi, title, order)
        return "raster"


def vector_pdfx(source: Path, out: Path, ink_limit: int = 240, title: str = "", order: list[int] | None = None) -> None:
    """``source`` rewritten in DeviceCMYK: every ``rg``/``RG``/``g``/``G`` (and ``sc``
    in DeviceRGB or DeviceGray) becomes ``k``/``K``, each distinct colour converted once
    through the profile (:class:`Colours`); images become DeviceCMYK pixels; text, paths
    and icons stay as they are drawn. Pages with identical content share one content
    stream. Page boxes are rounded to a thousandth of a point. Raises :class:`NotVector`
    (nothing written) for what PDF/X-1a cannot hold without flattening."""
    colours = Colours(ink_limit)
    done: set = set()
    with pikepdf.open(source) as pdf:
        for obj in pdf.objects:  # PDF/X-1a: every font embedded
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type3":
                descriptor = obj.get("/DescendantFonts", [obj])[0].get("/FontDescriptor")
                if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                    raise NotVector(f"font {obj.get('/BaseFont')} is not embedded")
        source_pages = list(pdf.pages)
        shared: dict[bytes, pikepdf.Object] = {}
        for page in (p.obj for p in source_pages):
            _vector_content(page, page.get("/Resources"), colours, done)
            data = page.Contents.read_bytes()
            stream = shared.setdefault(data, page.Contents)
            page.Contents = stream  # identical pages (a shared back) share one content stream
            for key in ("/MediaBox", "/TrimBox", "/BleedBox", "/CropBox", "/ArtBox"):
                if key in page:
                    page[key] = _exact(page[key])
            if "/TrimBox" not in page:
                page.TrimBox = page.MediaBox
            if "/BleedBox" not in page:
                page.BleedBox = page.MediaBox
        if order is not None:
            while len(pdf.pages):
                del pdf.pages[0]
            for index in order:
                pdf.pages.append(source_pages[index])
        _pdfx_keys(pdf, title or out.stem)
        tmp = out.with_suffix(".tmp.pdf")
        pdf.save(tmp, deterministic_id=True, force_version="1.4", object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 compress_streams=True)
    tmp.replace(out)


def _pdfx_keys(pdf: pikepdf.Pdf, title: str) -> None:
    """The PDF/X output intent (the profile embedded) and document information keys."""
    icc = pikepdf.Stream(pdf, profile_bytes())
    icc.N = 4
    pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(CONDITION),
        OutputCondition=pikepdf.String("Offset printing on coated paper (ISO 12647-2), total ink 240 %"),
        RegistryName=pikepdf.String("http://www.color.org"),
        Info=pikepdf.String("cardforge CMYK (FOGRA39L data, total ink 240 %)"),
        DestOutputProfile=icc)])
    stamp = "D:20000101000000Z"  # fixed: the same input gives the same bytes
    pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary())
    pdf.docinfo[pikepdf.Name.Title] = pikepdf.String(title)
    pdf.docinfo[pikepdf.Name.Creator] = pikepdf.String("cardforge")
    pdf.docinfo[pikepdf.Name.Producer] = pikepdf.String("cardforge (pikepdf)")
    pdf.docinfo[pikepdf.Name.CreationDate] = pikepdf.String(stamp)
    pdf.docinfo[pikepdf.Name.ModDate] = pikepdf.String(stamp)
    pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
    pdf.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String("PDF/X-1:2003")
    pdf.docinfo[pikepdf.Name.GTS_PDFXConformance] = pikepdf.String("PDF/X-1a:2003")


def raster_pdfx(source: Path, out: Path, ink_limit: int = 240, dpi: int = 300, title: str = "",
                order: list[int] | None = None) -> None:
    """Write ``out``: ``source`` rendered page by page into DeviceCMYK images at ``dpi``,
    each page exactly its image's size at ``dpi`` (a 2.75 in page is 825 px), identical
    images stored once; with PDF/X-1a:2003 output intent and keys; ``out`` may be ``source``.
    For what :func:`vector_pdfx` cannot carry (see :class:`NotVector`)."""
    import hashlib

    pdf = pikepdf.new()
    document = pdfium.PdfDocument(str(source))
    images, sizes, stored, contents = [], [], {}, {}
    try:
        with pikepdf.open(source) as original:
            boxes = [(list(p.obj.get("/MediaBox")), p.obj.get("/TrimBox"), p.obj.get("/BleedBox")) for p in original.pages]
        for page, (media, _, _) in zip(document, boxes):
            x0, y0, x1, y1 = (float(v) for v in media)
            size = (round((x1 - x0) / 72 * dpi), round((y1 - y0) / 72 * dpi))
            image = page.render(scale=dpi / 72, draw_annots=False).to_pil().convert("RGB")
            page.close()
            if image.size != size:  # PDFium rounds a page edge up by a pixel at some sizes
                image = image.resize(size, Image.LANCZOS)
            cmyk = to_cmyk(image, ink_limit)
            data = cmyk.tobytes()
            key = hashlib.sha256(data).digest() + repr(cmyk.size).encode()
            if key not in stored:
                xobject = pikepdf.Stream(pdf, zlib.compress(data, 9))
                xobject.Type = pikepdf.Name.XObject
                xobject.Subtype = pikepdf.Name.Image
                xobject.Width, xobject.Height = cmyk.size
                xobject.ColorSpace = pikepdf.Name.DeviceCMYK
                xobject.BitsPerComponent = 8
                xobject.Filter = pikepdf.Name.FlateDecode
                stored[key] = pdf.make_indirect(xobject)
            images.append(stored[key])
            sizes.append(size)
    finally:
        document.close()
    for index in (order if order is not None else range(len(images))):
        media, trim, bleed = boxes[index]
        x0, y0 = round(float(media[0]), 3), round(float(media[1]), 3)
        w, h = (v / dpi * 72 for v in sizes[index])  # the page exactly the image at dpi
        content = f"q {w:.4f} 0 0 {h:.4f} {x0:.4f} {y0:.4f} cm /Im0 Do Q".encode()
        if (content, images[index].objgen) not in contents:  # pages showing one image share one content stream
            contents[(content, images[index].objgen)] = pdf.make_indirect(pikepdf.Stream(pdf, content))
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=_exact([x0, y0, x0 + w, y0 + h]),
            TrimBox=_exact(trim) if trim is not None else _exact([x0, y0, x0 + w, y0 + h]),
            BleedBox=_exact([x0, y0, x0 + w, y0 + h]),
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=images[index])),
            Contents=contents[(content, images[index].objgen)])
        pdf.pages.append(pikepdf.Page(page))
    _pdfx_keys(pdf, title or out.stem)
    tmp = out.with_suffix(".tmp.pdf")
    pdf.save(tmp, deterministic_id=True, force_version="1.4")
    tmp.replace(out)
