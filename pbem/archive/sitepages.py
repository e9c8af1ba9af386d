"""The pages of ``pbem archive site``: the game index (search and filters in the page), standings, player pages.

Pages are built as strings from the archive's facts; every piece of archive text goes through :func:`text`.
Filters work on ``data-*`` attributes whose values pbem makes (player slugs, module numbers, fixed words), never
on archive text, and the page's script reads the page only with ``textContent``: no archive text is ever parsed
as HTML or script. Every page carries the replay viewer's content-security policy: nothing is fetched.
"""

from __future__ import annotations

import html
from typing import Any

from pbem.archive.safetext import printable
from pbem.archive.standings import K_FACTOR, START_RATING, Standing, name_key, outcome, player_result

POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def text(value: object) -> str:
    """Archive text as HTML: control characters, bidi overrides and lone surrogates as visible escapes
    (``\\u202e``), then ``< > & " '`` as entities."""
    return html.escape(printable("" if value is None else str(value)), quote=True)


_CSS = """
:root{--ink:#222;--muted:#666;--line:#d8d4c8;--bg:#faf8f2;--head:#3b4a3f;--win:#1f6f33;--loss:#a3261b;--draw:#7a6a12}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
header{background:var(--head);color:#fff;padding:10px 20px;display:flex;gap:24px;align-items:baseline;flex-wrap:wrap}
header .site{margin:0;font-size:20px;font-weight:600}
h1{font-size:22px;margin:4px 0 14px}
header nav a{color:#fff;margin-right:16px;text-decoration:none;border-bottom:2px solid transparent}
header nav a.here{border-bottom-color:#e0b03a}
main{padding:16px 20px;max-width:1400px}
h2{font-size:17px;margin:20px 0 8px}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:#efece2;font-weight:600;position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.date{white-space:nowrap}
tr:hover td{background:#f6f3ea}
a{color:#1b4f8a}
.side{color:var(--muted);font-size:13px}
.vs{color:var(--muted);margin:0 4px}
.win{color:var(--win);font-weight:600}.loss{color:var(--loss);font-weight:600}.draw{color:var(--draw);font-weight:600}
.bad{color:var(--loss)}.ok{color:var(--win)}
#filters{display:flex;gap:12px;flex-wrap:wrap;align-items:center;margin-bottom:12px}
#filters input[type=search]{width:18em;padding:5px 8px;font-size:15px}
#filters select{padding:4px;font-size:14px;max-width:13em}
#filters .dates{white-space:nowrap}
#count{color:var(--muted)}
.cards{display:flex;gap:14px;flex-wrap:wrap;margin:8px 0 4px}
.card{background:#fff;border:1px solid var(--line);padding:8px 14px;min-width:7em}
.card b{display:block;font-size:22px}
.note{max-width:60em;color:var(--muted);font-size:13px}
"""

_FILTER_JS = """
(function(){
  var rows = Array.prototype.slice.call(document.querySelectorAll('#games tbody tr'));
  var q = document.getElementById('q'), fm = document.getElementById('f-module'), fp = document.getElementById('f-player'),
      fr = document.getElementById('f-result'), fv = document.getElementById('f-verdict'), count = document.getElementById('count'),
      since = document.getElementById('f-since'), until = document.getElementById('f-until');
  function apply(){
    var words = q.value.toLowerCase().split(/\\s+/).filter(Boolean), shown = 0;
    rows.forEach(function(row){
      var hay = row.textContent.toLowerCase();
      var ok = words.every(function(w){ return hay.indexOf(w) >= 0; })
        && (!fm.value || row.getAttribute('data-module') === fm.value)
        && (!fp.value || (' ' + row.getAttribute('data-players') + ' ').indexOf(' ' + fp.value + ' ') >= 0)
        && (!fr.value || row.getAttribute('data-result') === fr.value)
        && (!fv.value || row.getAttribute('data-verdict') === fv.value)
        && (!since.value || row.getAttribute('data-finished') >= since.value)
        && (!until.value || (row.getAttribute('data-finished') && row.getAttribute('data-finished') <= until.value));
      row.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' game' + (rows.length === 1 ? '' : 's');
  }
  [q, fm, fp, fr, fv, since, until].forEach(function(el){ el.addEventListener('input', apply); el.addEventListener('change', apply); });
  apply();
})();
"""


