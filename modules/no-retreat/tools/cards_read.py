"""The 54 strategy cards' facts, read by eye off the card images (data/no-retreat/cards/CardNN.PNG).

Per card: its number (printed in the small circle at the top), the 1945 mark (``no45``: the red struck-out
"45" circle, card leaves the deck in 1945; ``45``: the green "45" circle, card enters in 1945; ``None``: no
mark), then the Axis half (upper, blue-grey title) and the Soviet half (lower, red title). Per half: the
title as printed, when it may be played (codes below, ``|`` separates alternatives the card joins by "or"),
conditions printed with the timing, and the initiative icon beside the title (``cross``: the black and
white Balkenkreuz; ``star``: the red star; ``None``: no icon). Card texts are not transcribed.

Timing codes: ``anytime``; ``own_turn`` (any time in your player turn); ``immediately`` (red: play at once
and draw a new card); ``on_draw`` (red: must be played immediately upon drawing); ``STEP:WHOSE`` where STEP
is ``card_phase``, ``supply_phase_end``, ``organization_phase``, ``organization_phase_start``,
``organization_step``, ``movement_phase``, ``movement_phase_end``, ``commitment_step``, ``counterblow_step``,
``apply_results_step``, ``combat_phase_end``, ``removal_phase``, ``victory_phase``, ``any_phase_end``, ``after_attack_roll``,
``after_ex_result``, ``discarded_for_replacement`` and WHOSE is ``own`` (the playing side's), ``enemy`` or
``any``.
"""

NO45, G45 = "no45", "45"
X, S = "cross", "star"

