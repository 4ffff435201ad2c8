"""ReportLab's private names are touched by one package only, the adapter
``cardforge/render/backend/``, and no module changes ReportLab's modules or classes.

The rule, read from each module's syntax tree (``ast``):

- no import of ReportLab's internals (:data:`INTERNAL_MODULES`) or of a private name from
  ReportLab (``from reportlab... import _x``, a module ``_x`` in the path);
- no private attribute (``_x``, not a dunder) on a name bound by a ReportLab import
  (``pdfmetrics._fonts``, ``Canvas._make_preamble``);
- no attribute (nor ``getattr``/``setattr``/``hasattr`` of a name) that ReportLab's own
  sources define as private (:func:`reportlab_private_names`: ``canvas._code``,
  ``table._rowHeights``, ``toc._lastEntries``...) on any object but cardforge's own: a
  name bound by a cardforge import, or ``self``/``cls`` of a class that defines the name
  itself or does not derive from a ReportLab class. Attributes named ``_cardforge_...``
  are cardforge's own, kept on ReportLab's objects;
- no ``__dict__`` of an object but ``self`` (ReportLab's attribute checks bypassed);
- everywhere, the adapter included: no assignment to an attribute of a name bound by a
  ReportLab import (``pdfdoc.PDFFile = ...``, ``paraparser.ImageReader = ...``: a change
  every thread sees), no ``setattr`` on one, and no ``__class__`` assignment.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "cardforge"
ADAPTER = PACKAGE / "render" / "backend"  # a package: its modules follow the adapter's rule
INTERNAL_MODULES = ("reportlab.pdfbase.pdfdoc", "reportlab.platypus.paraparser")
OWN = "_cardforge_"
ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")


def private(name: str) -> bool:
    """``_x`` and ``__x`` (name-mangled) are private; ``_`` and dunders are not."""
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


@lru_cache(maxsize=None)
def reportlab_private_names() -> frozenset[str]:
    """Every private name ReportLab's installed sources define: functions, methods and
    classes, attributes assigned (``self._x = ...``), module and class variables."""
    import reportlab

    names: set[str] = set()
    for path in Path(reportlab.__file__).parent.rglob("*.py"):
        try:
            tree = ast.parse(path.read_bytes())
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                if isinstance(node, ast.ClassDef):
                    names.update(_stored_names(node.body))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.attr)
        names.update(_stored_names(tree.body))
    found = frozenset(name for name in names if private(name))
    assert {"_code", "_doc", "_rowHeights", "_lastEntries", "_formsinuse"} <= found, "ReportLab's sources not read"
    return found


def _stored_names(body: list[ast.stmt]) -> set[str]:
    """Names assigned by the statements of a module's or class's body."""
    out = set()
    for stmt in body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def _root(node: ast.expr) -> ast.expr:
    """The innermost object of ``a.b(c)[d].e``: ``a``."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


class Checker(ast.NodeVisitor):
    """Collects ``(line, what)`` for each breach of the rule in one module's tree."""

    def __init__(self, adapter: bool):
        self.adapter = adapter
        self.reportlab: set[str] = set()  # names bound by ReportLab imports
        self.own: set[str] = set()  # names bound by cardforge imports
        self.classes: list[tuple[set[str], bool]] = []  # (names the class defines, derives from ReportLab)
        self.found: list[tuple[int, str]] = []

    def flag(self, node: ast.AST, what: str) -> None:
        self.found.append((node.lineno, what))

    def check(self, tree: ast.Module) -> list[tuple[int, str]]:
        for node in ast.walk(tree):  # imports first: a name imported in a function counts in the whole module
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._imported(node, alias.name, alias.asname or alias.name.split(".")[0], alias.asname)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self._imported(node, f"{node.module}.{alias.name}", alias.asname or alias.name, True)
        self.visit(tree)
        return self.found

    def _imported(self, node: ast.AST, dotted: str, bound: str, leaf: object) -> None:
        top = dotted.split(".")[0]
        if top == "cardforge":
            self.own.add(bound)
        if top != "reportlab":
            return
        self.reportlab.add(bound)
        if self.adapter:
            return
        if any(dotted == m or dotted.startswith(m + ".") for m in INTERNAL_MODULES):
            self.flag(node, f"imports ReportLab's internals ({dotted})")
        elif any(private(part) for part in dotted.split(".")):
            self.flag(node, f"imports a private name of ReportLab ({dotted})")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        defined = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        defined |= _stored_names(node.body)
        for n in ast.walk(node):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                    and n.value.id in ("self", "cls"):
                defined.add(n.attr)
        derives = any(isinstance(_root(base), ast.Name) and _root(base).id in self.reportlab for base in node.bases)
        self.classes.append((defined, derives))
        self.generic_visit(node)
        self.classes.pop()

    def _foreign(self, receiver: ast.expr, name: str) -> bool:
        """True when ``name`` on ``receiver`` is ReportLab's private name, not cardforge's."""
        if name.startswith(OWN) or name not in reportlab_private_names():
            return False
        root = _root(receiver)
        if isinstance(root, ast.Name) and root.id in self.own:
            return False
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls") and self.classes:
            defined, derives = self.classes[-1]
            return derives and name not in defined
        return True

    def visit_Attribute(self, node: ast.Attribute) -> None:
        value, name = node.value, node.attr
        stored = isinstance(node.ctx, (ast.Store, ast.Del))
        if stored and isinstance(value, ast.Name) and value.id in self.reportlab:
            self.flag(node, f"changes ReportLab's {value.id}.{name} for the whole process")
        elif stored and name == "__class__":
            self.flag(node, "changes the class of a live object")
        elif not self.adapter:
            if private(name) and isinstance(value, ast.Name) and value.id in self.reportlab:
                self.flag(node, f"private name of ReportLab: {value.id}.{name}")
            elif private(name) and self._foreign(value, name):
                self.flag(node, f"private attribute of a ReportLab object: .{name}")
            elif name == "__dict__" and not (isinstance(value, ast.Name) and value.id == "self"):
                self.flag(node, "reaches into an object's __dict__")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ATTRIBUTE_CALLS and len(node.args) >= 2:
            target, name = node.args[0], node.args[1]
            if func.id in ("setattr", "delattr") and isinstance(target, ast.Name) and target.id in self.reportlab:
                self.flag(node, f"{func.id} on ReportLab's {target.id} changes it for the whole process")
            elif (not self.adapter and isinstance(name, ast.Constant) and isinstance(name.value, str)
                  and private(name.value) and self._foreign(target, name.value)):
                self.flag(node, f"private attribute of a ReportLab object: {func.id}(..., {name.value!r})")
        self.generic_visit(node)


