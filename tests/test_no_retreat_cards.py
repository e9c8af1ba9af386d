"""No Retreat! cards: the facts read off the 54 card images, and the 1945 marks checked on the images."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO.parent / "shared" / "data" / "no-retreat" / "cards"
TIMING_STEPS = {
    "card_phase", "supply_phase_end", "organization_phase", "organization_phase_start", "organization_step",
    "movement_phase", "movement_phase_end", "commitment_step", "counterblow_step", "apply_results_step",
    "combat_phase_end", "removal_phase", "victory_phase", "any_phase_end", "after_attack_roll", "after_ex_result",
    "discarded_for_replacement",
}


@pytest.fixture(scope="module")
def cards():
    return load_module(REPO / "modules" / "no-retreat").tables["cards"]["cards"]


def test_every_card_has_two_halves_with_known_timing(cards):
    assert sorted(cards, key=int) == [str(n) for n in range(1, 55)]
    for number, card in cards.items():
        for side in ("axis", "soviet"):
            half = card[side]
            assert half["side"] == side and half["title"]
            for timing in half["timing"]:
                step, _, whose = timing.partition(":")
                assert timing in ("anytime", "own_turn", "immediately", "on_draw") or (step in TIMING_STEPS and whose in ("own", "enemy", "any")), (number, timing)


def test_cards_read_by_hand(cards):
    assert cards["26"]["soviet"]["title"] == "Na Berlin!" and cards["26"]["soviet"]["initiative"] == "soviet"
    assert cards["4"]["soviet"] == {"side": "soviet", "title": "Rasputitsa", "timing": ["commitment_step:enemy"], "initiative": "axis"}
    assert cards["17"]["axis"]["timing"] == ["movement_phase:own", "commitment_step:any"]
    assert cards["8"]["soviet"]["condition"] == "from turn 6"
    marks = [cards[str(n)]["deck_1945"] for n in range(1, 55)]
    assert marks == ["removed"] * 15 + ["both"] * 29 + ["added"] * 10


@pytest.mark.skipif(not CARDS.is_dir(), reason="../shared/data/no-retreat/cards is not beside the repository")
def test_1945_marks_against_the_images(cards):
    from PIL import Image

    for number, card in cards.items():
        with Image.open(CARDS / f"Card{int(number):02d}.PNG") as image:
            corner = image.convert("RGB").crop((15, 15, 50, 50))
        pixels = [corner.getpixel((x, y)) for x in range(corner.width) for y in range(corner.height)]
        red = sum(1 for r, g, b in pixels if r > 180 and g < 80 and b < 80)
        green = sum(1 for r, g, b in pixels if g > 100 and r < 80 and b < 120)
        seen = "removed" if red > 50 else "added" if green > 50 else "both"
        assert seen == card["deck_1945"], number
