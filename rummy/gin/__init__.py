"""Gin rummy (rules spec G-x). Re-exports the meld solver only (no engine imports here)."""

from rummy.gin.melds import best_melds, deadwood

__all__ = ["best_melds", "deadwood"]
