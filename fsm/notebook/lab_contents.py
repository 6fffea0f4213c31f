"""JupyterLab opens a committed notebook unchanged: the server fills in the kernel's own words.

A committed notebook says only ``language_info: {"name": "python"}`` (:mod:`fsm.notebook.clean`
takes out the rest: the Python version is the machine's, not the lesson's).  When its kernel
starts, JupyterLab writes the kernel's whole ``language_info`` into the notebook's metadata, and
a metadata change marks the notebook unsaved, before the reader has touched it.  JupyterLab
leaves metadata alone when the new value equals the old, so this contents manager serves a
notebook with the ``language_info`` the server's own Python kernel (ipykernel, the notebooks'
``python3``) will report; saving strips it again (the pre-save hook).  ``scripts/lab.sh`` starts
JupyterLab with::

    --ServerApp.contents_manager_class=fsm.notebook.lab_contents.LabContents
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager


def kernel_language_info() -> dict[str, Any]:
    """What a Python kernel (ipykernel) started by this server says of its language."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


def fill(nb: MutableMapping[str, Any], info: dict[str, Any]) -> None:
    """Give a Python notebook whose ``language_info`` was cleaned the kernel's whole one."""
    meta = nb.get("metadata")
    if not isinstance(meta, MutableMapping):
        return
    language = meta.get("language_info")
    if isinstance(language, MutableMapping) and set(language) <= {"name"} and language.get("name") == info["name"]:
        meta["language_info"] = info


class LabContents(AsyncLargeFileManager):
    """JupyterLab's default contents manager, with notebooks read as the kernel will describe them."""

    async def get(  # noqa: PLR0913 - the base class's signature
        self,
        path: str,
        content: bool = True,
        type: str | None = None,  # noqa: A002 - the base class's name
        format: str | None = None,  # noqa: A002
        require_hash: bool = False,
    ) -> Any:
        model = await super().get(path, content=content, type=type, format=format, require_hash=require_hash)
        if model.get("type") == "notebook" and isinstance(model.get("content"), MutableMapping):
            fill(model["content"], kernel_language_info())
        return model
