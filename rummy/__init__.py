"""Pure rules engine for Rummy Table: cards, melds, gin, contract rummy, scoring, bots, records.

Nothing here imports pygame, gpiozero, serial, ``device`` or ``display`` (a test enforces it).
"""

__version__ = "0.1.0"
