"""Scenario files: reading YAML with line numbers, building the table and game, playing the moves,
checking ``expect:``; following a file's script; narrating a run for a terminal.

May import: ``fsm.engine`` and below."""
