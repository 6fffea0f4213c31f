"""The table and its parts: units, cards, geos, the chain's items and the battle in progress, as
copy-on-write parts (``sharing``); moves as text (``moves``); and what a rule word may ask of a game
(``protocol``).  Pure data: no rule decides anything here.

May import: ``fsm.rules`` and below."""
