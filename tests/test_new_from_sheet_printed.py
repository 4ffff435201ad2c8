"""``cardforge new --from``: every column with content prints on the card. Long text in the text
box (other long text in italics after it), numbers as badges, a few repeated words and short text
on the line under the name, what is left as ``Header: value`` lines in the box, file names as
pictures when the file is beside the sheet (copied into the pack), a draft placeholder when not,
and never a file name as text."""
from __future__ import annotations

import json

import pdfplumber
from PIL import Image

from tests.conftest import run_cli

HEADER = ("Card name,back text,Copies,Effect,Flavour,icon,bg,Attack,Defence,Speed,Range,Cost,VP,Gold,"
          "Element,Rarity,Subtitle")
ROWS = [
    "Goblin,Monsters,2,Deal 1 damage to each hero.,Small and mean and always hungry.,icon_goblin.png,nothing.png,"
    "1,0,3,1,2,17,40,Fire,Common,The sneaky one",
    "Orc,Monsters,1,Deal 2 damage to a hero.,Big and meaner than the goblin.,icon_orc.png,nothing.png,"
    "2,1,2,1,3,18,41,Earth,Common,The big one",
    "Sword,Treasure 4,3,Gain 1 attack for this turn.,,icon_sword.png,nothing.png,1,0,0,1,4,19,42,Fire,Rare,Sharp",
    "Shield,Treasure 4,2,Block the next attack.,A round shield with a dent.,icon_shield.png,nothing.png,"
    "0,2,0,0,3,20,43,Earth,Rare,Round",
]


def make(tmp_path) -> str:
    folder = tmp_path / "sheet"
    folder.mkdir()
    (folder / "deck.csv").write_text("\n".join([HEADER, *ROWS]) + "\n")
    for name in ("icon_goblin", "icon_orc"):  # two of the four pictures are beside the sheet
        Image.new("RGB", (800, 800), (120, 40, 40)).save(folder / f"{name}.png")
    root = tmp_path / "project"
    result = run_cli("new", "dungeon", "--from", str(folder / "deck.csv"), "--root", str(root))
    assert result.exit_code == 0, result.output
    return root, result.stderr


def test_every_column_with_content_prints_and_no_file_name_as_text(tmp_path):
    root, said = make(tmp_path)
    assert sorted(p.name for p in (root / "cards/dungeon").glob("*.png")) == ["icon_goblin.png", "icon_orc.png"]
    layout = (root / "layouts/dungeon.yaml").read_text()
    assert "Not printed" not in layout
    check = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    assert [d for d in json.loads(check.stdout)["diagnostics"] if d["severity"] != "info"] == []
    result = run_cli("build", "dungeon", "--root", str(root))
    assert result.exit_code == 0 and "0 warnings" in result.stderr, result.stderr
    with pdfplumber.open(root / "output/dungeon/deck.pdf") as pdf:
        fronts = pdf.pages[0]
        text = fronts.extract_text()
        pictures = [im for im in fronts.images if im["width"] > 20]
    lines = ["".join(line.split()) for line in text.splitlines()]  # pdfplumber drops some spaces of italics
    for value in ("Deal 1 damage to each hero.", "Small and mean and", "always hungry.", "Monsters · Fire · Common",
                  "Subtitle:The sneaky one", "Attack Defence Speed Range Cost", "VP:17", "Gold:40"):
        assert any("".join(value.split()) in line for line in lines), value
    assert ".png" not in text and "nothing" not in text  # never a file name as text
    assert len(pictures) == 3  # Goblin x2 and Orc: the files beside the sheet; the others keep the placeholder
    # the summary says what was found and that only the copies column does not print
    text = " ".join(said.split())
    assert "column 'icon': 2 of 4 files found beside the sheet (copied into the pack)" in text
    assert "not printed 'Copies': the number of copies" in text
    assert text.count("not printed") == 1
