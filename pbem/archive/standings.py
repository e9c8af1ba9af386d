"""Standings of an archive's players: wins, losses, draws and an Elo rating, from each game's recorded result.

A game's result is the text stored with it (``archive add --result``, or ``game.json``'s ``"result"``): the id of
the winning side (``soviet``, ``cp``), the module's name for it (``Central Powers``) or ``draw`` (case and
surrounding spaces ignored). Any other text, or none, leaves the game unrated: it is listed, never guessed. A game is rated only when it has exactly two sides with named
players and the result names one of them (or is a draw).

Elo (docs/archive.md): games are taken in the order they finished (then by game number); a side's rating is the
mean of its players' ratings; with ``E = 1 / (1 + 10 ** ((R_other - R_side) / 400))`` and ``S`` = 1 for a win,
0.5 for a draw, 0 for a loss, every player of the side gets ``K * (S - E)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

START_RATING = 1500.0
K_FACTOR = 32.0
DRAW = "draw"


def name_key(name: str) -> str:
    """How the archive tells players apart: the name without surrounding spaces, case folded."""
    return name.strip().casefold()


def outcome(result: str | None, players: dict[str, list[str]], side_names: dict[str, str] | None = None) -> tuple[str, str | None]:
    """How the game ended for the standings: ``("win", side)``, ``("draw", None)``, or ``("unrated", why)``.

    The result names a side by its id (``cp``) or by the module's name for it (``Central Powers``, ``side_names``).
    """
    if result is None or not result.strip():
        return "unrated", "no result recorded"
    sides = [side for side, names in players.items() if any(n.strip() for n in names)]
    if len(sides) != 2:
        return "unrated", f"{len(sides)} side(s) with named players, not 2"
    said = result.strip().casefold()
    if said == DRAW:
        return "draw", None
    names = side_names if isinstance(side_names, dict) else {}
    for side in sides:
        if said in (side.strip().casefold(), str(names.get(side, side)).strip().casefold()):
            return "win", side
    return "unrated", "the result names neither side nor a draw"


@dataclass
class Standing:
    key: str
    name: str
    rating: float = START_RATING
    wins: int = 0
    losses: int = 0
    draws: int = 0
    unrated: int = 0
    history: dict[int, tuple[float, float]] = field(default_factory=dict)  # game id -> (rating before, after)

    @property
    def rated(self) -> int:
        return self.wins + self.losses + self.draws


def expected_score(rating: float, other: float) -> float:
    """Elo's expected score of a side rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def standings(games: list[dict[str, Any]]) -> dict[str, Standing]:
    """Every player's standing, by name key. ``games``: dicts with ``id``, ``finished``, ``result``, ``players``."""
    table: dict[str, Standing] = {}

    def of(name: str) -> Standing:
        key = name_key(name)
        if key not in table:
            table[key] = Standing(key, name.strip())
        return table[key]

    for game in sorted(games, key=lambda g: (g.get("finished") or "", g["id"])):
        players = game["players"]
        kind, winner = outcome(game.get("result"), players, game.get("side_names"))
        seated = {side: list(dict.fromkeys(of(n).key for n in names if n.strip())) for side, names in players.items()}
        if kind == "unrated":
            for keys in seated.values():
                for key in keys:
                    table[key].unrated += 1
            continue
        (side_a, keys_a), (side_b, keys_b) = [(s, k) for s, k in seated.items() if k]
        if set(keys_a) & set(keys_b):  # one player on both sides: not a contest between players
            for key in set(keys_a) | set(keys_b):
                table[key].unrated += 1
            continue
        mean_a = sum(table[k].rating for k in keys_a) / len(keys_a)
        mean_b = sum(table[k].rating for k in keys_b) / len(keys_b)
        score_a = 0.5 if kind == DRAW else (1.0 if winner == side_a else 0.0)
        for keys, score, mine, theirs in ((keys_a, score_a, mean_a, mean_b), (keys_b, 1.0 - score_a, mean_b, mean_a)):
            change = K_FACTOR * (score - expected_score(mine, theirs))
            for key in keys:
                standing = table[key]
                before = standing.rating
                standing.rating = before + change
                standing.history[game["id"]] = (before, standing.rating)
                if score == 1.0:
                    standing.wins += 1
                elif score == 0.0:
                    standing.losses += 1
                else:
                    standing.draws += 1
    return table


def player_result(game: dict[str, Any], key: str) -> str:
    """``win``, ``loss``, ``draw`` or ``-`` (unrated) for the player ``key`` in ``game``."""
    kind, winner = outcome(game.get("result"), game["players"], game.get("side_names"))
    if kind == DRAW:
        return "draw"
    if kind != "win":
        return "-"
    mine = [side for side, names in game["players"].items() if any(name_key(n) == key for n in names)]
    if len(mine) != 1:
        return "-"
    return "win" if mine[0] == winner else "loss"
