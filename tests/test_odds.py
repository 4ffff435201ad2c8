"""The odds of a draw (``odds:`` in game.yaml): exact figures that a seeded Monte Carlo of
the same physical stack agrees with, the tables reference.pdf and rulebook.html print, and
bad entries reported by `cardforge check` at their line in game.yaml."""
from __future__ import annotations

import math
import random
import re
from fractions import Fraction

import pytest

from cardforge.build import Project, compile_game
from cardforge.almanac.odds import hypergeometric, odds, rows, summary
from cardforge.sandbox import expression
from conftest import REPO, SHIPPED, make_project
from tests.pdftext import page_texts

TRIALS = 20_000


def game_of(slug: str):
    return compile_game(REPO / "cards" / slug, Project(REPO)).game


def physical_stack(game, entry: dict) -> list[bool]:
    """The stack an entry draws from, card by card (True: a card of interest), read from the
    card database here, apart from the code under test: the stack's card types at their
    quantities, or the entry's ``deck`` parts."""
    stacks = {s["id"]: s["card_types"] for s in game.data.get("stacks") or []}
    stacks.update({c["id"]: c["card_types"] for c in game.components if c.get("card_types") and c["id"] not in stacks})
    cards = [c for t in stacks[entry["stack"]] for c in game.cards_of(t)]

    def view(card):
        return {**card.data, "name": card.name, "type": card.type, "quantity": card.quantity}

    def wanted(card) -> bool:
        return ((not entry.get("types") or card.type in entry["types"])
                and (not entry.get("where") or bool(expression(entry["where"])(card=view(card)))))

    if not entry.get("deck"):
        return [wanted(c) for c in cards for _ in range(c.quantity)]
    out = []
    for part in entry["deck"]:
        chosen = [c for c in cards if expression(part["where"])(card=view(c))]
        if "count" in part:
            verdict = {wanted(c) for c in chosen}
            assert len(verdict) == 1
            out += [verdict.pop()] * part["count"]
        else:
            out += [wanted(c) for c in chosen for _ in range(c.quantity // part.get("share", 1))]
    return out


def test_the_law_is_a_law():
    for size, hits, draws in [(10, 3, 4), (52, 4, 5), (16, 6, 5), (5, 5, 5), (7, 0, 3)]:
        law = [hypergeometric(size, hits, draws, k) for k in range(draws + 1)]
        assert sum(law) == 1 and all(p >= 0 for p in law)
        assert law[1] == Fraction(math.comb(hits, 1) * math.comb(size - hits, draws - 1), math.comb(size, draws))
    with pytest.raises(ValueError):
        hypergeometric(5, 2, 6, 0)


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_pack_declares_a_draw_and_a_monte_carlo_agrees(slug):
    game = game_of(slug)
    entries = game.data.get("odds") or []
    found = odds(game)
    assert found and len(found) == len(entries), slug  # every entry works out
    rng = random.Random(f"{slug}-odds")
    for entry, result in zip(entries, found):
        stack = physical_stack(game, entry)
        assert (result.size, result.hits) == (len(stack), sum(stack)), entry["id"]
        for n in result.draws:
            seen = [sum(rng.sample(stack, n)) for _ in range(TRIALS)]
            checks = [(result.at_least_one[n], sum(1 for s in seen if s >= 1))]
            checks += [(result.exactly[n][k], seen.count(k)) for k in range(result.max_k + 1)]
            for exact, hits in checks:
                p = float(exact)
                error = math.sqrt(max(p * (1 - p), 1e-4) / TRIALS)  # the standard error of the estimate
                assert abs(hits / TRIALS - p) <= 5 * error, (entry["id"], n, p, hits / TRIALS)


def _lines(pdf_path) -> list[str]:
    return [re.sub(r"\s+", " ", line).strip() for text in page_texts(pdf_path) for line in text.splitlines()]


@pytest.mark.parametrize("slug", SHIPPED)
def test_reference_pdf_and_rulebook_html_print_the_computed_tables(all_built, slug):
    game = compile_game(all_built / "cards" / slug, Project(all_built)).game
    lines = _lines(all_built / "output" / slug / "reference.pdf")
    page = (all_built / "output" / slug / "rulebook.html").read_text(encoding="utf-8")
    for result in odds(game):
        header, body = rows(result)
        at = next(i for i, line in enumerate(lines) if line.startswith(summary(result)))
        at = lines.index(" ".join(header), at) - 1  # the summary may run on to a second line (a † explained)
        printed = lines[at + 1:at + 2 + len(body)]
        assert printed == [" ".join(header)] + [" ".join(row) for row in body], result.id
        assert f'aria-label="{result.title}"' in page
        table = page[page.index(f'aria-label="{result.title}"'):]
        table = table[:table.index("</table>")]
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table)]
        assert cells == header + [c for row in body for c in row], result.id


def _project_with(tmp_path, entries: str):
    root = make_project(tmp_path, "gate")
    path = root / "cards" / "gate" / "game.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("\nodds:")] + "\nodds:\n" + entries)
    return root, path


def test_bad_entries_are_diagnostics_at_their_line(tmp_path):
    root, path = _project_with(tmp_path, """\
  - id: no-such-stack
    title: A pile that is not there
    stack: citizen-pile
    draws: 4
  - id: no-such-field
    title: A field no citizen has
    stack: citizen-cards
    draws: 4
    where: "card.costs <= 2"
  - id: too-many
    title: More cards than the deck
    stack: citizen-cards
    draws: 21
""")
    lines = path.read_text().splitlines()
    found = [d for d in compile_game(root / "cards" / "gate", Project(root)).diagnostics if d.code == "odds-invalid"]
    assert len(found) == 3, [d.message for d in found]
    assert lines[found[0].line - 1].strip() == "stack: citizen-pile" and "no stack or component" in found[0].message
    assert "did you mean" in found[0].message or "citizen-cards" in found[0].message
    assert lines[found[1].line - 1].strip().startswith("where:") and "'costs'" in found[1].message
    assert 'did you mean "cost"' in found[1].message
    assert lines[found[2].line - 1].strip() == "draws: 21" and "holds 20 cards" in found[2].message
    assert all(d.file.endswith("game.yaml") for d in found)


def test_a_bad_entry_fails_the_check_command(tmp_path):
    from conftest import run_cli

    root, _ = _project_with(tmp_path, """\
  - id: too-many
    title: More cards than the deck
    stack: citizen-cards
    draws: 21
""")
    result = run_cli("check", "gate", "--root", str(root))
    assert result.exit_code == 1 and "odds-invalid" in result.output
