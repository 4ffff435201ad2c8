"""The ``image`` element: per-card art (PNG, JPEG or SVG) named by ``field`` or ``template``,
a path inside the game pack (see :mod:`cardforge.render.image`)."""
from __future__ import annotations

from dataclasses import dataclass

from cardforge.elements import Element, Key, Kind, enum, register


def _draw(c, el: Element, copy, at) -> None:
    at.draw_image(c, el, copy)


@dataclass(frozen=True)
class Image(Element):
    """An image element: :class:`Element` with the keys only an image has (``fit``,
    ``anchor``, ``clip``)."""

    fit: str | None = None
    anchor: str | None = None
    clip: bool = False


KIND = register(Kind(
    "image", "per-card art (PNG, JPEG or SVG, SVG drawn as vectors) named by `field` or `template`, a path inside "
             "the game pack",
    keys=(Key("field", {"type": "string"}, None, "a card field holding the file's path", "a card field"),
          Key("template", {"type": "string"}, None, "a template giving the file's path", "jinja2 template",
              holds="template"),
          enum("fit", ["contain", "cover", "stretch"], "contain",
               "`contain` (whole image inside the box), `cover` (fills the box, cropped) or `stretch`"),
          enum("anchor", ["center", "top", "bottom", "left", "right", "top-left", "top-right", "bottom-left",
                          "bottom-right"], "center", "where a contained or cropped image sits in its box"),
          Key("clip", {"type": "boolean"}, False, "also clip the image to the card's shape (round tokens)", "true or false",
              convert=bool)),
    draw=_draw, element=Image,
    require=lambda raw: None if raw.get("field") or raw.get("template") else "needs `field:` or `template:`",
    art=True))
