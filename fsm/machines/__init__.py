"""The python-statemachine 3.x StateCharts and what runs them: each kind's procedure (declare →
counter window → recheck → resolve / fizzle), the counter chain, the game flow and its battle steps,
the trace each transition leaves, and the same machines compiled into tables for exploring.

May import: ``fsm.spec`` and below."""
