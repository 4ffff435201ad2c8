"""The corpus of broken and hostile inputs: each case is a located diagnostic, never a traceback.

Every folder of ``tests/corpus/`` is one case, made from the small clean fixture project
(``tests/fixtures/project``, game ``mini``) by its ``case.yaml``:

``edit``    ``{file: [[old, new], ...]}`` text replacements (``old`` must occur)
``write``   ``{file: text}`` whole files written (``text`` may be ``{repeat: s, times: n}``)
``fifo``    files created as named pipes; ``symlink``: ``{file: target}`` (target may be absolute)
``command`` ``check`` (default) or ``build`` plus its extra arguments
``expect``  ``{code, file, line, column}``: a diagnostic the run must report (``file``: a path
            from the project root; ``line_of``: a piece of text whose first line is the line)
``errors``  optional: how many errors the run reports in all (one root cause, one error)

Other files in the case folder are copied over the project (same relative paths). The
command runs in-process with exceptions propagating, so a traceback fails the case.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES, run_cli

CORPUS = Path(__file__).resolve().parent / "corpus"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "case.yaml").is_file())


def make_case(case: Path, tmp: Path) -> tuple[Path, dict]:
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    root = tmp / "project"
    shutil.copytree(FIXTURES / "project", root, symlinks=True)
    for name, pairs in (spec.get("edit") or {}).items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, f"{case.name}: {old!r} not in {name}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    for name, text in (spec.get("write") or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, dict):
            text = text.get("head", "") + text["repeat"] * text["times"] + text.get("tail", "")
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
    for src in case.rglob("*"):
        rel = src.relative_to(case)
        if src.is_file() and rel.name != "case.yaml":
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, root / rel)
    for name in spec.get("fifo") or []:
        (root / name).unlink(missing_ok=True)
        os.mkfifo(root / name)
    for name, target in (spec.get("symlink") or {}).items():
        (root / name).unlink(missing_ok=True)
        target = target.replace("{tmp}", str(tmp))
        if target.startswith("/") and not Path(target).exists():
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            Path(target).write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
        os.symlink(target, root / name)
    return root, spec


@pytest.mark.parametrize("name", CASES)
def test_corpus_case(name, tmp_path):
    root, spec = make_case(CORPUS / name, tmp_path)
    command = spec.get("command", ["check"])
    command = command.split() if isinstance(command, str) else command
    args = list(command) + ["mini", "--root", str(root)]
    if command[0] == "check":
        args += ["--format", "json"]
    result = run_cli(*args)
    assert "Traceback" not in result.output
    assert result.exit_code == 1, result.output
    expect = spec["expect"]
    if command[0] == "check":
        found = json.loads(result.stdout)["diagnostics"]
    else:  # build prints diagnostics as text: path:line:col: severity[code]: message
        found = []
        for line in result.stderr.splitlines():
            if "[" in line and "]: " in line and ": " in line:
                where, _, rest = line.partition(": ")
                parts = where.rsplit(":", 2) if where.count(":") >= 2 else where.rsplit(":", 1) + ["0"]
                code = rest[rest.index("[") + 1:rest.index("]")]
                nums = [int(p) if p.isdigit() else 0 for p in parts[1:]]
                found.append({"code": code, "file": parts[0], "line": nums[0] if nums else 0,
                              "column": nums[1] if len(nums) > 1 else 0, "message": rest,
                              "severity": rest[:rest.index("[")]})
    matching = [d for d in found if d["code"] == expect["code"]]
    assert matching, f"{name}: no {expect['code']} in {[(d['code'], d.get('message')) for d in found]}"
    if "file" in expect:
        matching = [d for d in matching if d["file"].endswith(expect["file"])]
        assert matching, f"{name}: {expect['code']} not in {expect['file']}: {found}"
    if "line_of" in expect:  # the line where a piece of text first appears in the expected file
        text = (root / expect["file"]).read_text(encoding="utf-8", errors="replace")
        expect = dict(expect, line=text[:text.index(expect["line_of"])].count("\n") + 1)
    if "line" in expect:
        assert any(d["line"] == expect["line"] for d in matching), f"{name}: lines {[d['line'] for d in matching]}"
    if "column" in expect:
        assert any(d["column"] == expect["column"] for d in matching), f"{name}: columns {[d['column'] for d in matching]}"
    if "errors" in spec:
        errors = [(d["code"], d.get("message")) for d in found if d.get("severity", "error") == "error"]
        assert len(errors) == spec["errors"], f"{name}: {errors}"
