"""The layout file of a pack made from a spreadsheet (``cardforge new SLUG --from SHEET``).

:func:`layout_yaml` writes ``layouts/<slug>.yaml`` from what
:func:`~cardforge.scaffold.sheetplan.plan_sheet` found: the first card type's face (the
name, the sheet's words and short text on the line under it, the numbers as badges, the
text and what is left in a box, image columns as pictures), the other card types extending
it, and the backs. Lengths are written in mm from the card's top-left trim corner.
"""
from __future__ import annotations

import copy
from typing import Any

import yaml

from cardforge.scaffold import NewGame, _size_mm
from cardforge.scaffold.sheetplan import SheetPlan


def dump_yaml(data: Any) -> str:
    """``data`` as block YAML in the order given (short lists in flow style), 110 columns wide."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


def jinja_literal(value: str) -> str:
    """``value`` as a single-quoted jinja2 string literal."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _caption(header: str) -> str:
    """A column's name in words under its badge: ``costDiamonds`` -> ``cost diamonds``."""
    import re

    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-]+", " ", header).split()
    if len(words) < 2:
        return header
    return " ".join([words[0]] + [w if w.isupper() else w.lower() for w in words[1:]])


def _mm(*values: float) -> list[str]:
    return [f"{round(v, 1):g}mm" for v in values]


TYPE_LINE = 3  # fields on the line under the name; more print in the text box
BADGES = 5  # numbers as badges; more print in the text box


def _type_line(plan: SheetPlan) -> list:
    """The columns printed on the line under the name: the sheet's few repeated words, then short text."""
    return [*plan.words, *plan.short][:TYPE_LINE]


def _text_lines(plan: SheetPlan) -> list:
    """The columns printed in the text box as ``Header: value`` lines: what the type line and badges leave."""
    return [*plan.words, *plan.short][TYPE_LINE:] + plan.numbers[BADGES:]


def _words(plan: SheetPlan, label: str) -> str:
    """The line under the name: the card type's label, then the card's words and short text."""
    shown = _type_line(plan)
    if not shown:
        return label
    literal = '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'
    fields = ", ".join("card." + c.field for c in shown)
    if plan.deck is not None:  # the deck's name leads, not the one type's label
        return f"{{{{ [{fields}] | select('defined') | join(' · ') }}}}"
    return f"{{{{ ([{literal}] + [{fields}] | select('defined') | list) | join(' · ') }}}}"


def _text_template(plan: SheetPlan) -> str | None:
    """The text box's template: the text column, then other long text in italics, then the
    columns left over as ``**Header:** value`` lines (None: nothing to print there)."""
    parts = []
    if plan.text is not None:
        parts.append(f"{{% if card.{plan.text.field} is defined %}}{{{{ card.{plan.text.field} }}}}{{% endif %}}")
    for c in plan.extra_text:
        parts.append(f"{{% if card.{c.field} is defined %}}\n*{{{{ card.{c.field} }}}}*{{% endif %}}")
    if plan.flags:  # the marked columns of the card, by their headers, on one line
        marked = ", ".join(f"({jinja_literal(c.header)} if card.{c.field} is defined)" for c in plan.flags)
        parts.append(f"{{% set marked = [{marked}] | select('defined') | list %}}"
                     "{% if marked %}\n{{ marked | join(' · ') }}{% endif %}")
    for c in _text_lines(plan):
        parts.append(f"{{% if card.{c.field} is defined %}}\n**{_caption(c.header)}:** {{{{ card.{c.field} }}}}{{% endif %}}")
    return "".join(parts) or None


