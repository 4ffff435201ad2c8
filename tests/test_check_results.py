"""Template results and text fits kept in the user cache (cardforge.sandbox.results) change only how
soon a check answers: the same diagnostics come from an empty cache, a filled one and none,
and a card edited into a problem is reported at its file and line though the cache holds
what the card gave before."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, SHIPPED, fresh_user_cache

LONG = " ".join(["Draw a card, then discard a card and gain 1 mana."] * 12)  # far more than the 30 mm box holds


@pytest.fixture
def mini(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "project", tmp_path / "p")
    return tmp_path / "p"


def _break_cards(root: Path) -> Path:
    """Moon Witch's text made far too long, Fireball given an icon the game lacks, a misspelt
    card name and a misspelt glossary term, and Sun Knight a character no shipped font has."""
    cards = root / "cards" / "mini" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace('"Gain 1 mana. {sun}"', '"Gain 1 mana \U0001F642 {sun}"', 1)
    text = text.replace("      Exhaust a spell.\n      Pay 1 mana: {moon}", "      " + LONG, 1)
    text = text.replace('"{sun} Deal 2.', '"{sunn} Deal 2.', 1)
    text = text.replace("If you have the Sun Knight, deal 3; it is exhausted.", "If you have the Sun Knigt, deal 3; it is exhuasted.", 1)
    cards.write_text(text, encoding="utf-8")
    return cards


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_a_broken_card_is_reported_alike_with_no_cache_an_empty_one_and_a_filled_one(mini, tmp_path, monkeypatch):
    from cardforge.build import Project, compile_game
    from cardforge.resolve import text

    cards = _break_cards(mini)
    monkeypatch.chdir(mini)
    project = Project(mini)
    pack = mini / "cards" / "mini"
    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    monkeypatch.setattr(text, "_FITS", {})
    uncached = [d.format() for d in compile_game(pack, project).diagnostics]
    assert any("error[text-overflow]" in d and f"cards.yaml:{_line_of(cards, 'text: |-')}" in d for d in uncached)
    assert any("error[icon-unknown]" in d and "sunn" in d for d in uncached)
    assert any("error[glyph-missing]" in d and "Sun Knight" in d for d in uncached)
    assert any("[ref-unknown]" in d and '"Sun Knigt" names no card' in d for d in uncached)
    assert any("[term-misspelt]" in d and '"exhuasted"' in d for d in uncached)

    fitted = []
    real_fit = text._fit
    monkeypatch.setattr(text, "_fit", lambda *a: fitted.append(a[0]) or real_fit(*a))
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    cold = [d.format() for d in compile_game(pack, project).diagnostics]
    assert list((tmp_path / "cache" / "cardforge" / "check-results").iterdir())
    measured_cold = list(fitted)
    fitted.clear()
    monkeypatch.setattr(text, "_FITS", {})  # a new process: only the user cache remembers
    warm = [d.format() for d in compile_game(pack, project).diagnostics]
    assert cold == uncached and warm == uncached
    # the texts that fit came from the cache; the overflowing one and the unknown icon's were measured again
    assert len(fitted) < len(measured_cold)
    assert any(LONG in t for t in fitted) and any("{sunn}" in t for t in fitted)
    assert not any("Sun Knight" == t for t in fitted)


@pytest.mark.parametrize("slug", SHIPPED)  # one pack a test: the packs are shared out among the workers
def test_every_shipped_pack_checks_alike_with_no_cache_an_empty_one_and_a_filled_one(tmp_path, monkeypatch, slug):
    from cardforge.build import Project, compile_game
    from cardforge.resolve import text
    from conftest import make_project

    root = make_project(tmp_path / "p", slug)
    project = Project(root)
    pack = project.cards / slug
    monkeypatch.chdir(root)
    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    monkeypatch.setattr(text, "_FITS", {})
    uncached = [d.format() for d in compile_game(pack, project).diagnostics]
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    cold = [d.format() for d in compile_game(pack, project).diagnostics]
    assert len(list((tmp_path / "cache" / "cardforge" / "check-results").iterdir())) == 1
    monkeypatch.setattr(text, "_FITS", {})
    warm = [d.format() for d in compile_game(pack, project).diagnostics]
    assert cold == uncached and warm == uncached


def test_a_translation_keeps_its_results_apart_from_its_sources(tmp_path, monkeypatch):
    """``check`` checks a pack in its source language, then in each translation: each keeps
    its own results, so neither measures the other's texts again next time."""
    from cardforge.build import Project, compile_game
    from cardforge.resolve import text
    from conftest import make_project

    slug = "through-the-gate"  # a shipped pack with a translation (languages: [en, es])
    root = make_project(tmp_path / "p", slug)
    project = Project(root)
    pack = project.cards / slug
    monkeypatch.chdir(root)
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    cold = [[d.format() for d in compile_game(pack, project, lang).diagnostics] for lang in (None, "es")]
    assert len(list((tmp_path / "cache" / "cardforge" / "check-results").iterdir())) == 2
    fitted = []
    real_fit = text._fit
    monkeypatch.setattr(text, "_fit", lambda *a: fitted.append(a[0]) or real_fit(*a))
    monkeypatch.setattr(text, "_FITS", {})  # a new process: only the user cache remembers
    warm = [[d.format() for d in compile_game(pack, project, lang).diagnostics] for lang in (None, "es")]
    assert warm == cold
    assert fitted == [], f"{len(fitted)} texts measured again, among them {fitted[:2]}"


