"""``Game``, the one surface everything uses (legal moves / apply / why not / snapshot–restore /
log), and its parts: legality (the clause that forbids a move), declaring, move candidates, what a
move does, resolving an item, the narrated log, and the seat the parts see of the game.

May import: ``fsm.machines`` and below."""
