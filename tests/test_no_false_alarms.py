"""A correct pack checks without false alarms: art named through a template in the layout is a
file the pack reads, a word that prints only as a category (or not at all) is not read as a card
reference, two rows sharing a name are told how an id column tells them apart, and no message
says "card card"."""
from __future__ import annotations

import json

from tests.conftest import run_cli


def diagnostics(root) -> list[dict]:
    result = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    return json.loads(result.stdout)["diagnostics"]


def starter(root, csv: str, *options: str) -> None:
    (root / "chest.csv").write_text(csv)
    result = run_cli("new", "chest", "--from", str(root / "chest.csv"), "--root", str(root), *options)
    assert result.exit_code == 0, result.output


def test_art_read_through_an_image_template_is_no_unread_file_but_a_stray_one_is(tmp_path):
    starter(tmp_path, "Name,Icon,Text\nGoblin,goblin,Deal 1 damage to each hero.\nOrc,orc,Deal 2 damage.\n")
    art = tmp_path / "cards/chest/art"
    art.mkdir()
    for name in ("art_goblin.svg", "art_orc.svg", "stray.png"):
        (art / name).write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    layout = tmp_path / "layouts/chest.yaml"
    text = layout.read_text()
    marker = "      art:\n        kind: rect\n"
    assert marker in text
    layout.write_text(text.replace(marker, "      picture:\n        kind: image\n        box: [8mm, 20mm, 40mm, 30mm]\n"
                                           "        src: 'art/art_{{ card.icon }}.svg'\n" + marker))
    found = diagnostics(tmp_path)
    unread = sorted(d["file"].rsplit("chest/", 1)[1] for d in found if d["code"] == "file-unread")
    assert unread == ["art/stray.png"]


def test_a_templated_path_names_only_files_its_literal_parts_match():
    import re

    from cardforge.checks.packfiles import templated_paths

    patterns = templated_paths("src: 'art/art_{{ card.icon }}.svg'\nfield: '{{ card.art }}'\n")
    assert len(patterns) == 1
    assert patterns[0].search("art/art_goblin.svg") and not patterns[0].search("art/goblin.svg")
    assert not patterns[0].search("art/art_goblin.png") and isinstance(patterns[0], re.Pattern)


def test_templated_paths_are_found_whole_beside_long_runs_of_path_characters():
    """A path with several placeholders is one pattern from where its run of path characters
    starts; a card text of 200,000 path characters (the corpus's long-string case) beside it
    changes nothing (it is read once, not once from each of its characters)."""
    from cardforge.checks.packfiles import templated_paths

    text = "a: 'art/{{ card.set }}/{{ card.icon }}_x.svg'\nb: 'x{{ card.n }}.png'\nc: '{{ {bad} }}'\n"
    found = [p.pattern for p in templated_paths(text)]
    assert len(found) == 2 and found[0].endswith(r"art/.+/.+_x\.svg$") and found[1].endswith(r"x.+\.png$")
    long = "x" * 200_000
    assert [p.pattern for p in templated_paths(f"text: {long}\n{text}{long}")] == found


def test_a_deck_name_printed_as_a_category_is_no_card_reference(tmp_path):
    # chest cards named Treasure2..., a deck called "Treasure 4": the deck's name is no near miss of a card
    rows = "".join(f"Treasure{i},Treasure 4,Gain {i} gold.\n" for i in range(2, 6))
    starter(tmp_path, "Name,Deck,Text\n" + rows + "Goblin,Monsters,Deal 1 damage.\nOrc,Monsters,Deal 2 damage.\n")
    assert [d for d in diagnostics(tmp_path) if d["code"] == "ref-unknown"] == []
    # card text that nearly names a card is still a reference
    sheet = tmp_path / "cards/chest/chest.csv"
    sheet.write_text(sheet.read_text().replace("Deal 2 damage.", "Discard a Treasure6."))
    found = [d for d in diagnostics(tmp_path) if d["code"] == "ref-unknown"]
    assert len(found) == 1 and "Treasure6" in found[0]["message"] and found[0]["line"] == 7


def test_a_field_no_face_prints_is_no_card_reference(tmp_path):
    import yaml

    starter(tmp_path, "Name,Text,Comment\nTreasure2,Gain 2 gold.,cheaper than Treasure7.\n"
                      "Treasure3,Gain 3 gold.,dearer than Treasure7.\n", "--text-column", "Text")
    path = tmp_path / "layouts/chest.yaml"
    layout = yaml.safe_load(path.read_text())
    elements = layout["layouts"]["card"]["elements"]
    elements["comment_line"] = {"kind": "text", "box": ["5mm", "60mm", "50mm", "6mm"], "template": "{{ card.comment }}",
                                "size": "7pt", "min_size": "6pt"}
    path.write_text(yaml.safe_dump(layout, sort_keys=False))
    assert len([d for d in diagnostics(tmp_path) if d["code"] == "ref-unknown"]) == 2  # printed: read
    for name in [k for k, v in elements.items() if "comment" in str(v.get("field")) + str(v.get("template"))]:
        del elements[name]
    path.write_text(yaml.safe_dump(layout, sort_keys=False))
    assert [d for d in diagnostics(tmp_path) if d["code"] == "ref-unknown"] == []  # not printed: not card text


def test_rows_sharing_a_name_are_told_how_the_id_column_tells_them_apart(tmp_path):
    starter(tmp_path, "id,Name,Text\n1,Orc,Deal 1 damage.\n2,Orc,Deal 2 damage.\n")
    game = tmp_path / "cards/chest/game.yaml"
    # undo what the starter did for repeated names: the plain mapping a designer might write
    text = game.read_text()
    start = text.index("\nsources:\n") + 1
    game.write_text(text[:start] + "sources:\n  chest.csv:\n    type: card\n    columns: {id: id_2, Name: title}\n"
                    "    computed: {name: '{{ title }}'}\n")
    found = [d for d in diagnostics(tmp_path) if d["code"] == "card-duplicate"]
    assert len(found) == 1 and found[0]["message"].startswith("card 'Orc' is entered twice")
    assert "`id_2`" in found[0]["hint"] and "computed: {name:" in found[0]["hint"] and "title" in found[0]["hint"]


def test_no_message_says_card_card(tmp_path):
    starter(tmp_path, "Name,Cost,Text\nMill,2,Gain 1 wood.\nFarm,three,Gain 1 food.\n")
    schema_problems = [d for d in diagnostics(tmp_path) if d["severity"] == "error"]
    assert schema_problems == [] or all("card card" not in d["message"] for d in schema_problems)
    game = tmp_path / "cards/chest/game.yaml"
    game.write_text(game.read_text().replace("cost: {type: string}", "cost: {type: integer}"))
    found = diagnostics(tmp_path)
    messages = [d["message"] for d in found if d["severity"] == "error"]
    assert messages and any(m.startswith("card 'Farm'") for m in messages), messages
    assert not any("card card" in d["message"] for d in found)


def test_a_starter_pack_builds_on_letter_and_a4_with_no_warning(tmp_path):
    from tests.conftest import REPO

    result = run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    for paper in ("letter", "a4"):
        result = run_cli("build", "harvest", "--root", str(tmp_path), "--paper", paper)
        assert result.exit_code == 0, result.output
        assert "0 errors, 0 warnings" in result.stderr and "warning[" not in result.stderr, (paper, result.stderr)
        if paper == "letter":  # poker cards, 3 x 3: rows touch; the build still says the choices
            assert "--fit marks prints" in " ".join(result.stderr.split()), result.stderr