def _check(root: Path, cache: Path | None) -> tuple[int, str]:
    """``cardforge check`` in a fresh Python, as a designer runs it (build cache and user cache
    in ``cache`` on; None: both off)."""
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(root),
           "XDG_CACHE_HOME": str(cache or root.parent / "unused-cache")}
    if cache is None:
        env["CARDFORGE_NO_USER_CACHE"] = "1"
    proc = subprocess.run([sys.executable, "-m", "cardforge", "check", "--root", str(root),
                           *(["--no-cache"] if cache is None else [])], cwd=REPO, capture_output=True, text=True,
                          env=env)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_card_edited_into_a_problem_is_reported_at_its_line_though_the_cache_knew_it_fine(mini, tmp_path):
    cache = tmp_path / "cache"
    status, out = _check(mini, cache)
    assert status == 0, out
    assert list((cache / "cardforge" / "check-results").iterdir())
    cards = mini / "cards" / "mini" / "cards.yaml"
    clean = cards.read_text(encoding="utf-8")
    for _ in range(2):  # the second time, the cache holds both the card's clean and its broken text
        _break_cards(mini)
        status, out = _check(mini, cache)
        assert status == 1, out
        assert f"cards/mini/cards.yaml:{_line_of(cards, 'text: |-')}: error[text-overflow]: hero card 'Moon Witch'" in out
        assert f"cards/mini/cards.yaml:{_line_of(cards, 'sunn')}" in out and "icon-unknown" in out
        assert (status, out) == _check(mini, None)
        cards.write_text(clean, encoding="utf-8")
        status, out = _check(mini, cache)
        assert status == 0, out
        assert "text-overflow" not in out and "icon-unknown" not in out


def test_what_a_card_gave_is_not_reused_when_its_layout_or_its_game_changes(mini, tmp_path):
    cache = tmp_path / "cache"
    assert _check(mini, cache)[0] == 0
    layout = mini / "layouts" / "mini.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace("box: [6mm, 20mm, 51.5mm, 30mm]", "box: [6mm, 20mm, 51.5mm, 6mm]"), encoding="utf-8")
    status, out = _check(mini, cache)  # the same texts in a smaller box
    assert status == 1, out
    assert "error[text-overflow]: spell card 'Fireball'" in out
    assert (status, out) == _check(mini, None)
    layout.write_text(text, encoding="utf-8")
    assert _check(mini, cache)[0] == 0
    game = mini / "cards" / "mini" / "game.yaml"
    data = game.read_text(encoding="utf-8")
    game.write_text(data.replace("deck: {title: Mini,", f"deck: {{title: '{LONG}',", 1), encoding="utf-8")
    status, out = _check(mini, cache)  # the back's template `{{ back.title }}` now gives another text
    assert status == 1, out
    assert f"layouts/mini.yaml:{_line_of(layout, 'back.title')}: error[text-overflow]: shared back 'deck'" in out
    assert (status, out) == _check(mini, None)


