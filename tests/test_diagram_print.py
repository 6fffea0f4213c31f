"""Print-ready diagrams (issue 15): PDF with embedded fonts, PNG resolution, one language, no
clause IDs, a print style, self-contained SVG, and machines whose drawings say one thing."""

from __future__ import annotations

import base64
import io
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from fsm.cli import main
from fsm.machines.battle import GameFlow
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import procedure_class
from fsm.render import diagrams as D
from fsm.render import timing_map
from fsm.render.dot import dot_source, run_dot
from fsm.render.export import write_all
from fsm.render.fonts import EMBEDDED, text_of
from fsm.render.graph import LabelledState, labelled_graph, walk_states
from fsm.render.styles import A4_COLUMN_PT
from fsm.rules.catalogue import CLAUSES
from fsm.spec.ruleset import builtin

ACTION = procedure_class(builtin().kinds["action"])
CLAUSE_ID = re.compile(r"\b(?:" + "|".join(map(re.escape, CLAUSES)) + r")\b")


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


# ---------------------------------------------------------------- formats


def test_pdf_embeds_every_font(tmp_path: Path) -> None:
    """`--format pdf` writes Graphviz's cairo PDF, and pdffonts lists every font as embedded."""
    pdffonts = shutil.which("pdffonts")
    assert pdffonts, "pdffonts is missing: run ./scripts/setup.sh test (Debian package poppler-utils)"
    assert main(["diagrams", "--out", str(tmp_path), "--format", "pdf", "--lang", "ja"]) == 0
    pdfs = sorted(tmp_path.glob("*.pdf"))
    assert {p.stem for p in pdfs} == {d.stem for d in D.machines()} | {"timing_map"}
    for pdf in (tmp_path / "kind_action.pdf", tmp_path / "timing_map.pdf"):
        lines = subprocess.run([pdffonts, str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()
        fonts = lines[2:]  # after the heading and its rule
        assert fonts, f"{pdf.name}: no fonts at all"
        assert any("IPAexGothic" in f for f in fonts), fonts
        for font in fonts:
            emb = font[font.index("Identity-H" if "Identity-H" in font else "WinAnsi") :].split()[1]
            assert emb == "yes", f"{pdf.name}: not embedded: {font}"


def test_dpi_sets_the_png_resolution() -> None:
    """`--dpi 300` draws a PNG 300/96 times as many pixels across as the default."""
    small = _png_size(bytes(D.render_machine(ACTION, fmt="png")))
    large = _png_size(bytes(D.render_machine(ACTION, fmt="png", dpi=300)))
    assert large[0] == pytest.approx(small[0] * 300 / 96, rel=0.03)
    assert large[1] == pytest.approx(small[1] * 300 / 96, rel=0.03)


def test_cli_rejects_a_bad_dpi_and_fold(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["diagrams", "--out", str(tmp_path), "--dpi", "lots"])
    assert "dots per inch" in capsys.readouterr().err
    assert main(["diagrams", "--out", str(tmp_path), "--fold", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert "'nowhere' is not a compound state" in err and "battle" in err
    assert not list(tmp_path.iterdir())  # refused before writing anything


# ---------------------------------------------------------------- language and clauses


@pytest.mark.parametrize("machine", [ACTION, CounterChain, GameFlow], ids=lambda m: m.__name__)
def test_one_language_and_no_clause_ids(machine: type) -> None:
    """`--lang en --clauses off`: each state reads in one language, and no label cites a clause."""
    graph, _ = labelled_graph(machine)
    terms = [s.term for s in walk_states(graph.states) if isinstance(s, LabelledState) and s.term.ja != s.term.en]
    en = text_of(str(D.render_machine(machine, "en", "svg", clauses=False)))
    ja = text_of(str(D.render_machine(machine, "ja", "svg", clauses=False)))
    assert terms
    for term in terms:
        assert term.en in en and term.ja not in en, term
        assert term.ja in ja and term.en not in ja, term
    assert not CLAUSE_ID.search(en + ja), CLAUSE_ID.search(en + ja)
    assert CLAUSE_ID.search(text_of(str(D.render_machine(machine, "ja", "svg"))))


# ---------------------------------------------------------------- the print style


def _svg_width_pt(svg: str) -> float:
    m = re.search(r'<svg width="([\d.]+)pt"', svg)
    assert m
    return float(m.group(1))


@pytest.mark.parametrize("clauses", [True, False], ids=["clauses", "no-clauses"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_print_style_is_at_least_10pt_at_an_a4_column(lang: str, clauses: bool) -> None:
    """Every text of every machine, in one language, is ≥ 10 pt once scaled to an A4 column."""
    too_small = []
    for d in D.machines():
        assert d.machine is not None
        source, _ = dot_source(d.machine, D.Style(lang, clauses, printed=True))
        svg = run_dot(source, "svg", embed_fonts=False).decode("utf-8")  # the layout is all this needs
        scale = min(1.0, A4_COLUMN_PT / _svg_width_pt(svg))
        smallest = min(float(x) for x in re.findall(r'font-size="([\d.]+)"', svg))
        if smallest * scale < 10:
            too_small.append(f"{d.stem}: {smallest * scale:.1f} pt")
    assert not too_small


def test_print_style_is_black_and_white_and_tells_fizzles_apart() -> None:
    """In print every colour is a grey, and what colour told on screen is told by line style:
    the fizzle (不発) state and the edges into it dashed, the resolution's border heavier."""
    dot = str(D.render_machine(ACTION, "ja", "dot", printed=True))
    colours = set(re.findall(r"#([0-9a-fA-F]{6})", dot))
    assert colours
    assert all(c[0:2] == c[2:4] == c[4:6] for c in colours), colours
    fizzled = re.search(r"\bfizzled \[[^\]]*\]", dot)
    resolved = re.search(r"\bresolved \[[^\]]*\]", dot)
    assert fizzled and "dashed" in fizzled.group()
    assert resolved and "dashed" not in resolved.group() and "penwidth=2.5" in resolved.group()
    assert re.search(r"-> fizzled \[[^\]]*style=dashed", dot)


# ---------------------------------------------------------------- self-contained SVG


def _embedded_font(svg: str) -> TTFont:
    m = re.search(r"@font-face\{font-family:'([^']+)';src:url\(\"data:font/woff;base64,([^\"]+)\"\)", svg)
    assert m, "no embedded @font-face"
    assert m.group(1) == EMBEDDED
    return TTFont(io.BytesIO(base64.b64decode(m.group(2))))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svg")
    write_all(out, formats=("svg",))
    return out


@pytest.mark.parametrize("stem", ["kind_action", "counter_chain", "timing_map"])
def test_svg_depends_on_no_system_font(written: Path, stem: str) -> None:
    """Every text names the embedded glyph subset first (then a generic fallback), and that
    subset has a glyph for every character the SVG shows: a machine without IPAexGothic draws
    it the same, boxes still fit."""
    svg = (written / f"{stem}.svg").read_text(encoding="utf-8")
    families = set(re.findall(r'font-family="([^"]+)"', svg))
    assert families == {f"{EMBEDDED},IPAexGothic,sans-serif"}, families
    cmap = _embedded_font(svg).getBestCmap()
    missing = sorted({ch for ch in text_of(svg) if ch.strip() and ord(ch) not in cmap})
    assert not missing, missing
    assert "<text" in svg  # still text: searchable, selectable


def test_committed_svgs_are_self_contained() -> None:
    for svg in sorted(Path(__file__).resolve().parents[1].joinpath("diagrams").glob("*.svg")):
        text = svg.read_text(encoding="utf-8")
        assert "@font-face" in text and 'font-family="IPAexGothic"' not in text, svg.name


# ---------------------------------------------------------------- unambiguous machines


def test_tim_ctr3_both_items_remain_edges_have_guards() -> None:
    """TIM-CTR-3: of the two "items remain" edges out of resolving, one needs the variant
    counters_between_resolutions on and the other needs it off, so exactly one applies."""
    edges = [
        t
        for t in CounterChain.resolving.transitions
        if t.target is CounterChain.resolving or (t.target is CounterChain.priority_opponent)
    ]
    assert len(edges) == 2
    conds = {t.target.id: sorted(str(c) for c in t.cond) for t in edges}
    assert all(any("reopen_between_resolutions" in c for c in v) for v in conds.values()), conds
    mmd = str(D.render_machine(CounterChain, "en", "mmd"))
    again = next(line for line in mmd.splitlines() if "resolving --> resolving" in line)
    assert "default: no window between" in again and "items remain" in again


def test_tim_ctr2_chain_diagram_says_whom_opponent_and_declarer_are_relative_to() -> None:
    for lang, words in (("en", "relative to whoever declared the newest item"), ("ja", "一番新しい項目")):
        assert words in text_of(str(D.render_machine(CounterChain, lang, "svg"))), lang


def test_game_flow_has_no_start_marker_without_a_state() -> None:
    """Every start marker points at a state box (the battle's used to point at a cluster's edge)."""
    for folds in (None, ()):
        dot = str(D.render_machine(GameFlow, "en", "dot", fold_states=folds))
        starts = re.findall(r"(__initial_\d+) -> (\w+) \[([^\]]*)\]", dot)
        assert starts
        assert all("lhead" not in attrs for _, _, attrs in starts), starts


def test_flow_compact_game_flow_folds_steps_into_their_box() -> None:
    """FLOW-QS, FLOW-FORM: the quick-summon and formation steps are listed in their boxes, so
    the game flow is about half as tall; --fold battle draws the whole battle as one box."""
    full = str(D.render_machine(GameFlow, "en", "svg", fold_states=()))
    compact = str(D.render_machine(GameFlow, "en", "svg"))
    height = lambda svg: float(re.search(r'height="([\d.]+)pt"', svg).group(1))  # noqa: E731
    assert height(compact) < 0.7 * height(full)
    assert all(step in text_of(compact) for step in ("advancing side summons", "defending side reveals"))
    battle = str(D.render_machine(GameFlow, "en", "dot", fold_states=("battle",)))
    assert (
        "cluster_battle" not in battle
        and "quick-summon timing" in battle
        and "cluster_" not in battle.replace("cluster___atomic", "")
    )


# ---------------------------------------------------------------- the timing matrix


def test_tim_nc_tim_ncs_timing_matrix_has_every_timing_and_combination() -> None:
    """TIM-NC, TIM-NCS: the matrix has a row per timing and per combination, its cells are the
    legality table's, and it is drawn as one table: no edges, so no labels to cross."""
    rules = builtin()
    m = timing_map.matrix(rules)
    names = [r.timing.ja for r in m.rows]
    assert "[通常/反撃]" in names and "[通常/反撃/スピード]" in names
    assert {r.timing.clause for r in m.rows} >= {"TIM-NC", "TIM-NCS"}
    table = rules.legality_table()
    for row, legal in zip(m.rows, table, strict=True):
        used = [c.use for c in row.cells]
        assert used == [v.split(" ")[0] if v != "—" else "" for k, v in legal.items() if k != "timing"]
    dot = timing_map.dot_source(rules, D.Style("en"), "IPAexGothic")
    assert "->" not in dot and dot.count("[label=") == 1
    groups = [w.en for w, _ in m.groups()]
    assert groups == [
        "main phase",
        "quick summon",
        "formation",
        "speed determination",
        "normal timing",
        "attack timing",
        "battle",
    ]


def test_timings_html_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    """`fsm timings --format html`: the matrix with its when-headings spanning their columns."""
    assert main(["timings", "--format", "html", "--lang", "en"]) == 0
    html = capsys.readouterr().out
    assert '<th colspan="3" scope="colgroup">attack timing</th>' in html
    assert "[通常/反撃/スピード] normal + counter + counter: speed determination only" in html
    assert html.count("<tr>") == 2 + len(timing_map.matrix(builtin()).rows)


@pytest.mark.parametrize(("lang", "clauses"), [("ja", "off"), ("ja", "on"), ("en", "off"), ("both", "on")])
def test_print_timing_matrix_is_at_least_10_pt_at_an_a4_column(tmp_path: Path, lang: str, clauses: str) -> None:
    """TIM-*: the print timing matrix comes in parts (timing_map_1.pdf ...), together every column
    and every row; read with pdfplumber, every character of every part is 10 pt or more once the
    page is scaled to an A4 column (160 mm), and the README says so in the export's language."""
    import pdfplumber

    out = tmp_path / "print"
    argv = ["diagrams", "--style", "print", "--lang", lang, "--clauses", clauses, "--format", "pdf", "--out", str(out)]
    assert main(argv) == 0
    parts = sorted(out.glob("timing_map_*.pdf"))
    assert len(parts) >= 2 and not (out / "timing_map.pdf").exists()
    m = timing_map.matrix(builtin())
    seen_columns = 0
    for pdf_path in parts:
        with pdfplumber.open(pdf_path) as pdf:
            (page,) = pdf.pages
            scale = A4_COLUMN_PT / float(page.width)
            sizes = [c["size"] * scale for c in page.chars if c["text"].strip()]
            text = page.extract_text()
        assert sizes, pdf_path.name
        smallest = min(sizes)
        assert smallest >= 10, f"{pdf_path.name}: {smallest:.1f} pt at 160 mm"
        for row in m.rows:
            assert row.timing.ja.replace("[", "").replace("]", "")[:3] in text.replace("[", ""), (pdf_path.name, row)
        heads = timing_map.COLUMNS.values()
        seen_columns += sum(1 for _when, what in heads if what.words(lang if lang != "both" else "ja") in text)
    assert seen_columns >= len(m.columns)  # every column is in some part (a heading may repeat)
    readme = (out / "README.md").read_text(encoding="utf-8")
    said = {"ja": ("分割", "印刷用スタイル"), "en": ("split", "print style"), "both": ("split", "print style")}[lang]
    assert all(word in readme for word in said), readme[:400]
    assert ("green" in readme) is False and ("amber" in readme) is False  # a print has no colours to describe


_LIVE = """
import hashlib
from fsm.render import live_view
from fsm.scenarios.playing import load
game, _ = load("scenarios/ability_only_counter.yaml")
game.apply("A: use 土の槍 by 土の兵 on 水の番人")
for _ in range(6):  # drawn afresh each time: one dot run per drawing
    live_view.cache_clear()
    print(hashlib.sha1(live_view.live_svg(game, "en").encode()).hexdigest())
"""


def test_live_svg_is_the_same_in_every_process() -> None:
    """The site's scenario pages draw where the game stands: the same position gives the same SVG
    bytes in processes with different hash seeds, though Graphviz 2.43 writes the game flow's
    clusters in an order of its own choosing each run (fsm.render.dot puts them in order)."""
    import os
    import sys

    repo = Path(__file__).resolve().parents[1]
    digests = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(repo)}
        run = subprocess.run([sys.executable, "-c", _LIVE], cwd=repo, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-2000:]
        digests.update(run.stdout.split())
    assert len(digests) == 1, digests
