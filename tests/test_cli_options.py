"""``build``, ``watch`` and ``serve`` take the build options declared once
(cardforge.cli.options): the same flags give the same options, and the same bytes."""
from __future__ import annotations

import functools
import shutil
import threading

import pytest

from cardforge.build import BuildSettings
from cardforge.cli.options import NAMES
from conftest import FIXTURES, run_cli

FLAGS = ["--paper", "a4", "--flip", "short", "--gutter", "4", "--fit", "marks", "--duplex-shift", "0.5,-0.25",
         "--cut-guides", "--export", "tts", "--dpi", "150", "--color", "rgb"]


@pytest.fixture
def captured(monkeypatch):
    """The options each command hands to what it runs (nothing is built or served)."""
    import cardforge.serve
    import cardforge.watch  # noqa: F401  (imported before build_games is replaced: it keeps the real one)

    seen: dict[str, object] = {}

    def build_games(project, packs, options, **kwargs):
        seen["build"] = options
        return []

    monkeypatch.setattr("cardforge.incremental.build_games", build_games)
    monkeypatch.setattr("cardforge.watch.watch", lambda project, slugs, options, **kw: seen.setdefault("watch", options))
    monkeypatch.setattr("cardforge.serve.run", lambda project, slugs, **kw: seen.setdefault("serve", kw["options"]))
    return seen


@pytest.mark.parametrize("flags", [[], FLAGS], ids=["defaults", "every option"])
def test_the_same_flags_give_the_same_options_to_build_watch_and_serve(tmp_path, captured, flags):
    root = shutil.copytree(FIXTURES / "project", tmp_path / "p")
    for command in ("build", "watch", "serve"):
        result = run_cli(command, *(["mini"] if command == "serve" else []), *flags, "--root", str(root))
        assert result.exit_code == 0, (command, result.stdout, result.stderr)
    assert captured["build"] == captured["watch"] == captured["serve"]
    if flags:
        options = captured["build"].resolve({"paper": "letter", "fit": "cards", "ink_saver": True})
        deck = options.deck
        assert (deck.paper, deck.flip, deck.fit, deck.cut_guides) == ("a4", "short", "marks", True)
        assert deck.ink_saver  # not given: the pack's
        assert options.exports == frozenset({"tts"}) and options.dpi == 150
    else:
        assert captured["build"] == BuildSettings()  # nothing given: every pack decides


def test_every_build_option_is_an_option_of_each_command():
    for command in ("build", "watch", "serve"):
        shown = run_cli(command, "--help").stdout
        for name in NAMES:
            assert f"--{name.replace('_', '-')}" in shown, (command, name)


def test_watch_writes_the_deck_build_writes(tmp_path, monkeypatch):
    """Its first build, with the same flags, is byte for byte what `cardforge build` writes."""
    import cardforge.watch

    built = shutil.copytree(FIXTURES / "project", tmp_path / "built")
    watched = shutil.copytree(FIXTURES / "project", tmp_path / "watched")
    flags = ["--paper", "a4", "--jobs", "1"]
    assert run_cli("build", *flags, "--root", str(built)).exit_code == 0
    stop = threading.Event()
    stop.set()  # build once, then stop watching
    monkeypatch.setattr(cardforge.watch, "watch", functools.partial(cardforge.watch.watch, stop=stop))
    result = run_cli("watch", *flags, "--root", str(watched))
    assert result.exit_code == 0, result.stderr
    for name in ("deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"):
        assert (watched / "output/mini" / name).read_bytes() == (built / "output/mini" / name).read_bytes(), name