# number: (mark, (axis title, timing, conditions, icon), (soviet title, timing, conditions, icon))
CARDS = {
    1: (NO45, ("Erich von Manstein", "commitment_step:any|counterblow_step:enemy", "", None), ("New Conscripts", "any_phase_end:any", "", X)),
    2: (NO45, ("Gott mit uns", "anytime", "", None), ("Manpower Reserves", "anytime", "", X)),
    3: (NO45, ("Troop Transfer", "organization_phase:own", "", X), ("Black Sea Fleet", "commitment_step:any", "", None)),
    4: (NO45, ("Elastic Defense", "commitment_step:enemy", "", None), ("Rasputitsa", "commitment_step:enemy", "", X)),
    5: (NO45, ("OKH", "card_phase:own", "", X), ("Cavalry Raid", "organization_phase_start:enemy", "", None)),
    6: (NO45, ("Luftwaffe Support", "commitment_step:any|removal_phase:any", "", X), ("Partisans", "organization_step:own", "", None)),
    7: (NO45, ("Production Problems", "anytime", "", None), ("Scorched Earth", "card_phase:any", "", X)),
    8: (NO45, ("New Tank Design", "commitment_step:any", "", S), ("Allied Lend-Lease", "organization_phase:own", "from turn 6", None)),
    9: (NO45, ("Unseasonal Weather", "immediately", "", None), ("Za Rodinu!", "victory_phase:any|anytime", "", X)),
    10: (NO45, ("Battle Initiative", "movement_phase_end:enemy", "", None), ("Not a Step Back!", "commitment_step:enemy", "", X)),
    11: (NO45, ("Fickle Weather", "immediately", "", None), ("No Mercy!", "commitment_step:any", "", X)),
    12: (NO45, ("Fedor von Bock", "discarded_for_replacement:own", "", X), ("General Mud", "immediately", "", None)),
    13: (NO45, ("Summer Campaign", "card_phase:own", "clear weather only", None), ("General Winter", "immediately", "", None)),
    14: (NO45, ("Inexperienced Soviet Officers", "anytime", "", X), ("Russian Tenacity", "commitment_step:enemy", "", None)),
    15: (NO45, ("Backhand Blow", "commitment_step:own", "", None), ("Strategic Reserves", "combat_phase_end:any", "", X)),
    16: (None, ("Knight's Cross Wearers", "anytime", "", None), ("NKVD", "commitment_step:enemy", "", X)),
    17: (None, ("General Staff", "movement_phase:own|commitment_step:any", "", X), ("Infiltration Tactics", "commitment_step:own", "", None)),
    18: (None, ("Kesselschlacht", "supply_phase_end:any", "", X), ("Strategic Surprise", "card_phase:any", "", None)),
    19: (None, ("Roving Cauldron", "apply_results_step:any", "", S), ("Hitler Orders Attack!", "card_phase:enemy", "", None)),
    20: (None, ("Anti-Bolshevik Crusade", "on_draw", "", None), ("Major Offensive", "card_phase:own", "clear or snow weather only", None)),
    21: (None, ("Expert Leaders", "commitment_step:any", "", None), ("Bridgehead", "commitment_step:own", "", S)),
    22: (None, ("Albert Speer Reorganizes Economy", "anytime", "", S), ("Georgy Zhukov", "commitment_step:any", "", None)),
    23: (None, ("Stalin Orders Attack!", "card_phase:enemy", "", None), ("Sturmoviks!", "commitment_step:any", "from 1943", S)),
    24: (None, ("Hold at All Costs!", "commitment_step:enemy", "", None), ("Western Allied Offensive", "anytime", "", S)),
    25: (None, ("Ersatz Units", "organization_phase:own", "", S), ("Red Orchestra", "anytime", "", None)),
    26: (None, ("Mobile Defense", "counterblow_step:enemy", "", None), ("Na Berlin!", "anytime", "", S)),
    27: (None, ("River Crossing", "commitment_step:own", "", None), ("Ivan Konev", "commitment_step:own", "", S)),
    28: (None, ("Soviet SNAFU", "after_attack_roll:enemy", "", None), ("Katyushas", "commitment_step:own", "", S)),
    29: (None, ("Walter Model", "commitment_step:enemy", "", None), ("Wave Assault", "combat_phase_end:own", "", S)),
    30: (None, ("Last Reserves", "card_phase:any", "", S), ("Andrei Yeremenko", "after_attack_roll:enemy", "", None)),
    31: (None, ("Stalin's Interference", "anytime", "", None), ("Allied Strategic Bombing!", "anytime", "", S)),
    32: (None, ("Counteroffensive", "commitment_step:enemy", "", None), ("Prepared Offensive", "movement_phase:own", "", S)),
    33: (None, ("Siege Artillery", "commitment_step:any", "", X), ("Stavka", "anytime", "", None)),
    34: (None, ("Soviet Logistics Problems", "commitment_step:any", "", S), ("Conflicting Hitler Directives", "anytime", "", None)),
    35: (None, ("Soviet Manpower Crisis", "organization_phase:own", "from 1944", S), ("Maskirovka", "movement_phase_end:own", "", None)),
    36: (None, ("Surprise Attack", "movement_phase_end:enemy", "", X), ("Hitler's Interference", "anytime", "", None)),
    37: (None, ("Heinz Guderian", "commitment_step:own", "", X), ("Russian Courage", "counterblow_step:enemy", "", None)),
    38: (None, ("Hedgehogs", "commitment_step:enemy", "", None), ("Industrial Surge", "own_turn", "", S)),
    39: (None, ("Operational Moves", "movement_phase_end:enemy", "", None), ("Russian Steam Roller", "card_phase:own", "", S)),
    40: (None, ("Das Vaterland", "victory_phase:any|anytime", "", S), ("Great Patriotic War", "on_draw", "", None)),
    41: (None, ("Defensive Works", "organization_phase:own", "", S), ("Central Command", "movement_phase_end:enemy", "", None)),
    42: (None, ("Soviet Industrial Relocation", "card_phase:enemy", "", X), ("Seymon Timoshenko", "commitment_step:enemy", "", None)),
    43: (None, ("Panzerblitz!", "movement_phase_end:enemy", "clear weather only", X), ("Heroes of the Soviet Union!", "anytime", "", None)),
    44: (None, ("Paul von Kleist", "apply_results_step:any", "", X), ("Axis Allies Waver", "card_phase:enemy", "", None)),
    45: (G45, ("Desperate Offensive", "card_phase:own", "", None), ("Last Fascist Ally", "on_draw", "", None)),
    46: (G45, ("Führer's Bunker", "on_draw", "", None), ("Konstantin Rokossovsky", "commitment_step:any", "", None)),
    47: (G45, ("Lebensraum", "on_draw", "", None), ("Heavy Artillery", "commitment_step:own", "", None)),
    48: (G45, ("Festung Deutschland", "organization_phase:own", "", None), ("War in Finland", "on_draw", "", None)),
    49: (G45, ("Volkssturm Levies", "organization_phase:own", "", None), ("Balkan Politics", "on_draw", "", None)),
    50: (G45, ("Sacred East Prussia", "on_draw", "", None), ("Hurrah!", "commitment_step:any", "", None)),
    51: (G45, ("Wacht am Rhein", "on_draw", "", None), ("One Last Push!", "after_ex_result:own", "", None)),
    52: (G45, ("Gotthard Heinrici", "commitment_step:enemy", "", None), ("Josip Broz Tito", "on_draw", "", None)),
    53: (G45, ("Volksgrenadiers", "organization_phase:own", "", None), ("Soviet Revenge", "on_draw", "", None)),
    54: (G45, ("Götterdämmerung!", "on_draw", "", None), ("Stalin Tanks", "commitment_step:any", "", None)),
}
