"""ReportLab behind one adapter: the only package of cardforge that touches ReportLab's
private names (its canvas's operator and resource lists, its document's page objects and
save loop, TrueType subset state, a table's measured rows, a contents' entries, the
paragraph parser's pictures, what breaking a paragraph's lines sets). Everything else uses
ReportLab's public API or these functions.

Each assumption made here about ReportLab is checked by ``tests/test_backend_contract.py``,
so that a ReportLab release that breaks one fails there, by name, rather than as a PDF
that differs; ``tests/test_backend_boundary.py`` keeps every other module off those names.
Nothing here changes a ReportLab module or class: what differs from ReportLab's own
behaviour is confined to one canvas, document or paragraph (threads may build at once).

ReportLab is imported by the first call that needs it (the checks import this package
through the drawing modules without drawing). Units are PDF points; an "operator string"
is content-stream text as ReportLab writes it (operators joined by newlines).

Three modules, one seam each: :mod:`~cardforge.render.backend.canvas` (the content stream
in progress, the resources a page lists, TrueType subsets), :mod:`~cardforge.render.backend.flowables`
(tables, contents, paragraphs) and :mod:`~cardforge.render.backend.save` (finished pages and
the save). Use them through this package: ``from cardforge.render import backend``.
"""
from __future__ import annotations

from cardforge.render.backend.canvas import (  # noqa: F401
    Drawn, Mark, Resources, add_resources, append_operators, declare_transparency, drawn_since,
    fill_first_subset, font_resource_name, fonts_set, glyph_widths, has_annotations, has_operators,
    mark, page_preamble, page_size, pending_operators, place_form, resources, uses_graphics_state,
)
from cardforge.render.backend.flowables import (  # noqa: F401
    break_lines, contents_entries, kept_together, own_lines, paragraph_images, parse_paragraph,
    style_key, table_row_heights,
)
from cardforge.render.backend.save import (  # noqa: F401
    drop_last_page_stream, last_page_stream, save_streamed, seal_last_page,
)
