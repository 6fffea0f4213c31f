"""Build the rulebook site in Japanese and English: ``python docs/site/build.py [OUT]``.

Runs the two Sphinx builds at once (each is one process, and the machine has two cores),
with warnings as errors, into ``OUT/ja`` and ``OUT/en`` (default ``docs/site/_build``), and
writes ``OUT/index.html``, which links to both, then ``OUT/web``: what the pages' "try it" runs in the
browser (pyodide, the wheels, the scripts; ``web_assets.py``).  Exit status: 0 built, 1 a build failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
LANGS = ("ja", "en")

INDEX = """<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fsm ルールブック · rulebook</title>
<style>
body { font-family: "IPAexGothic", system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid;
  place-items: center; background: linear-gradient(135deg, #eff6ff, #fef3c7); color: #1e293b; }
main { text-align: center; padding: 2em 1em; }
h1 { font-size: 2.2em; margin: 0 0 0.3em; }
p { margin: 0.2em 0 1.5em; line-height: 1.6; }
nav { display: flex; gap: 1em; justify-content: center; flex-wrap: wrap; }
a { display: block; min-width: 9em; padding: 0.8em 1.4em; border-radius: 10px; background: #fff;
  color: #1d4ed8; font-size: 1.2em; font-weight: 700; text-decoration: none; box-shadow: 0 1px 4px #0002; }
</style></head>
<body><main><h1>fsm ルールブック · rulebook</h1>
<p>カードゲームのタイミング規則を状態機械で説明します。<br>
<span lang="en">The timing rules of a card game, as state machines.</span></p>
<nav><a href="ja/index.html">日本語</a><a href="en/index.html" lang="en">English</a></nav>
</main></body></html>
"""


def command(out: Path, lang: str) -> list[str]:
    return [
        sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-D", f"language={lang}",
        "-d", str(out / f".doctrees-{lang}"), str(HERE), str(out / lang),
    ]  # fmt: skip


def build(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    runs = [(lang, subprocess.Popen(command(out, lang))) for lang in LANGS]
    failed = [lang for lang, run in runs if run.wait() != 0]
    if failed:
        print(f"docs: the {' and '.join(failed)} build failed; see the warnings above", file=sys.stderr)
        return 1
    (out / "index.html").write_text(INDEX, encoding="utf-8")
    from web_assets import build_web_assets

    build_web_assets(out / "web")
    print(f"docs: built {out / 'index.html'} ({', '.join(str(out / lang) for lang in LANGS)})")
    return 0


if __name__ == "__main__":
    sys.exit(build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "_build"))
