#!/usr/bin/env bash
# The instructor's course for the JupyterHub of deploy/jupyterhub_config.py. Run as root, from the
# hub's clone (root's, with its .venv: `make bootstrap hub-proxy`):
#
#   deploy/setup_course.sh INSTRUCTOR [COURSE_DIR]
#
# COURSE_DIR (default $ATTNLAB_COURSE_DIR, else /srv/attnlab-course), outside the hub's clone:
# * made, when missing, as a git clone of the hub's clone (a plain copy without .venv where that
#   is no git repository); an existing course is kept as it is;
# * .venv: a link to the hub's .venv, so that `make release` and `make grade` there use the
#   environment the hub and every server run (root's, read-only to the instructor);
# * owned by INSTRUCTOR (and their group), everything in it, so that formgrader, `make release`
#   and `make grade`, running as the instructor, can write the gradebook, notebooks/ and
#   autograde/; the folder itself is closed to other accounts (learners must not read the
#   gradebook, the submissions or the course secret).
# It also makes the exchange folder ($ATTNLAB_EXCHANGE, default /srv/nbgrader/exchange), writable
# by everyone as nbgrader's exchange needs. Running it again re-applies the ownership (a course
# root touched with `make release` as root, say, goes back to the instructor).
#
# The hub runs as root from its own clone and .venv, never from the course: the instructor
# owns the course, not code that root runs.
set -euo pipefail

die() { echo "setup_course.sh: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: deploy/setup_course.sh INSTRUCTOR [COURSE_DIR]"
[ "$(id -u)" = 0 ] || die "run as root (it changes the course's owner)"
INSTRUCTOR=$1
COURSE=${2:-${ATTNLAB_COURSE_DIR:-/srv/attnlab-course}}
EXCHANGE=${ATTNLAB_EXCHANGE:-/srv/nbgrader/exchange}
HUB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

uid=$(id -u "$INSTRUCTOR" 2>/dev/null) || die "no account named $INSTRUCTOR (create it first: useradd -m $INSTRUCTOR)"
[ "$uid" != 0 ] || die "the instructor's account must not be root"
group=$(id -gn "$INSTRUCTOR")

mkdir -p "$(dirname "$COURSE")"
COURSE=$(cd "$(dirname "$COURSE")" && pwd -P)/$(basename "$COURSE")
case "$COURSE/" in
  "$HUB"/*) die "the course ($COURSE) must be outside the hub's clone ($HUB): the hub runs as root from there";;
esac
if [ -L "$COURSE" ]; then die "$COURSE is a symbolic link"; fi

if [ ! -e "$COURSE" ]; then
  if git -C "$HUB" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git clone --quiet --no-hardlinks "$HUB" "$COURSE"
  else
    mkdir -p "$COURSE"
    tar -C "$HUB" --exclude=./.venv --exclude=./.git -cf - . | tar -C "$COURSE" -xf -
  fi
  echo "made the course $COURSE from $HUB"
fi
[ -f "$COURSE/autograde/nbgrader_config.py" ] || die "$COURSE is no attnlab course (no autograde/nbgrader_config.py)"

if [ ! -e "$COURSE/.venv" ] && [ ! -L "$COURSE/.venv" ] && [ -x "$HUB/.venv/bin/python" ]; then
  ln -s "$HUB/.venv" "$COURSE/.venv"
  # make sees the environment as up to date for the course's files (same times as its stamp),
  # instead of reinstalling into root's .venv
  if [ -f "$HUB/.venv/.attnlab-installed" ] && [ -f "$COURSE/Makefile" ]; then
    for f in $(sed -n 's/^\$(STAMP):\(.*\)$/\1/p' "$COURSE/Makefile"); do
      if [ -f "$COURSE/$f" ] && [ ! -L "$COURSE/$f" ]; then touch -r "$HUB/.venv/.attnlab-installed" "$COURSE/$f"; fi
    done
  fi
fi

# Everything in the course to the instructor; links are changed, never followed (-h, -P).
chown -R -h -P "$INSTRUCTOR:$group" "$COURSE"
chmod 0750 "$COURSE"

mkdir -p "$EXCHANGE"
chmod 0777 "$EXCHANGE"

cat <<MSG
The course $COURSE belongs to $INSTRUCTOR. Start the hub (as root, from $HUB):
  ATTNLAB_COURSE_DIR=$COURSE ATTNLAB_INSTRUCTORS=$INSTRUCTOR ATTNLAB_LEARNERS=... \\
    .venv/bin/jupyterhub -f deploy/jupyterhub_config.py
It listens on http://127.0.0.1:8000 (this machine); ATTNLAB_HUB_URL=http://0.0.0.0:8000 serves others.
MSG
