"""Five-deal contract rummy with "Можно?" buying (seed 002; spec C-1 … C-15).

Action kinds (``rummy.contract.kinds.ActionKind``; seat = who acts):

* ``deal`` (TABLE, ``cards`` = the 104-card order): deals the next deal (C-4).
* ``draw_stock`` / ``draw_discard`` (player in turn N): the turn's card (C-5.1).
* ``buy``: the BUY button.
  - From any other seat while the window is open (phase ``turn``) or while the question is
    travelling: asks "Можно?" for the top pack card (C-8.3). Priority is by seat, the nearest
    to N after the discarder wins (C-8.8), never by press order.
  - From N in phase ``turn`` with ``target`` = k ≥ 2: N's in-turn buy of the top k cards,
    one stock card for each card after the first, no discard (C-8.2).
* ``no_buy`` (an asker in the window): pass on the card (bots; a table never needs it).
* ``answer`` (the asked seat): ``flag`` True = "Можно" (may), False = "Нельзя" (the refuser
  buys the card himself, C-8.4; the player in turn takes it as his ordinary draw instead
  under ``take_as_draw`` or when a buy limit stops him buying, C-12.2, C-8.7). The table's
  answer timeout submits the asked seat's ``answer`` True.
* ``take_cards`` (the buyer, ``target`` = k): how many pack cards from the top a granted
  buyer or refuser takes, one stock card each (free first card for N) (C-8.5).
* ``meld`` (N, ``melds`` = every group of the contract at once, C-15.3).
* ``lay_off`` (N, ``card``, ``target`` = a table meld id, anyone's melds) (C-5.2).
* ``discard`` (N, ``card``): ends the turn; going out when it is the last card (C-6).

Phases (``state.phase``, ``rummy.contract.kinds.Phase``): ``deal`` → ``turn`` (window) → [``ask`` → ``take``] → ``play`` →
``turn`` … → ``over``. ``rummy.contract.engine.ENGINE`` implements the GameEngine
interface; presets ``seed_002`` (default) and ``american_may_i`` are in ``rules``.
"""
