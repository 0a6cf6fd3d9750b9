"""Contract rummy rules: every C-14 parameter in one frozen value, presets, validation.

``rules_from_dict`` starts from the ``seed_002`` preset (or ``{"preset": name}``) and
applies the given values; unknown or ill-typed values are refused, all at once, each
naming its parameter.

The text parameters are :class:`~enum.StrEnum` members whose values are the C-14 words:
``rules.after_buy_turn == "resume"`` still holds, ``rules_to_dict`` writes the same
strings, and ``ContractRules(after_buy_turn="resume")`` takes the word.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from rummy.cards import RANKS
from rummy.errors import RulesError as RulesError  # re-exported: one error for both games
from rummy.rule_words import words_to_members


# The text parameters of C-14, one enum each; the values are the words of the table.
class AceInSequences(StrEnum):  # C-2.3
    LOW_OR_HIGH = "low_or_high"  # A-2-3 or Q-K-A
    LOW_ONLY = "low_only"
    AROUND_CORNER = "around_corner"  # K-A-2 too


class DealerRotation(StrEnum):  # C-4.1
    LEFT = "left"


class AfterBuyTurn(StrEnum):  # C-8.6
    JUMP = "jump"
    RESUME = "resume"


class NextPlayerRefusal(StrEnum):  # C-8.4, C-12.2
    BUY_AND_PASS = "buy_and_pass"
    TAKE_AS_DRAW = "take_as_draw"


class Winner(StrEnum):  # C-7.4
    HIGHEST_TOTAL = "highest_total"


# The enum of each text parameter (C-14).
OPTIONS: dict[str, type[StrEnum]] = {
    "ace_in_sequences": AceInSequences,
    "dealer_rotation": DealerRotation,
    "after_buy_turn": AfterBuyTurn,
    "next_player_refusal": NextPlayerRefusal,
    "winner": Winner,
}

# C-7.3: A = 15, K/Q/J = 10, 2-10 pip (index 0 = ace ... 12 = king).
DEFAULT_CARD_VALUES: tuple[int, ...] = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


@dataclass(frozen=True, slots=True)
class Contract:
    """What a player must lay down in one deal, "no more and no less" (C-3.1)."""

    sets: int = 0
    sequences: int = 0

    @property
    def groups(self) -> int:
        return self.sets + self.sequences

    def describe(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set" + ("s" if self.sets > 1 else ""))
        if self.sequences:
            parts.append(f"{self.sequences} sequence" + ("s" if self.sequences > 1 else ""))
        return " and ".join(parts) or "nothing"

    def to_dict(self) -> dict[str, int]:
        d: dict[str, int] = {}
        if self.sets:
            d["sets"] = self.sets
        if self.sequences:
            d["seqs"] = self.sequences
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Contract:
        """``{"sets": 2}`` / ``{"sets": 1, "seqs": 1}``; ``ValueError`` naming the problem."""
        if not isinstance(d, Mapping):
            raise ValueError(f"a contract is a table like {{sets = 1, seqs = 1}}, got {d!r}")
        unknown = set(d) - {"sets", "seqs"}
        if unknown:
            raise ValueError(f"unknown contract key(s) {sorted(unknown)} (use 'sets', 'seqs')")
        vals = []
        for key in ("sets", "seqs"):
            v = d.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 4:
                raise ValueError(f"contract {key!r} must be an integer 0..4, got {v!r}")
            vals.append(v)
        if vals[0] + vals[1] == 0:
            raise ValueError("a contract needs at least one set or sequence")
        return cls(vals[0], vals[1])


# C-3 table, SEED 002: 2 sets; set + sequence; 2 sequences; 3 sets; 2 sets + sequence.
SEED_CONTRACTS: tuple[Contract, ...] = (
    Contract(sets=2),
    Contract(sets=1, sequences=1),
    Contract(sequences=2),
    Contract(sets=3),
    Contract(sets=2, sequences=1),
)


@dataclass(frozen=True, slots=True)
class ContractRules:
    """Every configurable rule of C-14 (defaults = the ``seed_002`` preset)."""

    num_players: int = 4  # C-1.1
    decks: int = 2  # C-1.2
    jokers: int = 0  # C-1.2 (no jokers; only 0 is supported)
    cards_per_deal: tuple[int, ...] = (10, 10, 10, 10, 12)  # C-3.3
    contracts: tuple[Contract, ...] = SEED_CONTRACTS  # C-3
    contract_distinct: bool = True  # C-3.2
    min_set_len: int = 3  # C-2.1
    min_sequence_len: int = 3  # C-2.1
    ace_in_sequences: AceInSequences = AceInSequences.LOW_OR_HIGH  # C-2.3
    dealer_rotation: DealerRotation = DealerRotation.LEFT  # C-4.1
    contract_in_one_turn: bool = True  # C-5.2, C-15.3
    layoff_requires_contract: bool = True  # C-5.2
    layoff_same_turn_as_contract: bool = True  # C-5.2
    forbid_discarding_taken_card: bool = True  # C-5.3
    last_deal_no_discard_out: bool = True  # C-6.3
    after_buy_turn: AfterBuyTurn = AfterBuyTurn.JUMP  # C-8.6
    next_player_refusal: NextPlayerRefusal = NextPlayerRefusal.BUY_AND_PASS  # C-8.4, C-12.2
    penalty_out_of_turn_per_card: int = 1  # C-8.4, C-8.5
    penalty_in_turn_first_card: int = 0  # C-8.2
    in_turn_single_card_buy: bool = False  # C-8.2
    refuser_may_take_more: bool = True  # C-8.5
    forbid_own_discards_in_buy: bool = True  # C-8.1, C-12.9
    max_buys_per_deal: int | None = None  # C-8.7
    buy_after_contract: bool = True  # C-8.7
    stock_refills: int = 1  # C-10.2
    refill_shuffle: bool = True  # C-10.3
    card_values: tuple[int, ...] = DEFAULT_CARD_VALUES  # C-7.3
    finisher_bonus: int = 20  # C-7.1
    winner: Winner = Winner.HIGHEST_TOTAL  # C-7.4

    def __post_init__(self) -> None:
        words_to_members(self, OPTIONS, game="contract")  # a C-14 word given as text

    @property
    def deals(self) -> int:
        """Number of deals in a match (5)."""
        return len(self.contracts)

    @property
    def max_set_len(self) -> int:
        """C-1.2: one rank has 4 cards per pack, so 8 with two packs."""
        return 4 * self.decks

    def value(self, rank: int) -> int:
        """Penalty value of a card of ``rank`` (C-7.3)."""
        return self.card_values[rank - 1]


PRESETS: dict[str, ContractRules] = {
    "seed_002": ContractRules(),
    # The American May-I reading: play resumes with the player in turn; runs of four.
    "american_may_i": ContractRules(after_buy_turn=AfterBuyTurn.RESUME, min_sequence_len=4),
}


def preset(name: str) -> ContractRules:
    """A named preset: ``seed_002`` (default) or ``american_may_i``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown contract rules preset {name!r}; known: {', '.join(PRESETS)}") from None


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _convert(name: str, v: Any) -> Any:
    """Check and convert one parameter; ``ValueError`` with the reason."""
    bools = {
        "contract_distinct", "contract_in_one_turn", "layoff_requires_contract",
        "layoff_same_turn_as_contract", "forbid_discarding_taken_card",
        "last_deal_no_discard_out", "in_turn_single_card_buy", "refuser_may_take_more",
        "forbid_own_discards_in_buy", "buy_after_contract", "refill_shuffle",
    }
    ranges = {
        "num_players": (2, 6), "decks": (1, 3), "jokers": (0, 0), "min_set_len": (3, 8),
        "min_sequence_len": (3, 4), "penalty_out_of_turn_per_card": (0, 5),
        "penalty_in_turn_first_card": (0, 5), "stock_refills": (0, 10),
        "finisher_bonus": (-1000, 1000),
    }
    choices = {name: tuple(kind) for name, kind in OPTIONS.items()}
    if name in bools:
        if not isinstance(v, bool):
            raise ValueError(f"must be true or false, got {v!r}")
        return v
    if name in ranges:
        lo, hi = ranges[name]
        if not _int(v):
            raise ValueError(f"must be an integer, got {v!r}")
        if not lo <= v <= hi:
            if name == "jokers":
                raise ValueError(f"only 0 is supported (the seed plays without jokers), got {v}")
            raise ValueError(f"must be {lo}..{hi}, got {v}")
        return v
    if name in choices:
        if v not in choices[name]:
            raise ValueError(f"must be one of {', '.join(choices[name])}; got {v!r}")
        return OPTIONS[name](v)
    if name == "max_buys_per_deal":
        if v is None or v == "none":
            return None
        if not _int(v) or v < 0:
            raise ValueError(f"must be a non-negative integer or none, got {v!r}")
        return v
    if name == "cards_per_deal":
        # C-14: any positive count; whether the packs can deal it is checked with the
        # number of players and decks in rules_from_dict (and new_match).
        if not isinstance(v, list | tuple) or not v or not all(_int(x) and x >= 1 for x in v):
            raise ValueError(f"must be a list of positive card counts, got {v!r}")
        return tuple(v)
    if name == "contracts":
        if not isinstance(v, list | tuple) or not v:
            raise ValueError(f"must be a list of contracts like {{sets = 2}}, got {v!r}")
        out = []
        for i, c in enumerate(v, start=1):
            try:
                out.append(c if isinstance(c, Contract) else Contract.from_dict(c))
            except ValueError as exc:
                raise ValueError(f"deal {i}: {exc}") from None
        return tuple(out)
    if name == "card_values":
        if isinstance(v, list | tuple):
            if len(v) != 13 or not all(_int(x) and 0 <= x <= 100 for x in v):
                raise ValueError("as a list it needs 13 values 0..100, ace first")
            return tuple(v)
        if not isinstance(v, Mapping):
            raise ValueError(f"must map ranks ({RANKS}) to values, got {v!r}")
        vals = list(DEFAULT_CARD_VALUES)
        for key, x in v.items():
            r = str(key).upper().replace("10", "T")
            if len(r) != 1 or r not in RANKS:
                raise ValueError(f"{key!r} is not a rank (one of {RANKS})")
            if not _int(x) or not 0 <= x <= 100:
                raise ValueError(f"value of {key!r} must be an integer 0..100, got {x!r}")
            vals[RANKS.index(r)] = x
        return tuple(vals)
    raise ValueError("unknown parameter")  # pragma: no cover


