#!/usr/bin/env bash
# Held-out class for the attnlab grader, run the way the README sets a course up.
#
#   bash tests/heldout/class38/run.sh                       # clone this repository's HEAD, warm then cold
#   PYTHON=/usr/bin/python3 bash tests/heldout/class38/run.sh   # the same with Debian's Python 3.11.2
#   SRC=/path/to/repo REV=<commit> KEEP=1 bash run.sh      # another repo / commit; keep the clone
#
# Steps: fresh clone under /tmp/heldout38-XXXX/course (committed HEAD only), `make bootstrap`
# (.venv inside the clone), make_class.py, `make grade` (exit status recorded), figures.py;
# then `make clean-grading` and the same with ATTNLAB_WARM=0 (cold). Prints figures only; logs
# stay in the work folder, which is deleted at the end unless KEEP=1.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-$(cd "$HERE/../../.." && pwd)}  # this repository
REV=${REV:-}
HOSTPY=${HOSTPY:-python3}                 # runs make_class.py / figures.py (stdlib only)
BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200}
GRADE_TIMEOUT=${GRADE_TIMEOUT:-1500}

WORK=$(mktemp -d /tmp/heldout38-XXXX)
CLONE=$WORK/course
cleanup() { if [ "${KEEP:-0}" = 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT

git clone -q "$SRC" "$CLONE" || { echo "clone failed"; exit 2; }
if [ -n "$REV" ]; then git -C "$CLONE" checkout -q "$REV" || { echo "no commit $REV"; exit 2; }; fi
echo "commit: $(git -C "$CLONE" rev-parse --short HEAD)   python: ${PYTHON:-the Makefile default}"
cd "$CLONE" || exit 2

t0=$(date +%s)
timeout -k 30 "$BOOT_TIMEOUT" make bootstrap ${PYTHON:+PYTHON=$PYTHON} >"$WORK/bootstrap.log" 2>&1
brc=$?
echo "make bootstrap exit status: $brc ($(( $(date +%s) - t0 )) s)"
if [ "$brc" != 0 ]; then tail -n 15 "$WORK/bootstrap.log"; exit 3; fi

"$HOSTPY" "$HERE/make_class.py" "$CLONE" >"$WORK/make_class.log" 2>&1 || { cat "$WORK/make_class.log"; exit 4; }

grade() {  # $1: label; the environment decides warm or cold
    local label=$1 t0 rc
    t0=$(date +%s)
    timeout -k 30 "$GRADE_TIMEOUT" make grade ${PYTHON:+PYTHON=$PYTHON} >"$WORK/grade_$label.log" 2>&1
    rc=$?
    echo "$rc" >"$WORK/grade_rc"
    echo "make grade [$label]: $(( $(date +%s) - t0 )) s"
    "$HOSTPY" "$HERE/figures.py" "$CLONE" --rc "$WORK/grade_rc" --export --label "$label"
}

grade warm
make clean-grading >"$WORK/clean.log" 2>&1
export ATTNLAB_WARM=0
grade cold

