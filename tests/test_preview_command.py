"""`cardforge preview`: one game's first deck sheet as a PNG in output/<game>/preview/, and a
game that is not there is a diagnostic with the packs there are and exit status 1."""
from __future__ import annotations

from PIL import Image

from tests.conftest import make_project, run_cli


def test_preview_writes_the_first_sheet_and_names_a_missing_game(tmp_path):
    root = make_project(tmp_path, "gate")
    result = run_cli("preview", "gate", "--root", str(root))
    assert result.exit_code == 0, result.output
    png = root / "output" / "gate" / "preview" / "sheet-1.png"
    with Image.open(png) as image:
        assert image.width > 300 and image.height > image.width  # a portrait Letter sheet
    missing = run_cli("preview", "gaet", "--root", str(root))
    assert missing.exit_code == 1
    assert "error[pack-missing]" in missing.output and "gate" in missing.output
    assert "Traceback" not in missing.output
