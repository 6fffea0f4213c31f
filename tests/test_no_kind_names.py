"""The engine names no kind and no vocabulary word (issue 12): which kind a move declares is data
(kinds.toml ``move = ...``, AB-1), and what each price, frequency, usable, recheck or effect word
means is asked of its registry or of the kind spec (fsm/spec/kinds.py, fsm/spec/prices.py, fsm/spec/effects.py,
fsm/spec/recheck.py, fsm/spec/resolutions.py), never spelled out in the engine's parts.

The scan looks at every string literal of the engine's modules.  A literal equal to a vocabulary
word is allowed only where it plainly belongs to another namespace that happens to share the
spelling: a flow state (``flow.at("battle")``), a verb (``Move("attack", ...)``), a zone or card type
(``card.zone == "equipped"``, ``card.type == "equip"``), what a counter is answered during
(``during="speed"``), a quick-summon step (``own_step(player, "equip")``), a key of a table.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from fsm.scenarios.building import TARGET_KINDS
from fsm.spec import kinds
from fsm.spec.effects import EFFECTS
from fsm.spec.prices import PRICES
from fsm.spec.recheck import RECHECKS
from fsm.spec.ruleset import builtin
from fsm.table.moves import VERBS

REPO = Path(__file__).resolve().parents[1]

#: The engine and its parts (README, Layout).
PARTS = [
    "engine/game.py", "spec/board.py", "engine/legality.py", "engine/declaring.py", "engine/candidates.py",
    "engine/play.py", "engine/resolving.py", "engine/narration.py", "engine/seat.py", "machines/steps.py",
]  # fmt: skip

#: Every word the registries and kinds.toml own.
WORDS = {
    *builtin().kinds, *kinds.CATEGORIES, *PRICES, *kinds.FREQUENCIES, *kinds.USABLE, *RECHECKS, *EFFECTS,
}  # fmt: skip

#: Where a literal belongs to another namespace (see the module's docstring).
OTHER_ATTRIBUTES = {"zone", "type", "during", "verb", "id", "role"}  # compared with or assigned to these
OTHER_CALLS = {
    "at",
    "Move",
    "_move",
    "own_step",
}  # a flow state, a verb (Move, or candidates' cached _move), a quick-summon step
OTHER_NAMES = {"during", "source"}  # keyword arguments or variables: what a counter answers during, an item's source
#: Tuples all of whose words are of one other namespace: verbs, or what a card may target.
OTHER_TUPLES = (set(VERBS), set(TARGET_KINDS))


def _attr(n: ast.AST) -> bool:
    return isinstance(n, ast.Attribute) and (
        n.attr in OTHER_ATTRIBUTES or (isinstance(n.value, ast.Attribute) and n.value.attr == "variants")
    )


def _other_namespace(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents[node]
    if isinstance(parent, ast.Tuple):
        words = {e.value for e in parent.elts if isinstance(e, ast.Constant)}
        if len(words) == len(parent.elts) and any(words <= names for names in OTHER_TUPLES):
            return True
    if isinstance(parent, (ast.Tuple, ast.IfExp)):  # `x in ("hand", "revealed")`, `"a" if c else "b"`
        return _other_namespace(parent, parents)
    if isinstance(parent, ast.BoolOp):  # `names or "none"`: the fallback text of a message
        return isinstance(parent.op, ast.Or) and node is parent.values[-1]
    if isinstance(parent, ast.Call):
        func = parent.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in OTHER_CALLS
    if isinstance(parent, ast.keyword):
        return parent.arg in OTHER_NAMES
    if isinstance(parent, ast.Compare):
        return any(_attr(n) for n in (parent.left, *parent.comparators))
    if isinstance(parent, ast.Assign):
        targets = [t for tgt in parent.targets for t in (tgt.elts if isinstance(tgt, ast.Tuple) else [tgt])]
        return any(_attr(t) or (isinstance(t, ast.Name) and t.id in OTHER_NAMES) for t in targets)
    if isinstance(parent, ast.Dict):
        return node in parent.keys
    return False


def named_words(source: str) -> Iterator[tuple[str, int]]:
    """(word, line) for each literal equal to a vocabulary word outside another namespace."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in sorted(ast.walk(tree), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        if isinstance(node, ast.Constant) and node.value in WORDS and not _other_namespace(node, parents):
            yield str(node.value), node.lineno


def test_ab1_the_engine_and_its_parts_name_no_kind_and_no_vocabulary_word() -> None:
    """AB-1: a designer's kind is data; the engine reads a kind from the move (``kind_for``) or the
    ability, and asks the spec or the registry what a word means."""
    found = {
        name: hits for name in PARTS if (hits := list(named_words((REPO / "fsm" / name).read_text(encoding="utf-8"))))
    }
    assert found == {}


def test_the_scan_catches_a_kind_or_a_word_named_in_code() -> None:
    """The scan is not blind: the old engine's lines are found, another namespace's are not."""
    old = (
        'spec = self.rules.kinds["attack"]\n'
        'if spec.category == "skill": pass\n'
        'ok = spec.usable in ("battle_start", "continuous")\n'
        'roll = ChainItem(1, "speed_roll", leader, None, "speed")\n'
        'bonus = self._continuous_effects(unit, "speed")\n'
        'limited = spec.targets == "battle"\n'
        'known = names or "none" if spec.price == "none" else ""\n'
    )
    assert [w for w, _ in named_words(old)] == [
        "attack", "skill", "battle_start", "continuous", "speed_roll", "speed", "speed", "battle", "none",
    ]  # fmt: skip
    other = (
        'if self.flow.at("battle"): pass\n'
        'yield Move("attack", actor)\n'
        'if card.type == "equip" and c.zone in ("hand", "field"): pass\n'
        'u.zone, u.geo = "field", b.geo\n'
        'during = "speed" if self.flow.at("speed") else "any"\n'
        'self.declare(m, spec, during="attack")\n'
        'ties = self.variants.speed_tie == "reroll"\n'
        'op = "speed"\n'
    )
    assert [w for w, _ in named_words(other)] == ["speed"]  # a bare variable is no other namespace
