"""Diagnostic codes are names: every module uses the constants of cardforge.util.diagnostics,
so a mistyped code fails at import and grep finds each use; no code is spelled as a string
or built by formatting outside the one place that declares them."""
from __future__ import annotations

import ast
from pathlib import Path

import cardforge
from cardforge.util import diagnostics
from cardforge.util.diagnostics import CODES

PACKAGE = Path(cardforge.__file__).parent
DECLARING = PACKAGE / "util" / "diagnostics.py"


def _modules():
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p != DECLARING]


def _code_position(node: ast.AST, parent: ast.AST | None) -> bool:
    """The first argument of diag(...), a code= keyword, or a comparison with `.code`."""
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
        return getattr(parent.func, "id", getattr(parent.func, "attr", "")) == "diag"
    if isinstance(parent, ast.keyword):
        return parent.arg == "code"
    if isinstance(parent, ast.Compare):
        return any(isinstance(side, ast.Attribute) and side.attr == "code" for side in [parent.left, *parent.comparators])
    return False


def test_no_module_spells_a_code_as_a_string_or_formats_one():
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in CODES:
                if "-" in node.value or _code_position(node, parents.get(node)):
                    found.append(f"{where}: {node.value!r}")
            elif isinstance(node, ast.JoinedStr) and _code_position(node, parents.get(node)):
                found.append(f"{where}: a code built by formatting")
    assert not found, "use the constants of cardforge.util.diagnostics:\n" + "\n".join(found)


def test_every_code_has_its_constant_and_every_constant_is_used():
    constants = {name: value for name, value in vars(diagnostics).items()
                 if name.isupper() and isinstance(value, str) and value in CODES}
    assert sorted(constants.values()) == sorted(CODES), "a code without its constant, or two constants for one code"
    for name, value in constants.items():
        assert name == value.upper().replace("-", "_"), f"{name} does not spell {value!r}"
    used = {node.id for path in _modules() for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Name)}
    unused = sorted(set(constants) - used)
    assert not unused, f"declared but reported nowhere: {unused}"

