"""The rules' own words, as data: the clause catalogue, skill symbols (SYM-*), timings and their
legality table (TIM-*), the parts a 代償 may take, the named rule variants, and the registry type the
vocabularies share.  Nothing here knows a table or a machine; ``data/`` holds the TOML.

May import: ``fsm.errors``, ``fsm.i18n``."""
