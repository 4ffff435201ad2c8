#!/usr/bin/env python3
"""Copy icons from the game-icons.net set into a game pack as standalone SVG files.

The set is published in Iconify JSON form as the npm package ``@iconify-json/game-icons``
(CC BY 3.0). Fetch it once with ``npm pack @iconify-json/game-icons`` and unpack it; then:

    python tools/import_game_icons.py package/icons.json cards/<slug>/icons hearts=compassion ...

Each argument ``SOURCE=NAME`` writes ``<dir>/<NAME>.svg`` from the icon ``SOURCE``. The
paths keep ``fill="currentColor"``; cardforge recolours them at render time from the icon's
``color`` in game.yaml. A ``LICENSE.md`` listing every imported icon is (re)written in <dir>.
"""
import json
import pathlib
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    data = json.loads(pathlib.Path(argv[0]).read_text())
    out = pathlib.Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    width, height = data.get("width", 512), data.get("height", 512)
    for pair in argv[2:]:
        source, _, name = pair.partition("=")
        icon = data["icons"][source]
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {icon.get("width", width)} '
               f'{icon.get("height", height)}"><!-- game-icons.net: {source} (CC BY 3.0) -->'
               f'{icon["body"]}</svg>\n')
        (out / f"{name or source}.svg").write_text(svg)
    listing = sorted(p.stem for p in out.glob("*.svg"))
    (out / "LICENSE.md").write_text(
        "# Icons\n\nThese SVG icons come from game-icons.net (Lorc, Delapouite and contributors),\n"
        "licensed under Creative Commons Attribution 3.0 (https://creativecommons.org/licenses/by/3.0/).\n"
        "They were taken from the Iconify JSON edition of the set (npm package @iconify-json/game-icons)\n"
        "and renamed after the game's own icon names; the source icon is named in a comment in each file.\n\n"
        "Files: " + ", ".join(f"{n}.svg" for n in listing) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
