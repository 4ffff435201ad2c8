"""The resolve stage: a card face worked out for one card, without drawing it.

Between the layout (elements in boxes) and the renderer (ReportLab), this stage evaluates
what varies per card and measures what must fit: ``face`` (template contexts, the back a
card prints, every text element fitted into its box), ``text`` (marked-up text set in a
box, shrinking its type to fit), ``table`` (a table's columns, rows and type size),
``image`` (which art file, where it lands, at what dpi) and ``repeat`` (the copies of a
repeated element). The checks read what it works out and the renderer draws it, so what
``cardforge check`` reports is what prints; neither imports the other (an import-linter
contract in pyproject.toml).
"""
