#!/usr/bin/env bash
# Install everything, then open the teaching notebooks in JupyterLab.
#
#   scripts/lab.sh              the English notebooks (notebooks/)
#   scripts/lab.sh --lang ja    the Japanese notebooks (notebooks/ja), JupyterLab's menus in Japanese
#
# Other arguments go to `jupyter lab`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

lang=en
args=()
while (($#)); do
  case "$1" in
    --lang) lang="${2:?--lang needs ja or en}"; shift 2 ;;
    --lang=*) lang="${1#--lang=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$lang" in
  en | ja) ;;
  *)
    echo "error: --lang $lang: the notebooks exist in ja and en" >&2
    exit 2
    ;;
esac

bash scripts/setup.sh lab
echo "The command line: .venv/bin/fsm --help (or 'source .venv/bin/activate', then fsm ...)."

extra=()
notebooks=notebooks
# Our own defaults for JupyterLab's settings, in a settings folder of our own (what a user picks in
# Settings wins): no news pop-up over the diagrams, and for --lang ja the menus in Japanese (the
# translation plugin's locale; its words come from the language pack).
settings=.venv/share/jupyter/lab/settings-fsm-$lang
mkdir -p "$settings"
news='"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}'
if [[ "$lang" == ja ]]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[ja]'
  printf '{%s, %s}\n' "$news" '"@jupyterlab/translation-extension:plugin": {"locale": "ja_JP"}' >"$settings/overrides.json"
  notebooks=notebooks/ja
else
  printf '{%s}\n' "$news" >"$settings/overrides.json"
fi
extra+=(--LabApp.app_settings_dir="$PWD/$settings" --LabApp.news_url=None)

echo "Starting JupyterLab on 127.0.0.1; open the http://127.0.0.1:8888/lab?token=... URL printed below."
# JupyterLab will not start as root without --allow-root (containers, CI); it still listens on 127.0.0.1 only.
if [[ "$(id -u)" -eq 0 ]]; then extra+=(--allow-root); fi
# Saving writes the notebook as committed (no outputs, no widget state): see fsm/notebook/clean.py;
# opening one does not mark it unsaved (the kernel's language_info served with it): lab_contents.py.
exec .venv/bin/jupyter lab --ip=127.0.0.1 --notebook-dir="$notebooks" \
  --ContentsManager.pre_save_hook=fsm.notebook.clean.pre_save \
  --ServerApp.contents_manager_class=fsm.notebook.lab_contents.LabContents \
  ${extra[@]+"${extra[@]}"} ${args[@]+"${args[@]}"}
