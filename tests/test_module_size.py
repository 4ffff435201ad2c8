"""No module of the package runs over 400 lines: a long module is split along its seams
(docs/contributing.md, "The stages, and where a new piece goes")."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cardforge"
LIMIT = 400


def test_no_module_over_400_lines():
    long = {p.relative_to(PACKAGE).as_posix(): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert not long, long