def layout_yaml(new: NewGame, plan: SheetPlan, found: dict[str, list[str]] | None = None) -> str:
    """The pack's layout file: the first card type's face, the others extending it, the backs.

    Every column with content prints: the name, the words and short text on the line under it,
    the numbers as badges, the text (then other long text, then what is left) in a box, the
    first column of image file names as the art and the next three as small pictures. ``found``
    holds, per image field, the file names found beside the sheet (copied into the pack): those
    print as images; the others keep a draft placeholder (a tinted box)."""
    from cardforge.validation.export import modeline

    found = found or {}
    w, h = _size_mm(new.card_size)
    m = 4.0
    size = new.card_size if isinstance(new.card_size, str) else _mm(w, h)
    pic = 9.0
    elements: dict[str, Any] = {
        "title": {"kind": "text", "box": _mm(m, m, w - 2 * m, 9), "field": plan.title, "font": "serif-bold",
                  "size": "11pt", "min_size": "7pt", "align": "left", "valign": "middle", "color": "#2f4f6f"}}
    first = next(iter(plan.types))
    elements["words"] = {"kind": "text", "box": _mm(m, m + 9, w - 2 * m, 5), "template": _words(plan, plan.types[first].label),
                         "font": "sans-italic", "size": "7pt", "min_size": "5.5pt", "align": "left", "valign": "middle",
                         "color": "#555555"}
    template = _text_template(plan)
    text_h = (h * (0.38 if plan.extra_text or _text_lines(plan) or plan.flags else 0.33)) if template else 0
    badges = plan.numbers[:BADGES]
    badge_h = 14.0 if badges else 0
    art_top = m + 15
    art_h = h - art_top - m - text_h - badge_h - 2
    elements["art"] = {"kind": "rect", "box": _mm(m, art_top, w - 2 * m, art_h), "fill": "#e8dcc0", "radius": "2mm"}
    if plan.images and found.get(plan.images[0].field):
        art = plan.images[0]
        elements["picture"] = _image(art.field, found[art.field], plan, _mm(m + 1, art_top + 1, w - 2 * m - 2, art_h - 2))
    for i, column in enumerate(plan.images[1:4]):
        box = _mm(w - m - pic - 1, art_top + 1 + i * (pic + 1), pic, pic)
        if found.get(column.field):
            elements[f"picture_{column.field}"] = _image(column.field, found[column.field], plan, box)
        else:  # a draft placeholder until the file is beside the sheet
            elements[f"picture_{column.field}"] = {"kind": "rect", "box": box, "fill": "#f6efdc", "stroke": "#b9a77a",
                                                   "radius": "1.5mm", "when": f"card.{column.field} is defined"}
    if badges:
        gap = 2.0 if len(badges) <= 4 else 1.5
        bw = min(14.0, (w - 2 * m - gap * (len(badges) - 1)) / len(badges))
        y = art_top + art_h + 1
        for i, column in enumerate(badges):
            x = m + i * (bw + gap)
            when = f"card.{column.field} is defined"
            elements[f"badge_{column.field}"] = {
                "kind": "text", "box": _mm(x, y, bw, 7), "template": f"{{{{ card.{column.field} }}}}", "when": when,
                "font": "sans-bold", "size": "11pt" if len(badges) <= 4 else "9pt", "min_size": "7pt",
                "align": "center", "valign": "middle", "color": "#ffffff", "fill": "#2f4f6f", "radius": "2mm"}
            elements[f"caption_{column.field}"] = {
                "kind": "text", "box": _mm(x, y + 7.2, bw, 5.6), "template": _caption(column.header), "when": when,
                "font": "condensed", "size": "6pt", "min_size": "5pt", "align": "center", "valign": "top", "color": "#555555"}
    if template:
        text: dict[str, Any] = {"kind": "text", "box": _mm(m, h - m - text_h, w - 2 * m, text_h)}
        if plan.text is not None and not plan.extra_text and not _text_lines(plan) and not plan.flags:
            text.update({"field": plan.text.field, "when": f"card.{plan.text.field} is defined"})
        else:
            text["template"] = template
        text.update({"size": "9pt", "min_size": "6pt", "align": "center", "valign": "middle", "fill": "#ffffff",
                     "stroke": "#2f4f6f", "radius": "2mm", "padding": "1.5mm"})
        elements["text"] = text
    layouts: dict[str, Any] = {first: {"size": size, "background": "#fdf8ee",
                                       "border": {"width": "1.5pt", "color": "#2f4f6f", "radius": "3mm"},
                                       "elements": elements}}
    for type_id in list(plan.types)[1:]:
        layouts[type_id] = {"extends": first, "elements": {"words": {"template": _words(plan, plan.types[type_id].label)}}}
    back = {"background": "{{ back.color }}", "border": {"width": "3mm", "color": "{{ back.accent }}", "radius": "3mm"},
            "elements": {"title": {"kind": "text", "box": _mm(m + 2, h / 2 - 14, w - 2 * m - 4, 16),
                                   "template": "{{ back.title }}", "font": "serif-bold", "size": "16pt", "min_size": "8pt",
                                   "color": "{{ back.accent }}", "valign": "middle"},
                         "label": {"kind": "text", "box": _mm(m + 2, h / 2 + 3, w - 2 * m - 4, 10),
                                   "template": "{{ back.label }}", "font": "sans-bold", "size": "12pt", "min_size": "7pt",
                                   "color": "{{ back.accent }}", "valign": "middle"}}}
    head = [modeline("layout", new.slug, "layout"), "#",
            f"# Card faces of {new.title}, a start made from the sheet: the name, the sheet's words and short",
            "# text under it, the numbers as badges, the text (then other long text and what is left) in a box,",
            "# file names as pictures (a placeholder until the file is beside the sheet). Every element kind",
            "# and key: docs/layout.md. A box is [x, y, width, height] from the card's top-left trim corner."]
    for i, line in enumerate(dump_yaml({"layouts": layouts}).splitlines()):
        head.append(line) if i else head.extend(["", line])
    if plan.deck is not None:
        head += ["", f"# The back every {plan.deck.header} prints (game.yaml `backs:`, `face: deck`), with its title, label and colours."]
        head.append(dump_yaml({"backs": {"deck": copy.deepcopy(back)}}).rstrip("\n"))
    elif plan.backs == "one":
        head += ["", "# The back every card prints (game.yaml `backs:`), its title and label."]
        head.append(dump_yaml({"backs": {"card": copy.deepcopy(back)}}).rstrip("\n"))
    else:
        head += ["", "# A back per card type (game.yaml `backs:`), its title and label."]
        head.append(dump_yaml({"backs": {type_id: copy.deepcopy(back) for type_id in plan.types}}).rstrip("\n"))
    return "\n".join(head) + "\n"


def _image(field: str, found: list[str], plan: SheetPlan, box: list[str]) -> dict[str, Any]:
    """An image element printing the file a card's ``field`` names, on the cards whose file was found."""
    missing = [v for v in plan.image_values.get(field, []) if v not in found]
    return {"kind": "image", "box": box, "field": field, "fit": "contain",
            "when": f"card.{field} is defined" if not missing else f"card.{field} in {found!r}"}
