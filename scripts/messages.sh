#!/usr/bin/env bash
# Refresh the message catalogues after adding or changing a _("...") message (docs/i18n.md).
#
#   scripts/messages.sh          extract, update fsm/locale/{en,ja}, compile the .mo files
#
# New English entries get their own text as translation; new Japanese ones stay empty (or
# fuzzy) until translated, and tests/test_i18n.py fails until they are.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BABEL=.venv/bin/pybabel
POT=build/fsm.pot
mkdir -p build
"$BABEL" extract -F babel.cfg --add-location=file --sort-output --no-wrap \
  --project=fsm-timing-rules -o "$POT" .
for lang in en ja; do
  po="fsm/locale/$lang/LC_MESSAGES/fsm.po"
  if [[ -f "$po" ]]; then
    "$BABEL" update -D fsm -d fsm/locale -l "$lang" -i "$POT" --no-wrap --ignore-obsolete
  else
    "$BABEL" init -D fsm -d fsm/locale -l "$lang" -i "$POT" --no-wrap
  fi
done
# English: a message is its own translation until someone rewords it.
.venv/bin/python - <<'PY'
from babel.messages.pofile import read_po, write_po

path = "fsm/locale/en/LC_MESSAGES/fsm.po"
with open(path, "rb") as f:
    cat = read_po(f)
for m in cat:
    if m.id and (not m.string or "fuzzy" in m.flags):  # a fuzzy guess is another message's text
        m.string = m.id
        m.flags.discard("fuzzy")
with open(path, "wb") as f:
    write_po(f, cat, width=0, include_previous=False, ignore_obsolete=True, sort_output=True)
PY
"$BABEL" compile -D fsm -d fsm/locale --statistics
