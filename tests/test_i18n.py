"""Message catalogues (issue 17): every message the code marks has a Japanese and an English
translation with the same placeholders, and the language is chosen as fsm/i18n.py says."""

from __future__ import annotations

import os
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from fsm import i18n
from fsm.errors import BadInput

REPO = Path(__file__).resolve().parents[1]


def _catalogue(lang: str) -> Catalog:
    with i18n.po_path(lang).open("rb") as f:
        return read_po(f, abort_invalid=True)  # a merge left in the file is a line Babel cannot read


def _marked() -> set[str]:
    """Every message id the code marks with _(), gettext() or N_() (what pybabel extracts)."""
    found = extract_from_dir(REPO / "fsm", method_map=[("**.py", "python")])
    return {message for _file, _line, message, _comments, _context in found if isinstance(message, str)}


def _placeholders(text: str) -> list[tuple[str, str | None, str]]:
    """The ``{name!r:spec}`` fields of a format string, as a sorted list (a field may repeat)."""
    fields = [(name, conv, spec or "") for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None]
    return sorted(fields, key=repr)


def _problems(catalogue: Catalog, marked: set[str]) -> list[str]:
    by_id = {m.id: m for m in catalogue if m.id}
    out = [f"not in the catalogue: {mid!r}" for mid in sorted(marked - set(by_id))]
    for mid, m in sorted(by_id.items()):
        if not isinstance(m.string, str) or not m.string.strip():
            out.append(f"no translation: {mid!r}")
        elif m.fuzzy:
            out.append(f"fuzzy (unchecked) translation: {mid!r}")
        elif _placeholders(m.string) != _placeholders(str(mid)):
            out.append(f"placeholders differ: {mid!r} -> {m.string!r}")
    return out


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    problems = _problems(_catalogue(lang), _marked())
    assert not problems, f"fsm/locale/{lang}: run scripts/messages.sh and translate (docs/i18n.md): {problems}"


def test_the_check_catches_a_missing_translation_and_a_changed_placeholder() -> None:
    catalogue = Catalog(locale="ja")
    catalogue.add("wrote {count} files to {folder}", "{folder} に {count} 個")
    catalogue.add("no outcome", "")
    catalogue.add("{move}: legal here", "{手}: 合法")
    catalogue.add("the number {value}", "数 {value!r}")
    problems = _problems(catalogue, {"wrote {count} files to {folder}", "no outcome", "set-up"})
    assert problems == [
        "not in the catalogue: 'set-up'",
        "no translation: 'no outcome'",
        "placeholders differ: 'the number {value}' -> '数 {value!r}'",
        "placeholders differ: '{move}: legal here' -> '{手}: 合法'",
    ]


def test_messages_are_extracted() -> None:
    marked = _marked()
    assert {"PASS {file}", "unknown key {key!r} in {what}; allowed: {allowed}", "set-up"} <= marked


# ---------------------------------------------------------------- choosing the language


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No language asked for anywhere: no variable, and none chosen by an earlier test or command."""
    for var in ("FSM_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(i18n, "_chosen", None)
    return monkeypatch


def test_language_order_explicit_then_chosen_then_fsm_lang_then_locale_then_english(
    clean_env: pytest.MonkeyPatch,
) -> None:
    assert i18n.language() == "en"
    clean_env.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.language() == "ja"
    clean_env.setenv("FSM_LANG", "en")
    assert i18n.language() == "en"
    with i18n.using("ja"):
        assert i18n.language() == "ja"
        assert i18n.language("en") == "en"
    assert i18n.language() == "en"  # using() restores the choice


def test_locale_variables_in_gettext_order(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("LANG", "ja_JP.UTF-8")
    clean_env.setenv("LC_ALL", "C.UTF-8")  # LC_ALL wins over LANG and names no language of ours
    assert i18n.language() == "en"
    clean_env.setenv("LANGUAGE", "fr:ja")
    assert i18n.language() == "ja"


def test_unknown_language_is_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown language 'fr'"):
        i18n.gettext("set-up", lang="fr")


def test_gettext_translates_and_falls_back_to_english() -> None:
    assert i18n.gettext("set-up", lang="ja") == "準備"
    assert i18n.gettext("set-up", lang="en") == "set-up"
    assert i18n.gettext("a message nobody translated", lang="ja") == "a message nobody translated"


def test_a_po_newer_than_its_mo_is_compiled_on_first_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translator's edit counts at once, without a reinstall, and the .mo is brought up to date."""
    po = tmp_path / "ja" / "LC_MESSAGES" / "fsm.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(i18n.po_path("ja").read_bytes().replace("準備".encode(), "じゅんび".encode()))
    stale = po.with_suffix(".mo")
    stale.write_bytes(i18n.compile_po(i18n.po_path("ja")))
    os.utime(stale, (0, 0))
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.gettext("set-up", lang="ja") == "じゅんび"
        assert stale.read_bytes() == i18n.compile_po(po)
        assert set(stale.parent.iterdir()) == {po, stale}  # no temporary file left behind
    finally:
        i18n.translations.cache_clear()


