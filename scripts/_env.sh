# Sourced by the scripts: finds a Python >= 3.12, creates .venv if it is missing, and installs the
# project (with its test tools for scripts/test) when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

_ok_python() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }

find_python() {
    local c
    for c in "${PYTHON:-}" python3.14 python3.13 python3.12 python3; do
        [ -n "$c" ] || continue
        if command -v "$c" >/dev/null 2>&1 && _ok_python "$c"; then command -v "$c"; return 0; fi
    done
    # pyenv installs that are not on PATH (or whose shims refuse without a global version).
    for c in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 /usr/local/bin/python3.1* /usr/bin/python3.1* 2>/dev/null | sort -rV); do
        if _ok_python "$c"; then echo "$c"; return 0; fi
    done
    return 1
}

if [ ! -x "$VENV/bin/python" ] || ! _ok_python "$VENV/bin/python"; then
    PY="$(find_python)" || { echo "vampire-table needs Python 3.12 or newer; none was found (set PYTHON=/path/to/python3.12)." >&2; exit 1; }
    echo "Creating .venv with $("$PY" --version)" >&2
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
fi

# What to install: the program alone (scripts/play and the others), or with the test tools
# (scripts/test sets VAMPIRE_EXTRAS=test before sourcing this). The stamp records what was
# installed for which pyproject.toml; the test tools include the program.
EXTRAS="${VAMPIRE_EXTRAS:-}"
STAMP="$VENV/.vampire-installed"
HASH="$(sha256sum < "$ROOT/pyproject.toml" | cut -d' ' -f1)"
HAVE="$(cat "$STAMP" 2>/dev/null || true)"
if [ "$HAVE" != "$HASH test" ] && [ "$HAVE" != "$HASH $EXTRAS" ]; then
    LOG="$VENV/install.log"
    if [ -n "$EXTRAS" ]; then
        echo "Installing vampire-table and its test tools into .venv (a minute the first time)" >&2
        TARGET="$ROOT[$EXTRAS]"
    else
        echo "Installing vampire-table into .venv (a minute the first time)" >&2
        TARGET="$ROOT"
    fi
    if ! { "$VENV/bin/python" -m pip install --quiet --upgrade pip \
            && "$VENV/bin/python" -m pip install --quiet -e "$TARGET"; } > "$LOG" 2>&1; then
        cat "$LOG" >&2
        echo "The installation failed (above; also in $LOG)." >&2
        exit 1
    fi
    echo "$HASH $EXTRAS" > "$STAMP"
fi
export PATH="$VENV/bin:$PATH"

# The project's own modules compiled once, in git-ignored __pycache__ folders beside them: every
# process the program or the suite starts (a host, its bots, a child of a test) reads them compiled,
# also where PYTHONDONTWRITEBYTECODE keeps Python from writing them itself. Up-to-date files are
# skipped, so this costs a fraction of a second after the first time.
"$VENV/bin/python" -m compileall -q -j 0 "$ROOT/engine" "$ROOT/net" "$ROOT/tui" "$ROOT/tests" >/dev/null 2>&1 || true
