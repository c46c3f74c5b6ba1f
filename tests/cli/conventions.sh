#!/bin/sh
# The command-line conventions of every tool (see conventions.py).
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
exec "$PY" "$(dirname "$0")/conventions.py"