# ---------------------------------------------------------------- the command line


def _fsm(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("FSM_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "fsm", *argv],
        cwd=REPO,
        env={**clean, "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8", **env},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


FIZZLE = "scenarios/action_fizzles_after_counter.yaml"


def test_fsm_run_lang_ja_says_pass_in_japanese() -> None:
    out = _fsm("run", "--lang", "ja", "-q", FIZZLE, FIZZLE).stdout
    assert out.splitlines() == [f"成功 {FIZZLE}", f"成功 {FIZZLE}", "成功 2、失敗 0、書式の誤り 0"]


def test_lang_before_the_subcommand_and_fsm_lang_choose_japanese_too() -> None:
    assert _fsm("--lang", "ja", "run", "-q", FIZZLE).stdout == f"成功 {FIZZLE}\n"
    assert _fsm("run", "-q", FIZZLE, FSM_LANG="ja").stdout == f"成功 {FIZZLE}\n"
    assert _fsm("run", "-q", FIZZLE, FSM_LANG="ja", LANG="en_GB.UTF-8").stdout == f"成功 {FIZZLE}\n"
    assert _fsm("run", "-q", "--lang", "en", FIZZLE, FSM_LANG="ja").stdout == f"PASS {FIZZLE}\n"


def test_english_is_the_default() -> None:
    assert _fsm("run", "-q", FIZZLE).stdout == f"PASS {FIZZLE}\n"


def test_help_texts_are_translated() -> None:
    out = _fsm("run", "--help", "--lang", "ja").stdout
    assert "シナリオファイル" in out and "scenario files" not in out


def test_bad_input_is_reported_in_japanese(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nunits: {岩の巨人: {owner: C}}\n", encoding="utf-8")
    r = _fsm("run", "--lang", "ja", str(bad))
    assert r.returncode == 2
    assert r.stderr == f"fsm run: {bad}:2 (owner): owner は A か B にしてください（書かれていたのは 'C'）\n"


def test_unknown_fsm_lang_is_said_and_ignored() -> None:
    r = _fsm("run", "-q", FIZZLE, FSM_LANG="fr")
    assert r.stdout == f"PASS {FIZZLE}\n"
    assert "FSM_LANG='fr'" in r.stderr and "ignored" in r.stderr


def test_lang_outside_ja_en_is_refused_by_the_parser() -> None:
    r = _fsm("run", "--lang", "fr", FIZZLE)
    assert r.returncode == 2 and "invalid choice: 'fr'" in r.stderr


def test_the_install_compiles_the_catalogues(tmp_path: Path) -> None:
    """setup.py's build step (what `pip install` and a wheel run) writes each .mo from its .po."""
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        check=True,
        timeout=120,
    )
    for lang in i18n.LANGUAGES:
        mo = tmp_path / i18n.po_path(lang).relative_to(REPO).with_suffix(".mo")
        assert mo.read_bytes() == i18n.compile_po(i18n.po_path(lang)), lang
