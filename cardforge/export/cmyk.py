"""CMYK print PDFs in PDF/X-1a:2003 form, for print shops that ask for them (DriveThruCards).

:func:`to_pdfx` takes a PDF whose pages are card faces with their TrimBox and BleedBox
(see :func:`cardforge.export.faces.face_pdf`), renders each page with PDFium at ``dpi``
(300 by default: the shops' resolution), converts the pixels from sRGB to CMYK through a
real ICC profile with littleCMS (Pillow's ImageCms, relative colorimetric intent with black
point compensation), caps the total ink (sum of C, M, Y and K) at the shop's limit, and
writes one DeviceCMYK image per page. So the result has no transparency and no RGB at all:
text and icons are flattened into the 300 dpi image, as DriveThruCards' own guide expects
of image-based card files. The pages keep their TrimBox and BleedBox; the catalog gets the
PDF/X output intent (``GTS_PDFX``, the ICC profile embedded as ``DestOutputProfile``) and the
document information the ``GTS_PDFXVersion``, ``GTS_PDFXConformance`` and ``Trapped`` keys.

The profile is ``icc/cardforge-fogra39-240.icc``: built by ArgyllCMS's ``colprof`` from
Fogra's FOGRA39L characterization data (coated paper, ISO 12647-2), as shipped under the
Zlib licence by Debian's icc-profiles-free, with a total ink limit of 240 % and black limit
of 98 % (``tools/make_cmyk_profile.sh``; licence in ``icc/LICENSE.md``).

What this does not do (a commercial preflight such as Acrobat's or PitStop's would still
check it): fonts are not embedded as text (they are pixels), spot colours and overprint
are not used, the profile is a FOGRA39-like condition rather than the shop's own press
profile, and the PDF/X conformance is by construction, not verified by a certified checker.
"""
from __future__ import annotations

import io
import zlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
from PIL import Image, ImageCms

PROFILE = "export/icc/cardforge-fogra39-240.icc"
CONDITION = "FOGRA39"  # the characterization the profile is built from
RICH_BLACK = (60, 40, 40, 100)  # % C, M, Y, K: DriveThruCards' rich black, 240 % in all


def profile_bytes() -> bytes:
    """The CMYK output profile shipped with cardforge."""
    return resources.files("cardforge").joinpath(PROFILE).read_bytes()


@lru_cache(maxsize=1)
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


def to_pdfx(source: Path, out: Path, ink_limit: int = 240, dpi: int = 300, title: str = "",
            order: list[int] | None = None) -> None:
    """Write ``out``: ``source`` rendered page by page into DeviceCMYK images (see the module
    docstring), with PDF/X-1a:2003 output intent and keys; ``out`` may be ``source``.

    ``order`` lists, for each page of ``out``, the index of the ``source`` page it shows (a
    page shown several times, such as the copies of a card, is stored once); by default
    every source page once, in order.
    """
    pdf = pikepdf.new()
    document = pdfium.PdfDocument(str(source))
    images = []
    try:
        with pikepdf.open(source) as original:
            boxes = [(list(p.obj.get("/MediaBox")), p.obj.get("/TrimBox"), p.obj.get("/BleedBox")) for p in original.pages]
        for page in document:
            image = page.render(scale=dpi / 72, draw_annots=False).to_pil().convert("RGB")
            page.close()
            cmyk = to_cmyk(image, ink_limit)
            xobject = pikepdf.Stream(pdf, zlib.compress(cmyk.tobytes(), 9))
            xobject.Type = pikepdf.Name.XObject
            xobject.Subtype = pikepdf.Name.Image
            xobject.Width, xobject.Height = cmyk.size
            xobject.ColorSpace = pikepdf.Name.DeviceCMYK
            xobject.BitsPerComponent = 8
            xobject.Filter = pikepdf.Name.FlateDecode
            images.append(pdf.make_indirect(xobject))
    finally:
        document.close()
    pdf.docinfo = pdf.make_indirect(pikepdf.Dictionary())
    for index in (order if order is not None else range(len(images))):
        media, trim, bleed = boxes[index]
        x0, y0, x1, y1 = (float(v) for v in media)
        content = f"q {x1 - x0:.4f} 0 0 {y1 - y0:.4f} {x0:.4f} {y0:.4f} cm /Im0 Do Q".encode()
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=pikepdf.Array([x0, y0, x1, y1]),
            TrimBox=pikepdf.Array([float(v) for v in trim]) if trim is not None else pikepdf.Array([x0, y0, x1, y1]),
            BleedBox=pikepdf.Array([float(v) for v in bleed]) if bleed is not None else pikepdf.Array([x0, y0, x1, y1]),
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=images[index])),
            Contents=pikepdf.Stream(pdf, content))
        pdf.pages.append(pikepdf.Page(page))
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
    pdf.docinfo[pikepdf.Name.Title] = pikepdf.String(title or out.stem)
    pdf.docinfo[pikepdf.Name.Creator] = pikepdf.String("cardforge")
    pdf.docinfo[pikepdf.Name.Producer] = pikepdf.String("cardforge (pikepdf)")
    pdf.docinfo[pikepdf.Name.CreationDate] = pikepdf.String(stamp)
    pdf.docinfo[pikepdf.Name.ModDate] = pikepdf.String(stamp)
    pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
    pdf.docinfo[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String("PDF/X-1:2003")
    pdf.docinfo[pikepdf.Name.GTS_PDFXConformance] = pikepdf.String("PDF/X-1a:2003")
    tmp = out.with_suffix(".tmp.pdf")
    pdf.save(tmp, deterministic_id=True, force_version="1.4")
    tmp.replace(out)

