"""Build the rulebook site in Japanese and English: ``python docs/site/build.py [OUT]``.

Runs the two Sphinx builds at once (each is one process, and the machine has two cores),
with warnings as errors, into ``OUT/ja`` and ``OUT/en`` (default ``docs/site/_build``), and
writes ``OUT/index.html``, which links to both.  Exit status: 0 built, 1 a build failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LANGS = ("ja", "en")

INDEX = """<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8"><title>fsm rulebook</title></head>
<body><h1>fsm ルールブック · rulebook</h1>
<ul><li><a href="ja/index.html">日本語</a></li><li><a href="en/index.html">English</a></li></ul>
</body></html>
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
    print(f"docs: built {out / 'index.html'} ({', '.join(str(out / lang) for lang in LANGS)})")
    return 0


if __name__ == "__main__":
    sys.exit(build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "_build"))
