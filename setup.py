"""Build step of the install: compile the message catalogues with Babel.

Everything else about the package is in pyproject.toml.  ``fsm/locale/<lang>/LC_MESSAGES/fsm.po``
is committed text; the ``fsm.mo`` gettext reads is written here, into the wheel for a normal
install and next to the ``.po`` for an editable one (``pip install -e .``).  See docs/i18n.md.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class build_py_with_catalogues(build_py):  # noqa: N801 - setuptools command classes are lower case
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("fsm/locale").glob("*/LC_MESSAGES/*.po")):
            mo = po.with_suffix(".mo")
            target = mo if self.editable_mode else Path(self.build_lib) / mo
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as f:
                catalogue = read_po(f)
            with target.open("wb") as out:
                write_mo(out, catalogue)


setup(cmdclass={"build_py": build_py_with_catalogues})
