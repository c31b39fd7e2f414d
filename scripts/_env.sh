# Sourced by the scripts: finds a Python >= 3.12, creates .venv if it is missing, and installs the
# project with its test dependencies when pyproject.toml changed since the last install.
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

STAMP="$VENV/.vampire-installed"
WANT="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
    echo "Installing vampire-table and its dependencies into .venv" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[test]" >&2
    echo "$WANT" > "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
