"""Exports beyond the home-print deck: one image per card face for print shops,
Tabletop Simulator deck sheets, and PNG previews."""
