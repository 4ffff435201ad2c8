"""The command line's own boundaries, read from each module's syntax tree (``ast``):

- Typer's private modules (``typer._coercion``, ``typer._param_types``...) and private
  names (``typer.main._x``) are imported by one module only, the adapter
  ``cardforge/cli/params.py``, as ReportLab's are by ``cardforge/render/backend/``;
- every command-line option is declared once: no option string (``--root``, ``--jobs``)
  is written in two ``typer.Option(...)`` calls, so two commands cannot drift apart in
  its type, default or help. ``--format`` is the one exception: each command that has it
  names its own output formats (``check``: text, json; ``codes``: text, markdown).
"""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "cardforge"
ADAPTER = PACKAGE / "cli" / "params.py"


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def typer_privates(tree: ast.AST) -> list[str]:
    """Each import of a private Typer module or name, and each private attribute of a
    name bound by a Typer import, in ``tree``."""
    found, bound = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "typer":
                    bound.add((alias.asname or alias.name).split(".")[0])
                    if any(private(part) for part in alias.name.split(".")):
                        found.append(alias.name)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "typer":
            parts = node.module.split(".")
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                if any(private(p) for p in parts) or private(alias.name):
                    found.append(f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in bound:
                found.append(f"{ast.unparse(node)}")
    return found


def test_typers_private_names_are_used_by_its_adapter_only():
    outside = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != ADAPTER and (found := typer_privates(ast.parse(path.read_bytes()))):
            outside[str(path.relative_to(REPO))] = found
    assert outside == {}
    assert typer_privates(ast.parse(ADAPTER.read_bytes()))  # the adapter is the one place (the rule bites)


def test_the_rule_finds_a_private_import_and_a_private_attribute():
    tree = ast.parse("import typer.main\nfrom typer._coercion import x\nfrom typer import _y\ntyper.main._z()\n")
    assert typer_privates(tree) == ["typer._coercion.x", "typer._y", "typer.main._z"]


def option_strings() -> Counter:
    """Each ``--option`` string written in a ``typer.Option(...)`` call of the package."""
    seen: Counter = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Option"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "typer"):
                seen.update(arg.value for arg in node.args
                            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"))
    return seen


def test_every_option_is_declared_once():
    seen = option_strings()
    assert {"--root", "--jobs", "--no-cache", "--format"} <= set(seen)
    assert {option: n for option, n in seen.items() if n > 1 and option != "--format"} == {}