def _page(title: str, body: str, *, here: str, site: str, root: str = "", script: str = "") -> str:
    """A page of the site: ``site`` (plain text: the club's name) and the links across the top, ``title`` (HTML)
    heading the page."""
    nav = "".join(
        f'<a href="{root}{target}"{" class=here" if target == here else ""}>{label}</a>'
        for target, label in (("index.html", "Games"), ("standings.html", "Standings"))
    )
    js = f"<script>{script}</script>" if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title} · {text(site)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f'<header><span class="site">{text(site)}</span><nav>{nav}</nav></header>\n<main>\n<h1>{title}</h1>\n{body}\n</main>\n{js}\n</body>\n</html>\n'
    )


def with_site_links(viewer_page: str) -> str:
    """The replay viewer's page with a way back to the site (the page's own template, before any game data)."""
    link = ('<nav style="padding:4px 12px;font:14px system-ui,sans-serif"><a href="../index.html">← all games</a>'
            ' · <a href="../standings.html">standings</a></nav>')  # fmt: skip
    return viewer_page.replace("<body>", "<body>\n" + link, 1)


def _players_html(game: dict[str, Any], slugs: dict[str, str], root: str) -> str:
    parts = []
    for side, names in game["players"].items():
        links = ", ".join(f'<a href="{root}players/{slugs[name_key(n)]}.html">{text(n)}</a>' for n in names if name_key(n) in slugs)
        parts.append(f'{links} <span class="side">({_side(game, side)})</span>')
    return '<span class="vs">vs</span>'.join(parts) or '<span class="muted">-</span>'


def _side(game: dict[str, Any], side: str) -> str:
    """A side as the module names it ("Central Powers"), else as stored."""
    names = game.get("side_names")
    return text(names.get(side, side) if isinstance(names, dict) else side)


def _verdict(game: dict[str, Any]) -> str:
    if game["ok"]:
        return '<span class="ok">legal</span>'
    n = int(game["violations"])
    return f'<span class="bad">{n} violation{"" if n == 1 else "s"}</span>'


def _result_html(game: dict[str, Any]) -> str:
    kind, why = outcome(game.get("result"), game["players"], game.get("side_names"))
    if not (game.get("result") or "").strip():
        return '<span class="muted">none</span>'
    shown = text(game["result"])
    if kind == "win":
        return f'<span title="recorded: {shown}">{_side(game, str(why))} won</span>'
    if kind == "draw":
        return f'<span class="draw" title="recorded: {shown}">draw</span>'
    return f'{shown} <span class="side" title="{text(why)}">(not rated)</span>'


def _game_link(game: dict[str, Any], root: str) -> str:
    label = text(game["title"]) if game.get("title") else f"replay #{int(game['id'])}"
    if game.get("replay"):
        return f'<a href="{root}games/{int(game["id"])}.html">{label}</a>'
    return f'{label} <span class="side">{text(game.get("note") or "no replay")}</span>'


