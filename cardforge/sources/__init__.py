"""Where card data comes from: YAML files with their source lines, and spreadsheets.

``yamlfile`` a game pack's YAML file read with the line of every value

``tables``   CSV, XLSX and JSON files read into tables of located cells
``rowrules`` a mapping's `computed:` fields and `skip_when:`, run in the sandbox over a row
``mapping``  how columns become card fields (game.yaml ``sources:`` or a mapping file)
``convert``  rows -> card dicts, converted as each card type's schema says
``importer`` ``cardforge import``: a spreadsheet into a YAML card file
``csvcards`` CSV card files read directly by the loader (``cards/<slug>/*.csv``)
``export``   ``cardforge export-cards``: the card database as CSV or XLSX
"""
