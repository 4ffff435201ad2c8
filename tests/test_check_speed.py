"""What makes a check of changed files quick stays correct: the time budget's handler kept
installed across a game's templates still stops a slow one and is put back afterwards; YAML
files and schema verdicts kept in the user cache give what the files say now."""
from __future__ import annotations

import signal
import time

import pytest

from cardforge.sandbox import budget


def test_a_budget_session_still_stops_a_slow_evaluation_and_restores_the_handler(monkeypatch):
    def mine(signum, frame):
        raise AssertionError("the previous handler ran inside a budget")

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        monkeypatch.setattr(budget, "TIME_LIMIT", 0.2)
        with budget.budget_session():
            assert signal.getsignal(signal.SIGALRM) is budget._alarm
            for _ in range(3):
                with budget.budgeted():
                    pass  # quick evaluations: no alarm left behind
            time.sleep(0.3)
            with pytest.raises(budget.BudgetExceeded, match="ran for more than"):
                with budget.budgeted():
                    time.sleep(2)  # stopped by SIGALRM after 0.2 s
            assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is mine
        with pytest.raises(budget.BudgetExceeded):
            with budget.budgeted():  # outside a session: installed for the one evaluation
                time.sleep(2)
        assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.signal(signal.SIGALRM, previous)


def _fresh_user_cache(monkeypatch, folder):
    """The user cache in ``folder`` (empty), its verdicts not yet read."""
    from cardforge.cache import kept

    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.setattr(kept, "VALID", kept.Verdicts("schema-valid"))


def test_a_yaml_file_read_from_the_user_cache_is_the_file_as_it_is_now(tmp_path, monkeypatch):
    from cardforge.util.yamlsource import YamlError, load_yaml

    _fresh_user_cache(monkeypatch, tmp_path / "cache")
    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n  - name: Lost\n    text: |-\n      Gain 1 mana\n", encoding="utf-8")
    first = load_yaml(path, "cards.yaml")
    assert list((tmp_path / "cache" / "cardforge" / "yaml").iterdir())  # kept
    again = load_yaml(path, "cards.yaml")
    assert again[0] == first[0] and again[1] == first[1] and again[0] is not first[0]
    path.write_text("cards:\n  - name: Lost\n    text: |-\n      Gain 2 mana\n", encoding="utf-8")
    assert load_yaml(path, "cards.yaml")[0]["cards"][0]["text"] == "Gain 2 mana"
    path.write_text("cards:\n  - name: Lost\n    name: Found\n", encoding="utf-8")
    for _ in range(2):  # a file with a problem is never kept: reported the same every time
        with pytest.raises(YamlError) as caught:
            load_yaml(path, "cards.yaml")
        assert [d.code for d in caught.value.diagnostics] == ["yaml-duplicate-key"]
        assert caught.value.diagnostics[0].line == 3


def test_a_check_from_an_empty_or_a_filled_user_cache_reports_the_same(tmp_path, monkeypatch):
    import shutil

    from cardforge.build import Project, compile_game
    from conftest import FIXTURES, SHIPPED, make_project

    root = make_project(tmp_path / "p", *SHIPPED)
    shutil.copytree(FIXTURES / "project" / "cards" / "mini", root / "cards" / "mini")
    shutil.copy(FIXTURES / "project" / "layouts" / "mini.yaml", root / "layouts")
    project = Project(root)
    packs, _ = project.packs(None)
    monkeypatch.chdir(root)
    _fresh_user_cache(monkeypatch, tmp_path / "cache")
    cold = [d.format() for pack in packs for d in compile_game(pack, project).diagnostics]
    assert (tmp_path / "cache" / "cardforge" / "verdicts").is_dir()
    warm = [d.format() for pack in packs for d in compile_game(pack, project).diagnostics]
    assert warm == cold
    # a card made invalid after it was found valid: its schema error is reported, not the old verdict
    cards = root / "cards" / "mini" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "power: 3" in text
    cards.write_text(text.replace("power: 3", "power: three", 1), encoding="utf-8")
    broken = [d for d in compile_game(root / "cards" / "mini", project).diagnostics if d.code == "schema"]
    assert broken and "three" in broken[0].message and broken[0].file == "cards/mini/cards.yaml"
    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    assert [d.format() for d in compile_game(root / "cards" / "mini", project).diagnostics if d.code == "schema"] \
        == [d.format() for d in broken]


def test_an_expression_parsed_before_is_not_parsed_again_and_a_bad_one_always_is(tmp_path, monkeypatch):
    import jinja2

    from cardforge import sandbox

    _fresh_user_cache(monkeypatch, tmp_path / "cache")
    sandbox._compiled_expression.cache_clear()
    assert sandbox.expression("card.power > 2")(card={"power": 3}) is True
    sandbox._compiled_expression.cache_clear()
    parsed = []
    real_parse = sandbox.ENV.parse
    monkeypatch.setattr(sandbox.ENV, "parse", lambda source: parsed.append(source) or real_parse(source))
    assert sandbox.expression("card.power > 2")(card={"power": 1}) is False
    assert parsed == []  # known to be one expression
    for _ in range(2):  # not one expression: refused every time
        with pytest.raises(jinja2.TemplateSyntaxError):
            sandbox.expression("1 }}{{ 2")
    assert parsed == ["{{ 1 }}{{ 2 }}", "{{ 1 }}{{ 2 }}"]
    sandbox._compiled_expression.cache_clear()


def test_a_template_its_budget_stopped_is_not_run_again_in_the_same_context(monkeypatch):
    """Asked again for the same card (another check family, another copy), a template the
    budget stopped raises at once, with the same reason, instead of running to the same end."""
    from cardforge import sandbox
    from cardforge.sandbox.context import Context, rendered

    runs = []
    real = sandbox.render
    monkeypatch.setattr(sandbox, "render", lambda source, ctx: runs.append(source) or real(source, ctx))
    monkeypatch.setattr(budget, "TIME_LIMIT", 0.2)
    loop = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    ctx = Context(card={"name": "Gate"})
    reasons = []
    for _ in range(3):
        with pytest.raises(budget.BudgetExceeded) as stopped:
            rendered(loop, ctx)
        reasons.append(str(stopped.value))
    assert len(runs) == 1 and len(set(reasons)) == 1, (runs, reasons)
    assert rendered("{{ card.name }}", ctx) == "Gate" and len(runs) == 2  # other templates still run
    with pytest.raises(budget.BudgetExceeded):
        rendered(loop, {"card": {"name": "Gate"}})  # a plain dict remembers nothing: it runs again
    assert len(runs) == 3