def breaches(source: str, adapter: bool = False) -> list[tuple[int, str]]:
    """The rule's breaches in module ``source`` (the adapter's rule with ``adapter``)."""
    return Checker(adapter).check(ast.parse(source))


def test_only_the_adapter_touches_reportlabs_private_names():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert ADAPTER / "__init__.py" in modules and len(modules) > 50
    found = [f"{path.relative_to(REPO)}:{line}: {what}"
             for path in modules for line, what in breaches(path.read_text(encoding="utf-8"), ADAPTER in path.parents)]
    assert not found, "use or extend cardforge/render/backend/ instead:\n" + "\n".join(found)


# what cardforge did before the adapter: each must be caught outside it
CAUGHT = {
    "import": "from reportlab.pdfbase import pdfdoc\n",
    "import-parser": "from reportlab.platypus import paraparser\n",
    "import-private": "from reportlab.lib.utils import _digester\n",
    "module-patch": "from reportlab.platypus import paraparser\nparaparser.ImageReader = object\n",
    "setattr-patch": "from reportlab import rl_config\nsetattr(rl_config, 'invariant', 1)\n",
    "module-private": "from reportlab.pdfbase import pdfmetrics\npdfmetrics._fonts.clear()\n",
    "canvas-code": "def f(c):\n    c._code.append('q')\n",
    "canvas-doc": "def f(canvas):\n    return canvas._doc.Pages.pages[-1]\n",
    "chained": "def f(c):\n    return c._doc.getXObjectName('x')\n",
    "row-heights": "def f(whole):\n    return list(whole._rowHeights)\n",
    "toc": "def f(doc):\n    return doc.toc._lastEntries\n",
    "getattr": "def f(canvas):\n    return getattr(canvas, '_pagesize')\n",
    "class-swap": "def f(page, cls):\n    page.__class__ = cls\n",
    "dict": "def f(drawing):\n    drawing.__dict__['initialFontName'] = 'x'\n",
    "subclass": ("from reportlab.platypus import Paragraph\n"
                 "class P(Paragraph):\n    def f(self):\n        return self._setup\n"),
}
# cardforge's own private names, and what the adapter may do: never caught
FREE = {
    "own-module": "from cardforge.render import pagecache\ndef f(ops):\n    return pagecache._COMMON + ops\n",
    "own-class": "class Q:\n    def __init__(self):\n        self._code = []\n    def f(self):\n        return self._code\n",
    "own-attribute": "def f(canvas):\n    canvas._cardforge_spill = None\n    return getattr(canvas, '_cardforge_prepared', ())\n",
    "not-reportlab": "def f(broadcast, param):\n    return broadcast._fanout, param._runtime_param_x\n",
    "public": "from reportlab.pdfgen.canvas import Canvas\ndef f(c: Canvas):\n    c.saveState()\n    return c.getPageNumber()\n",
}


@pytest.mark.parametrize("case", sorted(CAUGHT))
def test_the_rule_catches_private_use(case):
    assert breaches(CAUGHT[case]), f"{case!r} passed the rule"


@pytest.mark.parametrize("case", sorted(FREE))
def test_the_rule_leaves_cardforges_own_names_alone(case):
    assert breaches(FREE[case]) == []


def test_the_adapter_may_use_private_names_but_never_patch_reportlab():
    assert breaches(CAUGHT["canvas-code"] + CAUGHT["import"], adapter=True) == []
    for case in ("module-patch", "setattr-patch", "class-swap"):
        assert breaches(CAUGHT[case], adapter=True), f"{case!r} passed the adapter's rule"