def index_page(summaries: list[dict[str, Any]], table: dict[str, Standing], slugs: dict[str, str], site: str) -> str:
    """Every game, newest first, with search and filters."""
    modules = sorted({g["module"] for g in summaries})
    module_ids = {m: f"m{k}" for k, m in enumerate(modules)}
    module_names = {g["module"]: g.get("module_name") or g["module"] for g in summaries}
    rows = []
    for g in sorted(summaries, key=lambda g: (g.get("finished") or "", g["id"]), reverse=True):
        kind, _ = outcome(g.get("result"), g["players"], g.get("side_names"))
        result = "none" if not (g.get("result") or "").strip() else {"win": "decided", "draw": "draw"}.get(kind, "unrated")
        players = " ".join(sorted({slugs[name_key(n)] for names in g["players"].values() for n in names if name_key(n) in slugs}))
        rows.append(
            f'<tr data-module="{module_ids[g["module"]]}" data-players="{players}" data-result="{result}"'
            f' data-verdict="{"legal" if g["ok"] else "violations"}" data-finished="{text(g.get("finished") or "")}">'
            f'<td class="num">{int(g["id"])}</td><td>{_game_link(g, "")}</td><td>{text(module_names[g["module"]])}</td>'
            f'<td>{text(g.get("scenario") or "-")}</td><td>{_players_html(g, slugs, "")}</td>'
            f'<td class="date">{text(g.get("started") or "-")}</td><td class="date">{text(g.get("finished") or "-")}</td>'
            f"<td>{_result_html(g)}</td><td>{_verdict(g)}</td></tr>"
        )
    module_options = "".join(f'<option value="{module_ids[m]}">{text(module_names[m])}</option>' for m in modules)
    people = sorted(table.values(), key=lambda s: (printable(s.name).casefold(), s.key))
    player_options = "".join(f'<option value="{slugs[s.key]}">{text(s.name)}</option>' for s in people)
    body = f"""<div id="filters">
<input id="q" type="search" placeholder="Search players, modules, results…" aria-label="search">
<select id="f-module" aria-label="module"><option value="">every module</option>{module_options}</select>
<select id="f-player" aria-label="player"><option value="">every player</option>{player_options}</select>
<select id="f-result" aria-label="result"><option value="">any result</option><option value="decided">won by a side</option>
<option value="draw">draw</option><option value="unrated">result not rated</option><option value="none">no result</option></select>
<select id="f-verdict" aria-label="verdict"><option value="">any verdict</option><option value="legal">all legal</option>
<option value="violations">with violations</option></select>
<span class="dates"><label>finished from <input id="f-since" type="date"></label> <label>to <input id="f-until" type="date"></label></span>
<span id="count">{len(summaries)} games</span>
</div>
<table id="games"><thead><tr><th class="num">#</th><th>Game (replay)</th><th>Module</th><th>Scenario</th><th>Players (side)</th>
<th>Started</th><th>Finished</th><th>Result</th><th>Verdict</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<p class="note">Search matches every word in any column; the filters narrow it further. A game's verdict is pbem's check of its
turn files against the module's rules; the result is what the players recorded. Everything works offline, in this page.</p>"""
    return _page("Games", body, here="index.html", site=site, script=_FILTER_JS)


_ELO_NOTE = (
    f"Ratings are Elo: everyone starts at {START_RATING:.0f}; games are counted in the order they finished. "
    f"For each rated game, a side's expected score is E = 1 / (1 + 10<sup>(R<sub>other</sub> − R<sub>side</sub>)/400</sup>) "
    f"(R: the mean rating of the side's players) and each of its players gains K × (S − E), with K = {K_FACTOR:.0f} and "
    "S = 1 for a win, ½ for a draw, 0 for a loss. A game is rated when its recorded result names one of its two sides, "
    "or is “draw”; games with no result, or one that names neither side, are listed but not rated."
)


def _standings_table(table: dict[str, Standing], slugs: dict[str, str], attributes: str) -> str:
    """Players by rating (those with no rated game last), as one table."""
    people = sorted(table.values(), key=lambda s: (s.rated == 0, -s.rating, printable(s.name).casefold(), s.key))
    rows = []
    rank = 0
    for s in people:
        rank += 1 if s.rated else 0
        rows.append(
            f'<tr><td class="num">{rank if s.rated else "-"}</td><td><a href="players/{slugs[s.key]}.html">{text(s.name)}</a></td>'
            f'<td class="num">{round(s.rating) if s.rated else "-"}</td><td class="num">{s.rated}</td>'
            f'<td class="num">{s.wins}</td><td class="num">{s.losses}</td><td class="num">{s.draws}</td><td class="num">{s.unrated}</td></tr>'
        )
    return f"""<table {attributes}><thead><tr><th class="num">Rank</th><th>Player</th><th class="num">Rating</th>
<th class="num">Rated games</th><th class="num">Won</th><th class="num">Lost</th><th class="num">Drawn</th><th class="num">Not rated</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>"""


def standings_page(table: dict[str, Standing], slugs: dict[str, str], site: str,
                   by_module: dict[str, tuple[str, dict[str, Standing]]] | None = None) -> str:  # fmt: skip
    """Every player by rating over all the club's games, then a table per module (``by_module``: module id ->
    (its name, the standings of its games alone)) for each module with a rated game: a rating earned at one game
    says little about another."""
    sections = []
    for module_id, (name, own) in sorted((by_module or {}).items(), key=lambda item: (printable(item[1][0]).casefold(), item[0])):
        if any(s.rated for s in own.values()):
            sections.append(f"<h2>{text(name)}</h2>\n" + _standings_table(own, slugs, f'class="standings-module" data-module="{text(module_id)}"'))
    modules = "\n".join(sections)
    body = f"""{_standings_table(table, slugs, 'id="standings"')}
<p class="note">{_ELO_NOTE}</p>
{modules}"""
    return _page("Standings", body, here="standings.html", site=site)


