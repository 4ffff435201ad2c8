"""Editor schemas as an editor meets them: every shipped YAML file's first line points to a
schema file that exists and that the file satisfies; `cardforge schema` writes those files
and keeps the lines; and an editor schema refuses what `cardforge check` refuses."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from cardforge.build import Project, compile_game
from tests.conftest import REPO, SHIPPED, make_project, run_cli

MODELINE = "# yaml-language-server: $schema="


def _shipped_yaml() -> list[Path]:
    return sorted([*(REPO / "cards").glob("*/*.yaml"), *(REPO / "layouts").glob("*.yaml")])


def _schema_of(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE), f"{path.relative_to(REPO)}: first line is {first!r}"
    return (path.parent / first[len(MODELINE):]).resolve()


@pytest.mark.parametrize("path", _shipped_yaml(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_shipped_yaml_file_names_a_schema_that_exists_and_holds(path):
    schema_file = _schema_of(path)
    assert schema_file.is_file(), f"{path.relative_to(REPO)} names {schema_file}, which does not exist"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert errors == [], [e.message for e in errors[:3]]


def test_cardforge_schema_writes_the_shipped_schemas_and_keeps_the_lines(tmp_path):
    from cardforge.sources.load import find_packs

    root = make_project(tmp_path, *(p.name for p in find_packs(REPO / "cards")))  # every pack the schemas/ folder has
    before = {p: p.read_bytes() for p in [*(root / "cards").glob("*/*.yaml"), *(root / "layouts").glob("*.yaml")]}
    card_file = next(p for p in sorted((root / "cards" / SHIPPED[0]).glob("*.yaml")) if p.name != "game.yaml")
    card_file.write_text(card_file.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")  # line lost
    game_file = root / "cards" / SHIPPED[0] / "game.yaml"
    game_file.write_text("# yaml-language-server: $schema=old/place.json\n"
                         + game_file.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    result = run_cli("schema", "--root", str(root))
    assert result.exit_code == 0, result.output
    for path, data in before.items():  # the lost line is back, the stale one replaced, no other byte moved
        assert path.read_bytes() == data, path
    assert card_file.name in result.stderr.replace("\n", "")  # reported as written
    shipped = {p.relative_to(REPO / "schemas") for p in (REPO / "schemas").rglob("*.json")}
    assert shipped == {p.relative_to(root / "schemas") for p in (root / "schemas").rglob("*.json")}
    for name in shipped:  # the schema files the repository ships are the ones `schema` writes, and no other
        assert (root / "schemas" / name).read_bytes() == (REPO / "schemas" / name).read_bytes(), name
    shared = {name for name in shipped if len(name.parts) == 1}
    assert {p.name for p in shared} == {"game.schema.json", "layout.schema.json"}  # one copy for every pack
    again = run_cli("schema", "--root", str(root))
    assert again.exit_code == 0 and ".yaml" not in again.stderr  # nothing left to change


def test_the_editor_schema_refuses_a_size_and_a_font_that_check_refuses(tmp_path):
    slug = SHIPPED[0]
    root = make_project(tmp_path, slug)
    layout_file = root / "layouts" / f"{slug}.yaml"
    layout = yaml.safe_load(layout_file.read_text(encoding="utf-8"))
    schema = json.loads(_schema_of(REPO / "layouts" / f"{slug}.yaml").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    name, element = next((n, e) for n, spec in layout["layouts"].items()
                         for e, el in (spec.get("elements") or {}).items() if isinstance(el, dict) and "font" in el)

    def verdicts(key_path: tuple[str, ...], value: str) -> tuple[bool, bool]:
        data = yaml.safe_load(layout_file.read_text(encoding="utf-8"))
        node = data
        for key in key_path[:-1]:
            node = node.setdefault(key, {})
        node[key_path[-1]] = value
        edited = root / "layouts" / f"{slug}.yaml"
        edited.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        found = compile_game(root / "cards" / slug, Project(root)).diagnostics
        shutil.copy(REPO / "layouts" / f"{slug}.yaml", edited)
        return (any(d.code == "layout-invalid" for d in found), bool(list(validator.iter_errors(data))))

    assert verdicts(("layouts", name, "size"), "huge") == (True, True)  # check and editor both refuse
    assert verdicts(("layouts", name, "size"), "bridge") == (False, False)  # and both take a preset
    assert verdicts(("layouts", name, "elements", element, "font"), "comic-sans") == (True, True)
    assert verdicts(("layouts", name, "elements", element, "font"), "condensed-bold")[1] is False


def test_an_unknown_key_in_game_yaml_is_refused_at_its_line_by_check_and_the_editor_schema(tmp_path):
    """`designr:` in game: and a stray `colour:` in a component: `check` names each at its
    line with the closest known key, and the editor schema refuses the same file."""
    slug = SHIPPED[0]
    root = make_project(tmp_path, slug)
    game_file = root / "cards" / slug / "game.yaml"
    lines = game_file.read_text(encoding="utf-8").splitlines()
    at_game = lines.index("game:") + 1
    lines.insert(at_game, "  designr: Somebody")
    at_component = next(i for i, line in enumerate(lines) if line.lstrip().startswith("- id:")
                        and lines[:i].count("components:") and i > lines.index("components:")) + 1
    indent = len(lines[at_component]) - len(lines[at_component].lstrip())
    lines.insert(at_component, " " * indent + "colour: red")
    game_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("check", slug, "--root", str(root))
    assert result.exit_code == 1
    said = result.stderr
    assert f"cards/{slug}/game.yaml:{at_game + 1}:" in said and "unknown key 'designr'; did you mean 'designer'?" in said
    assert f"cards/{slug}/game.yaml:{at_component + 1}:" in said and "unknown key 'colour'" in said
    schema = json.loads(_schema_of(REPO / "cards" / slug / "game.yaml").read_text(encoding="utf-8"))
    refused = [list(e.absolute_path) for e in Draft202012Validator(schema).iter_errors(yaml.safe_load(game_file.read_text()))]
    assert ["game"] in refused and any(path[:1] == ["components"] for path in refused), refused
