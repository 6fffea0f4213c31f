"""The exhaustive explorer: from a scenario's position, every line of play to its ending (depth
first, or each table's fewest moves with ``--depth``), over processes with ``--jobs``, remembering
visited tables as 64-bit digests.

May import: ``fsm.scenarios`` and below; never a renderer."""
