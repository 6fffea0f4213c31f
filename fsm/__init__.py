"""Timing rules of a Japanese trading-card game, modelled as python-statemachine StateCharts."""

__version__ = "0.1.0"
