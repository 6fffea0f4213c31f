"""The JSON Schemas of the files designers write (fsm/scenarios/schema.py): made from the loaders'
words, shipped as generated, named by every library file, and agreeing with the loaders on the
malformed corpus (tests/data/malformed/)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from fsm.cli import main
from fsm.errors import BadInput
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.goals import load_puzzle
from fsm.scenarios.playing import play
from fsm.scenarios.schema import NAMES, file_name, schema, shipped, text
from fsm.scenarios.schema_words import WORDS
from fsm.spec.ruleset import builtin

REPO = Path(__file__).resolve().parents[1]
MALFORMED = REPO / "tests" / "data" / "malformed"
#: The library: every file a designer may copy, and the schema its first line names.
LIBRARY = [
    *sorted((REPO / "scenarios").glob("*.yaml")),
    *sorted((REPO / "designs").glob("*.yaml")),
    *sorted((REPO / "designs").glob("*.toml")),
    *sorted((REPO / "puzzles").glob("*.yaml")),  # issue 25's library
    *sorted((REPO / "goals").glob("*.yaml")),
    *sorted((REPO / "tests" / "data" / "puzzles").glob("*.yaml")),
    *(REPO / "fsm" / "rules" / "data" / f for f in ("kinds.toml", "timings.toml", "price_parts.toml")),
]


def _read(path: Path) -> Any:
    if path.suffix == ".toml":
        return tomllib.loads(path.read_text(encoding="utf-8"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _named_schema(path: Path) -> Path:
    """The schema a file names on its first line (yaml-language-server's or taplo's directive)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    directive = "#:schema " if path.suffix == ".toml" else "# yaml-language-server: $schema="
    assert first.startswith(directive), f"{path}: the first line does not name a schema: {first!r}"
    return (path.parent / first.removeprefix(directive).strip()).resolve()


def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name))


@pytest.mark.parametrize("name", NAMES)
def test_the_shipped_schemas_are_the_generated_ones(name: str) -> None:
    """schemas/ and the package's copy are what the loaders' vocabularies make now: a new kind,
    effect, variant or key changes the generated schema, and this fails until both are rewritten
    (`fsm schema --write schemas` and `fsm schema --write fsm/scenarios/schemas`)."""
    made = text(name)
    assert (REPO / "schemas" / file_name(name)).read_text(encoding="utf-8") == made
    assert shipped(name) == made


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_fsm_schema_prints_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["schema", "scenario"]) == 0
    assert json.loads(capsys.readouterr().out) == schema("scenario")
    assert main(["schema", "--write", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(file_name(n) for n in NAMES)
    assert main(["schema"]) == 2


def test_fsm_schema_with_a_designers_rules_knows_its_kind(capsys: pytest.CaptureFixture[str]) -> None:
    """AB-1: with --rules the designer's kind 【休息】 (rest) is one the scenario schema offers."""
    assert main(["schema", "scenario", "--rules", str(REPO / "designs" / "rest.toml")]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "rest" in printed["$defs"]["ability"]["properties"]["kind"]["anyOf"][0]["enum"]
    assert "rest" not in schema("scenario")["$defs"]["ability"]["properties"]["kind"]["anyOf"][0]["enum"]


def _descriptions(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["description"]] if isinstance(node.get("description"), str) else []
        return found + [d for v in node.values() for d in _descriptions(v)]
    if isinstance(node, list):
        return [d for v in node for d in _descriptions(v)]
    return []


def _properties(node: Any) -> list[tuple[str, Any]]:
    if isinstance(node, dict):
        own = list(node.get("properties", {}).items()) if isinstance(node.get("properties"), dict) else []
        return (
            own
            + [p for k, v in node.items() if k != "properties" for p in _properties(v)]
            + [p for v in node.get("properties", {}).values() for p in _properties(v)]
        )
    if isinstance(node, list):
        return [p for v in node for p in _properties(v)]
    return []


@pytest.mark.parametrize("name", NAMES)
def test_every_property_is_described_in_english_and_japanese_with_its_clause(name: str) -> None:
    """Each property's hover text has an English part and a Japanese part, each citing a clause of
    the catalogue (the strict overlays and a designer's existing words refer to described ones)."""
    described = 0
    for key, prop in _properties(schema(name)):
        if "$ref" in prop or set(prop) <= {"properties", "items", "additionalProperties", "anyOf"}:
            continue  # a reference to a described definition, or the strict overlay of one
        words = prop.get("description", "")
        english, _sep, japanese = words.partition("\n\n")
        assert english and japanese, f"{name}: {key} has no English and Japanese description"
        assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in japanese), key
        clause = english.rsplit("(", 1)[-1].rstrip(")")
        assert clause in CLAUSES and f"（{clause}）" in japanese, f"{name}: {key} cites {clause!r}"
        described += 1
    assert described >= 20


def test_the_words_table_cites_only_catalogue_clauses() -> None:
    cited = {clause for part in WORDS.values() for _en, _ja, clause in part.values()}
    assert cited <= set(CLAUSES), sorted(cited - set(CLAUSES))


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: str(p.relative_to(REPO)))
def test_every_library_file_names_its_schema_and_passes_it(path: Path) -> None:
    """Every file of scenarios/, designs/ and puzzles/ (and the built-in data files) names the
    schema it is written to on its first line, and passes it."""
    named = _named_schema(path)
    assert named.is_file(), f"{path} names {named}, which does not exist"
    expected = _kind_of(path)
    assert named.name == file_name(expected)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator(expected).iter_errors(_read(path))]
    assert not errors, f"{path}: {errors[:5]}"