FIELD_NAMES = tuple(f.name for f in fields(ContractRules))


def rules_from_dict(data: Mapping[str, Any]) -> ContractRules:
    """Rules from a dict (TOML table / journal header); every problem reported at once."""
    if isinstance(data, ContractRules):
        return data
    if not isinstance(data, Mapping):
        raise RulesError(
            [f"rules must be a table of parameters, got {type(data).__name__}"], game="contract"
        )
    problems: list[str] = []
    base = PRESETS["seed_002"]
    if "preset" in data:
        try:
            base = preset(str(data["preset"]))
        except ValueError as exc:
            problems.append(f"preset: {exc}")
    values: dict[str, Any] = {}
    for key, v in data.items():
        if key == "preset":
            continue
        if key == "max_set_len":
            continue  # derived (C-14); checked below
        if key not in FIELD_NAMES:
            problems.append(f"{key}: unknown parameter")
            continue
        try:
            values[key] = _convert(key, v)
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
    rules = replace(base, **values)
    if "max_set_len" in data and data["max_set_len"] != rules.max_set_len:
        problems.append(
            f"max_set_len: derived from decks ({rules.max_set_len} with {rules.decks} decks), "
            f"got {data['max_set_len']!r}"
        )
    if not problems:
        if len(rules.cards_per_deal) != len(rules.contracts):
            problems.append(
                f"cards_per_deal: {len(rules.cards_per_deal)} entries but "
                f"{len(rules.contracts)} contracts (one per deal)"
            )
        if rules.min_set_len > rules.max_set_len:
            problems.append(f"min_set_len: {rules.min_set_len} exceeds {rules.max_set_len} cards")
        if rules.num_players * max(rules.cards_per_deal) + 1 > 52 * rules.decks:
            problems.append(
                f"cards_per_deal: {rules.num_players} players x {max(rules.cards_per_deal)} cards "
                f"do not fit in {rules.decks} deck(s)"
            )
    if problems:
        raise RulesError(problems, game="contract")
    return rules


def rules_to_dict(rules: ContractRules) -> dict[str, Any]:
    """JSON/TOML-ready form; ``rules_from_dict(rules_to_dict(r)) == r``."""
    d: dict[str, Any] = {}
    for f in fields(ContractRules):
        v = getattr(rules, f.name)
        if f.name == "contracts":
            v = [c.to_dict() for c in v]
        elif f.name == "card_values":
            v = {RANKS[i]: x for i, x in enumerate(v)}
        elif isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, StrEnum):
            v = v.value  # the word, as a plain string
        d[f.name] = v
    return d
