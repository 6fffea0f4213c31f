"""What the words of a spec do on a table, and the specs read against them: effects, prices,
recheck conditions (``fizzle_if``), resolution categories, paying, each a registry entry; the kind
specs (``kinds.toml``), the ruleset and designer files; and what the rules read off a table (``board``).
A new kind, price or timing is data here, never an edit to the engine.

May import: ``fsm.table``, ``fsm.rules`` and below."""