def player_page(standing: Standing, mine: list[dict[str, Any]], table: dict[str, Standing], slugs: dict[str, str], site: str) -> str:
    """A player's record: rating, results, games (newest first) and the dice on record."""
    rows = []
    for g in sorted(mine, key=lambda g: (g.get("finished") or "", g["id"]), reverse=True):
        sides = [side for side, names in g["players"].items() if any(name_key(n) == standing.key for n in names)]
        outcome_ = player_result(g, standing.key)
        before_after = standing.history.get(g["id"])
        change = f"{before_after[1] - before_after[0]:+.0f}" if before_after else "-"
        others = {side: names for side, names in g["players"].items() if side not in sides}
        rows.append(
            f'<tr><td class="date">{text(g.get("finished") or "-")}</td><td>{_game_link(g, "../")}</td><td>{text(g.get("module_name") or g["module"])}'
            f' <span class="side">{text(g.get("scenario") or "")}</span></td><td>{", ".join(_side(g, s) for s in sides)}</td>'
            f'<td>{_players_html({**g, "players": others}, slugs, "../")}</td><td>{_result_html(g)}</td>'
            f'<td class="{outcome_ if outcome_ != "-" else "muted"}">{outcome_}</td><td class="num">{change}</td><td>{_verdict(g)}</td></tr>'
        )
    rating = f"{round(standing.rating)}" if standing.rated else "unrated"
    cards = "".join(
        f'<div class="card"><span class="muted">{label}</span><b>{value}</b></div>'
        for label, value in (("Rating", rating), ("Won", standing.wins), ("Lost", standing.losses), ("Drawn", standing.draws),
                             ("Not rated", standing.unrated), ("Games", len(mine)))  # fmt: skip
    )
    body = f"""<div class="cards">{cards}</div>
<h2>Games</h2>
<table id="player-games"><thead><tr><th>Finished</th><th>Game (replay)</th><th>Module</th><th>Side</th><th>Opponents</th>
<th>Result</th><th>For this player</th><th class="num">Rating ±</th><th>Verdict</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<h2>Dice on record</h2>
{_dice_html(standing, mine)}"""
    return _page(text(standing.name), body, here="", site=site, root="../")


def _dice_html(standing: Standing, mine: list[dict[str, Any]]) -> str:
    """The player's kept rolls over all their games: counts per face and a chi-square test per die type."""
    from pbem.engine.dice import DiceRecord, DieRoll
    from pbem.engine.dicestats import MEANING, dice_stats

    rolls = []
    for g in mine:
        for key, purpose, count, sides, faces, total in g.get("rolls") or []:
            if key == standing.key:
                rolls.append(DieRoll(f"game {g['id']}", "", standing.name, str(purpose), int(count), int(sides),
                                     tuple(faces) if faces is not None else None, int(total)))  # fmt: skip
    if not rolls:
        return '<p class="muted">No roll of this player is on record (their games\' files show none, or a team rolled them).</p>'
    stats = dice_stats(DiceRecord(rolls=rolls))
    purposes = ", ".join(f"{text(p)} {n}" for p, n in sorted(stats.by_player_purpose.get(standing.name, {}).items()))
    rows = []
    for group in stats.groups:
        counts = " ".join(f"{face}:{n}" for face, n in group.faces.items())
        test = f"{group.p_value:.3f}" if group.p_value is not None else "-"
        rows.append(
            f'<tr><td>{text(group.die)}</td><td class="num">{group.observations}</td><td>{text(counts)}</td>'
            f'<td class="num">{group.mean if group.mean is not None else "-"}</td><td class="num">{group.expected_mean}</td>'
            f'<td class="num">{test}</td><td class="side">{text(group.note or "")}</td></tr>'
        )
    return f"""<p>{len(rolls)} kept roll(s) in {len({r.file for r in rolls})} game(s): {purposes}.</p>
<table id="dice"><thead><tr><th>Dice</th><th class="num">Rolls</th><th>Count per face (or total)</th><th class="num">Mean</th>
<th class="num">Expected mean</th><th class="num">p-value</th><th>Note</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<p class="note">{text(MEANING)}</p>"""