def test_a_card_edited_to_break_a_rule_it_kept_is_reported(mini, tmp_path, monkeypatch):
    from cardforge.build import Project, compile_game

    monkeypatch.chdir(mini)
    project = Project(mini)
    pack = mini / "cards" / "mini"
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    assert not [d for d in compile_game(pack, project).diagnostics if d.code == "rule-failed"]
    cards = mini / "cards" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("power: 3", "power: 9", 1), encoding="utf-8")
    for _ in range(2):  # the cache held the card's pass, then holds nothing for its failure
        failed = [d.format() for d in compile_game(pack, project).diagnostics if d.code == "rule-failed"]
        assert len(failed) == 1 and "'power-limit'" in failed[0] and "'Sun Knight'" in failed[0]
        assert f"cards.yaml:{_line_of(cards, 'Sun Knight')}:" in failed[0]
    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    assert [d.format() for d in compile_game(pack, project).diagnostics if d.code == "rule-failed"] == failed


def test_a_table_that_fitted_is_reported_when_its_box_shrinks(tmp_path, monkeypatch):
    from cardforge.build import Project, compile_game
    from conftest import make_project

    root = make_project(tmp_path / "p", "through-the-gate")
    project = Project(root)
    pack = root / "cards" / "through-the-gate"
    monkeypatch.chdir(root)
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    assert not [d for d in compile_game(pack, project).diagnostics if d.code == "layout-overflow"]
    layout = root / "layouts" / "through-the-gate.yaml"
    text = layout.read_text(encoding="utf-8")
    assert text.count("box: [7mm, 29mm, 49.5mm, 50mm]") == 1
    layout.write_text(text.replace("box: [7mm, 29mm, 49.5mm, 50mm]", "box: [7mm, 29mm, 49.5mm, 9mm]"), encoding="utf-8")
    overflow = [d.format() for d in compile_game(pack, project).diagnostics if d.code == "layout-overflow"]
    assert overflow and all("table `targets`" in d for d in overflow)
    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    assert [d.format() for d in compile_game(pack, project).diagnostics if d.code == "layout-overflow"] == overflow


def test_a_broken_rule_is_reported_whether_or_not_its_cards_verdicts_were_kept(mini, tmp_path, monkeypatch):
    from cardforge.build import Project, compile_game

    monkeypatch.chdir(mini)
    project = Project(mini)
    pack = mini / "cards" / "mini"
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    assert not [d for d in compile_game(pack, project).diagnostics if d.code == "rule-invalid"]
    game = mini / "cards" / "mini" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    broken = {  # an assert no card is selected for, and a where selecting from no card's view
        "empty selection": text.replace('where: "card.type == \'hero\'"', 'where: "card.type == \'nobody\'"', 1)
                                .replace('assert: "card.power <= 5"', 'assert: "card.power <="', 1),
        "bad where": text.replace('where: "card.type == \'hero\'"', 'where: "card.type =="', 1),
    }
    for case, changed in broken.items():
        assert changed != text, case
        game.write_text(changed, encoding="utf-8")
        for _ in range(2):
            invalid = [d.format() for d in compile_game(pack, project).diagnostics if d.code == "rule-invalid"]
            assert len(invalid) == 1 and "'power-limit'" in invalid[0], (case, invalid)
        game.write_text(text, encoding="utf-8")
        assert not [d for d in compile_game(pack, project).diagnostics if d.code == "rule-invalid"]


def test_the_folder_keeps_the_newest_files_only(tmp_path, monkeypatch):
    from cardforge.sandbox import results as checkresults
    from cardforge.build import Project, compile_game

    fresh_user_cache(monkeypatch, tmp_path / "cache")
    monkeypatch.setattr(checkresults, "KEPT", 2)
    folder = tmp_path / "cache" / "cardforge" / "check-results"
    for n in range(3):  # three copies of a game: three files, of which the two newest are kept
        root = tmp_path / f"copy{n}"
        shutil.copytree(FIXTURES / "project", root)
        monkeypatch.chdir(root)
        compile_game(root / "cards" / "mini", Project(root))
        assert len(list(folder.iterdir())) == min(n + 1, 2)
    written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    compile_game(root / "cards" / "mini", Project(root))  # nothing learnt: nothing written
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == written
