#!/usr/bin/env bash
# `make test` runs this before pytest (in the background while lint runs): what tests/test_browser_e2e.py
# needs, installed only when missing. The Python playwright package: `make venv` installs it with the dev
# extra; if it is missing all the same, with pip into .venv at the pin of constraints.txt (at most 120 s).
# Debian's chromium, which the test drives through playwright (playwright's own browser download is never
# used): with apt, only as root on a machine with apt-get (at most 300 s). When something cannot be
# installed this says why, and the browser test is skipped with the reason in pytest's summary. It never
# fails: a missing browser skips a test, it breaks nothing.
# APPLES_CHROMIUM=/path/to/chromium points the test (and this script) at another binary, never installed.
set -u
cd "$(dirname "$0")/.."
chromium=${APPLES_CHROMIUM:-/usr/bin/chromium}
PY=${PY:-.venv/bin/python}
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! "$PY" -c 'import playwright' 2>/dev/null; then
    echo "browser test: installing playwright into $PY with pip (constraints.txt pin, at most 120 s) ..."
    if ! timeout 120 "$PY" -m pip install --quiet --disable-pip-version-check -c constraints.txt playwright \
            > "$log" 2>&1; then
        echo "browser test will be skipped: pip install playwright failed or timed out:"
        grep -v '^WARNING: Location' "$log" | tail -n 5
    fi
fi
if "$PY" -c 'import playwright' 2>/dev/null; then
    playwright="playwright $("$PY" -c 'from importlib.metadata import version; print(version("playwright"))')"
else
    playwright="no playwright in $PY"
fi

if [ -x "$chromium" ]; then
    echo "browser test: $(timeout 20 "$chromium" --version 2>/dev/null | head -n 1) at $chromium; $playwright"
    exit 0
fi
if [ -n "${APPLES_CHROMIUM:-}" ]; then
    echo "browser test will be skipped: APPLES_CHROMIUM=$chromium is not an executable (nothing installed)"
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "browser test will be skipped: no $chromium, and installing it needs root and apt-get" \
         "(as root: apt-get install chromium)"
    exit 0
fi

echo "browser test: installing Debian's chromium with apt (at most 300 s) ..."
export DEBIAN_FRONTEND=noninteractive
apt="apt-get -q -y -o DPkg::Lock::Timeout=60"
# the package lists of a fresh machine may be stale or empty: update once if the first try fails
if timeout 300 sh -c "$apt install --no-install-recommends chromium || { $apt update && $apt install --no-install-recommends chromium; }" \
        > "$log" 2>&1 && [ -x "$chromium" ]; then
    echo "browser test: installed $(timeout 20 "$chromium" --version 2>/dev/null | head -n 1) ($((SECONDS - start)) s); $playwright"
else
    echo "browser test will be skipped: apt-get install chromium failed or timed out after $((SECONDS - start)) s:"
    tail -n 5 "$log"
fi
exit 0
