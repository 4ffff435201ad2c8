"""The designer's reference (docs/) is in step with the layout and game schemas, read at run
time: every key a schema knows is documented, and no documented key is unknown."""
from __future__ import annotations

import re

import pytest

from cardforge.render.fonts import FONTS
from cardforge.validation import builtin
from cardforge.sandbox import ENV
from tests.conftest import REPO

DOCS = REPO / "docs"
KEY_ROW = re.compile(r"^\| `([a-z_]+)` \|", re.M)


def schema_keys(schema) -> set[str]:
    """Every property name anywhere in a JSON Schema."""
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, sub in (node.get("properties") or {}).items():
                found.add(key)
                walk(sub)
            for key, sub in node.items():
                if key != "properties":
                    walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(schema)
    return found


def enum_values(schema, key: str) -> set:
    """The enum values of every property named ``key`` in a schema."""
    found: set = set()

    def walk(node):
        if isinstance(node, dict):
            sub = (node.get("properties") or {}).get(key)
            if isinstance(sub, dict) and "enum" in sub:
                found.update(sub["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


@pytest.mark.parametrize("schema, doc", [("layout", "layout.md"), ("game", "game-yaml.md")])
def test_every_schema_key_is_documented_and_every_documented_key_exists(schema, doc):
    keys = schema_keys(builtin(schema))
    documented = set(KEY_ROW.findall((DOCS / doc).read_text(encoding="utf-8")))
    assert keys - documented == set(), f"keys of {schema}.schema.yaml missing from docs/{doc}"
    assert documented - keys == set(), f"docs/{doc} documents keys {schema}.schema.yaml does not know"


def test_every_element_kind_font_and_filter_is_documented():
    text = (DOCS / "layout.md").read_text(encoding="utf-8")
    kinds = enum_values(builtin("layout"), "kind")
    assert kinds and all(f"- `{kind}`:" in text for kind in kinds), kinds
    assert all(f"| {font} |" in text for font in FONTS)
    ours = {"tally", "roman"} & set(ENV.filters)
    assert ours == {"tally", "roman"} and all(f"| {name} |" in text for name in ours)


def test_the_markup_reference_says_how_to_write_a_literal_star_and_brace():
    from cardforge.util.markup import plain

    text = (DOCS / "markup.md").read_text(encoding="utf-8")
    assert "| `\\*` | a literal `*` |" in text and "| `\\{` | a literal `{`" in text
    assert plain("Roll 2 dice \\* 3 \\{wood}") == "Roll 2 dice * 3 {wood}"  # what the page promises


def test_the_docs_code_table_is_what_cardforge_codes_prints():
    """The code table of docs/checks.md is generated from CODES, never kept by hand."""
    from cardforge.util.diagnostics import CODES, codes_table
    from tests.conftest import run_cli

    readme = (DOCS / "checks.md").read_text(encoding="utf-8")
    table = codes_table()
    assert table in readme, "docs/checks.md's code table differs: paste `cardforge codes --format markdown` over it"
    printed = run_cli("codes", "--format", "markdown")
    assert printed.exit_code == 0 and printed.stdout == table
    assert len(re.findall(r"^\| [\w-]+ \| `[\w-]+` \|", readme, re.M)) == len(CODES)  # no stale row elsewhere
    plain = run_cli("codes").stdout.splitlines()
    assert [line.split()[1] for line in plain] == list(CODES)


def doc_section(doc: str, heading: str) -> str:
    """The text of ``## heading`` in docs/``doc``, up to the next ``## ``."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def rules_names():
    """What sheet.md and rulebook.md see, read from the rules environment itself: the helpers
    and variables of a real pack's template context, the sandbox's own filters and globals."""
    import jinja2.defaults

    from cardforge.documents.source import STRICT, Macros
    from cardforge.sources.load import load_game

    game, _ = load_game(REPO / "tests" / "fixtures" / "project" / "cards" / "mini")
    context = Macros(game).context()
    helpers = {name for name, value in context.items() if callable(value)}
    variables = set(context) - helpers
    filters = set(STRICT.filters) - set(jinja2.defaults.DEFAULT_FILTERS)
    return helpers, variables, filters, game, context


def test_every_rules_helper_variable_and_filter_is_documented_and_no_other():
    helpers, variables, filters, _, _ = rules_names()
    assert {"setup_steps", "turn_sequence", "spare_panel", "cards_of"} <= helpers and "game" in variables
    documented = set(re.findall(r"^\| `(\w+)\(", doc_section("rules-sources.md", "Helpers"), re.M))
    assert helpers - documented == set(), "helpers the rules sources can call, missing from docs/rules-sources.md"
    assert documented - helpers == set(), "docs/rules-sources.md documents helpers the rules sources cannot call"
    documented = set(re.findall(r"^\| `(\w+)` \|", doc_section("rules-sources.md", "Variables"), re.M))
    assert documented == variables, (documented, variables)
    documented = set(re.findall(r"^\| `(\w+)` \|", doc_section("rules-sources.md", "Filters"), re.M))
    assert documented == filters and {"tally", "roman", "stem"} <= filters, (documented, filters)


def test_the_card_listing_example_of_the_rules_docs_renders_the_cards_of_the_data():
    from cardforge.documents.source import strict_template

    _, _, _, game, context = rules_names()
    examples = re.findall(r"```jinja\n(.*?)```", doc_section("rules-sources.md", "Listing cards from the data"), re.S)
    assert len(examples) == 2
    listed = strict_template(examples[0]).render(context)
    spells = [card for card in game.cards if card.type == "spell"]
    assert spells and all(f"**{card.name}** ({card.quantity}x): costs {card.data['cost']} mana" in listed
                          for card in spells), listed
    assert not any(card.name in listed for card in game.cards if card.type != "spell")
    counted = strict_template(examples[1]).render(context)
    assert counted.strip() == f"The deck holds {game.total('hero')} heroes and {game.total('spell')} spells.", counted


def test_the_docs_point_to_the_rules_docs_not_into_the_source():
    for doc in (DOCS / "game-yaml.md", DOCS / "outputs.md"):
        text = doc.read_text(encoding="utf-8")
        assert "rules-sources.md" in text, doc
        assert "cardforge/almanac/display.py" not in text and "cardforge/documents/source.py" not in text, doc
    assert "cards/README.md" not in (DOCS / "game-yaml.md").read_text(encoding="utf-8")


def test_each_almanac_format_prints_what_the_rules_docs_say():
    """The formats the docs' table names are those the almanac prints, each as its row shows."""
    from cardforge.almanac.display import value_text

    _, _, _, game, _ = rules_names()
    section = doc_section("rules-sources.md", "Almanac display formats")
    documented = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    cases = {"roman": (3, "III"), "signed": (1, "+1"), "icon": ("sun", "{sun} Sun"), "icons": ({"sun": 2}, "{sun}{sun}")}
    assert documented == set(cases), documented
    for name, (value, expected) in cases.items():
        printed = value_text(value, {"format": name}, game)
        assert printed.replace(" ", "") == expected.replace(" ", "") if name == "icons" else printed == expected, (name, printed)
        if name in ("roman", "signed"):  # the row's own example
            assert f"`{value}` prints {expected}" in re.search(rf"^\| `{name}` \|.*$", section, re.M)[0], name
    assert value_text(-2, {"format": "signed"}, game) == "-2" and value_text(2, {"format": "wave {value}"}, game) == "wave 2"
    assert value_text(2, {"unit": "gold"}, game) == "2 gold"


def test_the_sites_home_page_gives_the_readmes_two_set_up_commands():
    """docs/index.md repeats the README's set-up (the two commands CI runs) word for word."""
    import subprocess
    import sys

    commands = subprocess.run([sys.executable, str(REPO / ".ci" / "setup_commands.py"), str(REPO / "README.md")],
                              capture_output=True, text=True, check=True).stdout.split("\n")
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    assert len([c for c in commands if c]) == 2 and all(f"```\n{c}\n```" in home for c in commands if c)


def test_every_page_of_docs_is_in_the_sites_navigation():
    import yaml

    nav = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    listed: set[str] = set()

    def walk(node):
        if isinstance(node, str):
            listed.add(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(nav)
    assert listed == {p.name for p in DOCS.glob("*.md")}