def _kind_of(path: Path) -> str:
    """The schema a library file is written to, by where it lives."""
    if path.suffix == ".toml":
        return "designer"
    return {"puzzles": "puzzle", "goals": "goal"}.get(path.parent.name, "scenario")


def test_the_library_is_read_with_its_schema_line() -> None:
    """The loaders read the files as they are (the schema line is a comment): each scenario plays,
    each designer's file extends the rules."""
    for path in LIBRARY:
        if path.suffix == ".toml":
            builtin().extend(path)
        elif _kind_of(path) == "puzzle":
            load_puzzle(path)
        elif _kind_of(path) == "scenario":
            play(path, expectations=False)


def _loader_refuses(path: Path) -> bool:
    try:
        if path.suffix == ".toml":
            builtin().extend(path)
        else:
            play(path)
    except BadInput:
        return True
    return False


def test_the_malformed_corpus_is_refused_by_both_the_schema_and_the_loader() -> None:
    """Each file of tests/data/malformed/ has one mistake (its second line says which); the schema
    and the loader both refuse every one, and the failure names each file either lets through."""
    corpus = sorted(MALFORMED.glob("*.yaml")) + sorted(MALFORMED.glob("*.toml"))
    assert len(corpus) >= 30
    schema_lets_through = []
    loader_lets_through = []
    for path in corpus:
        name = "designer" if path.suffix == ".toml" else "scenario"
        if _validator(name).is_valid(_read(path)):
            schema_lets_through.append(path.name)
        if not _loader_refuses(path):
            loader_lets_through.append(path.name)
    assert not schema_lets_through, f"the schema lets through: {schema_lets_through}"
    assert not loader_lets_through, f"the loader lets through: {loader_lets_through}"


def test_without_rules_a_kind_must_be_built_in_and_with_rules_any_text_is_taken() -> None:
    """AB-1: a scenario without `rules:` can only name built-in kinds; one with a designer's
    `rules:` may name the designer's (designs/rest.yaml names kind: rest)."""
    data = _read(MALFORMED / "kind_unknown.yaml")
    assert not _validator("scenario").is_valid(data)
    assert _validator("scenario").is_valid({**data, "rules": ["rest.toml"]})


def test_a_goal_is_an_expect_block_and_a_puzzle_a_scenario_with_a_puzzle_block() -> None:
    """Issue 25's files: a goal file is what expect: holds; a puzzle block is {player, goal, moves, hint}."""
    goal = {"outcomes": {"岩砕き": {"result": "fizzled", "clause": "ACT-6"}}, "actor": "B"}
    assert _validator("goal").is_valid(goal)
    assert not _validator("goal").is_valid({"winner": "A"})
    scenario = _read(REPO / "scenarios" / "action_fizzles_after_counter.yaml")
    puzzle = {**scenario, "puzzle": {"player": "B", "goal": goal, "moves": 2, "hint": "足止め"}}
    assert _validator("puzzle").is_valid(puzzle)
    assert not _validator("puzzle").is_valid({**scenario, "puzzle": {"player": "B", "goal": goal, "moves": 0}})
    assert not _validator("scenario").is_valid(puzzle)  # the scenario loader knows no puzzle: yet


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return own + [p for v in node.values() for p in _patterns(v)]
    if isinstance(node, list):
        return [p for v in node for p in _patterns(v)]
    return []


def test_every_pattern_is_a_javascript_regular_expression_too() -> None:
    """yaml-language-server runs in node: each pattern must compile there (with the u flag) as well as
    in Python's re, which jsonschema uses."""
    import re
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (scripts/setup.sh installs it with the front-end tools)")
    patterns = sorted({p for name in NAMES for p in _patterns(schema(name))})
    for p in patterns:
        re.compile(p)
    script = "const ps = JSON.parse(require('fs').readFileSync(0, 'utf8')); for (const p of ps) new RegExp(p, 'u');"
    done = subprocess.run([node, "-e", script], input=json.dumps(patterns), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(patterns) >= 10
