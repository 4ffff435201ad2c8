"""The ``cardforge`` command starts lean and still behaves as Typer does.

What an unchanged ``build`` or ``check`` imports is checked in a fresh Python (the modules
it loaded, never a timing: speed is for tools/bench.py). Every parameter of every command
converts values exactly as Typer's own converter does, well-formed or not.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from cardforge.cli import app
from conftest import FIXTURES, REPO

# Libraries that draw or compile: an answer served from the cache needs none of them.
HEAVY = ("reportlab", "PIL", "pypdfium2", "cairosvg", "cairocffi", "svglib", "pikepdf", "pypdf", "jinja2",
         "jsonschema", "yaml", "mistune", "pydantic", "rapidfuzz")
# Libraries that draw: not even a check of changed files needs them.
DRAWING = ("reportlab", "PIL", "pypdfium2", "cairosvg", "cairocffi", "svglib", "pikepdf", "pypdf")


def imported_by(*args: str, cwd: Path, cache: Path | None = None) -> tuple[int, set[str]]:
    """Run ``cardforge ARGS`` as the installed command runs it, in a fresh Python (with the
    user cache folder ``cache``); returns its exit code and the top-level packages it imported."""
    code = ("import json, sys\n"
            f"sys.argv = ['cardforge', *{list(args)!r}]\n"
            "from cardforge.cli import app\n"
            "try:\n"
            "    app()\n"
            "except SystemExit as exc:\n"
            "    status = exc.code or 0\n"
            "print(json.dumps([status, sorted({m.split('.')[0] for m in sys.modules})]))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(cwd),
                               "XDG_CACHE_HOME": str(cache or cwd / ".user-cache")})
    status, modules = json.loads(proc.stdout.strip().splitlines()[-1])
    return status, set(modules)


@pytest.fixture
def project(tmp_path) -> Path:
    import shutil

    shutil.copytree(FIXTURES / "project", tmp_path / "p")
    return tmp_path / "p"


def test_an_unchanged_build_and_check_import_nothing_that_draws_or_compiles(project):
    status, _ = imported_by("build", "--root", str(project), cwd=project)
    assert status == 0
    for command in (["build"], ["check"], ["check", "mini"]):
        status, modules = imported_by(*command, "--root", str(project), cwd=project)
        assert status == 0, command
        assert modules.isdisjoint(HEAVY), (command, sorted(modules & set(HEAVY)))


def test_a_check_of_every_file_afresh_imports_nothing_that_draws(project, tmp_path):
    """Text is measured and glyphs looked up from font metrics kept in the user cache: once
    they are there, a check from scratch (--no-cache) loads no drawing library."""
    cache = tmp_path / "user-cache"
    status, _ = imported_by("check", "--no-cache", "--root", str(project), cwd=project, cache=cache)
    assert status == 0
    assert list((cache / "cardforge" / "metrics").iterdir())
    status, modules = imported_by("check", "--no-cache", "--root", str(project), cwd=project, cache=cache)
    assert status == 0
    assert modules.isdisjoint(DRAWING), sorted(modules & set(DRAWING))


def test_a_bad_value_is_reported_as_typer_reports_it(project):
    cases = [("build", "--dpi", "abc"), ("build", "--dpi", "5"), ("check", "--format", "xml"),
             ("build", "--paper", "legal"), ("build", "--root", str(project / "cards" / "mini" / "game.yaml"))]
    for args in cases:
        proc = subprocess.run([sys.executable, "-m", "cardforge", *args], cwd=REPO, capture_output=True, text=True)
        assert proc.returncode == 2, args
        assert "Invalid value for" in proc.stderr and args[1] in proc.stderr, (args, proc.stderr)


def _samples(annotation) -> list:
    """Values a command line may hand a parameter of this type: well-formed and not."""
    import enum

    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        values = [m.value for m in annotation]
        return values + [values[0].upper(), "nonsense", "", list(annotation)[0]]
    return ["0", "1", "-1", "2.5", "72", "600", "1200", "1201", "20", "21", "007", "+3", " 5", "1e3", "nan", "abc",
            "", ".", "cards", "/no/such/folder", "a,b", 3, 2.5, True, None]


def _outcome(convert, value, param, ctx):
    try:
        converted = convert(value, param=param, ctx=ctx)
        return "value", converted, type(converted), [type(v) for v in converted] if isinstance(converted, list) else None
    except Exception as exc:  # noqa: BLE001 - comparing how each refuses
        return type(exc).__name__, str(exc)


def test_every_parameter_converts_as_typers_own_converter_does(project, monkeypatch):
    from typing import get_args, get_origin

    from typer._click import Context
    from typer._coercion import build_runtime_param

    monkeypatch.chdir(project)
    group = typer.main.get_command(app)
    compared = 0
    for name, command in sorted(group.commands.items()):
        ctx = Context(command, info_name=name)
        for param in command.get_params(ctx):
            lean = param.get_runtime_param()
            own = build_runtime_param(param.type_descriptor)
            assert type(lean).__name__ == "_Lean", (name, param.name)
            annotation = param.type_descriptor.annotation
            is_list = get_origin(annotation) is list
            samples = _samples(get_args(annotation)[0] if is_list else annotation)
            if is_list:
                samples = [(v,) for v in samples if v is not None] + [tuple(samples[:2])]
            for value in samples:
                assert _outcome(lean._coerce_value, value, param, ctx) == _outcome(own._coerce_value, value, param, ctx), \
                    (name, param.name, value)
                compared += 1
    assert compared > 500


def test_flags_show_no_value_in_help():
    """A flag takes no value, so its help row names no type; an option that takes one does."""
    from tests.conftest import run_cli

    result = run_cli("build", "--help")
    assert result.exit_code == 0
    rows = {line.split()[1]: line for line in result.output.splitlines() if line.startswith("│ --")}
    assert "<bool>" not in rows["--force"] and "<bool>" not in rows["--no-cache"]
    assert "<int" in rows["--jobs"]


def test_a_command_builds_only_itself_and_a_group_only_its_own_commands(project, monkeypatch):
    """Typer reads every command's signature before it runs one: the command line's own
    command (or command group) is the only one built, also beside command groups."""
    built = []
    original = typer.main.get_command_from_info

    def get_command_from_info(command_info, *args, **kwargs):
        built.append(command_info.name or typer.main.get_command_name(command_info.callback.__name__))
        return original(command_info, *args, **kwargs)

    monkeypatch.setattr(typer.main, "get_command_from_info", get_command_from_info)
    monkeypatch.chdir(project)
    for line, expected in ((["check", "--root", str(project)], ["check"]),
                           (["cache", "info", "--root", str(project)], ["info", "clear"])):
        built.clear()
        with pytest.raises(SystemExit) as stopped:
            app(line)
        assert stopped.value.code == 0, line
        assert built == expected, line
    built.clear()
    with pytest.raises(SystemExit):
        app(["--help"])
    assert {"build", "check", "watch", "serve"} <= set(built)  # help lists every command
