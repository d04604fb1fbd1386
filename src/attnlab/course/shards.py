"""Grading in shards, for the engines that already scale (Slurm array jobs, Kubernetes Indexed
Jobs): ``attnlab-course grade --shard I/N`` grades a fixed 1/N of the submissions and writes only
into its own folder, ``autograde/shards/<release>/shard-I-of-N/``; ``attnlab-course merge``
joins the shards into the gradebook, ``autograde/autograded/``, ``autograde/feedback/`` and
``grades.csv``, as one unsharded ``attnlab-course grade`` writes them.

* Which shard grades a submission: a stable hash of (student id, assignment), so adding a learner
  moves no one else's work to another shard.
* ``<release>``: a fingerprint of the course's notebooks (``solutions/`` and ``notebooks/``) and
  of attnlab's version. Shards of different releases are never merged.
* A shard never writes a file another shard writes: it grades against its own copy of the
  gradebook (for the late penalty and nbgrader's feedback) and keeps its rows, autograded
  notebooks, feedback pages and log in its folder; ``manifest.json``, written last, says it is
  complete. The course's gradebook is written by ``merge`` alone.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import attnlab

from .escape import shown

SHARDS = Path("autograde") / "shards"
MANIFEST = "manifest.json"
ROWS = "rows.json"


class ShardError(Exception):
    """Shards that cannot be merged (or a shard that cannot be graded); the message says why."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @property
    def name(self) -> str:
        return f"shard-{self.index}-of-{self.count}"

    def owns(self, student: str, assignment: str) -> bool:
        return shard_of(student, assignment, self.count) == self.index


def parse_shard(text: str) -> Shard:
    """``"I/N"`` with 1 <= I <= N; a ``ValueError`` that says what is wrong otherwise."""
    parts = str(text).strip().split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"expected I/N (e.g. 1/4: the first of four shards), got {text!r}")
    index, count = (int(p) for p in parts)
    if count < 1:
        raise ValueError(f"expected at least one shard (N >= 1), got {text!r}")
    if not 1 <= index <= count:
        raise ValueError(f"the shard number must be between 1 and {count}, got {text!r}")
    return Shard(index, count)


def shard_of(student: str, assignment: str, count: int) -> int:
    """The shard (1..count) that grades this submission: a hash of the pair alone."""
    digest = hashlib.sha256(f"{student}\0{assignment}".encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def fingerprint(root: Path) -> str:
    """The release: every notebook of ``solutions/`` and ``notebooks/`` (path and bytes) and the
    attnlab version, hashed (16 hex digits)."""
    h = hashlib.sha256(f"attnlab {attnlab.__version__}\n".encode())
    for top in ("solutions", "notebooks"):
        base = Path(root) / top
        paths = sorted(p for p in base.rglob("*.ipynb") if p.is_file() and ".ipynb_checkpoints" not in p.parts) \
            if base.is_dir() else []
        for path in paths:
            h.update(path.relative_to(root).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]


def shard_folder(root: Path, shard: Shard, release: str | None = None) -> Path:
    return Path(root) / SHARDS / (release or fingerprint(root)) / shard.name


def prepare(root: Path, shard: Shard) -> tuple[Path, str]:
    """A fresh folder for the shard (a re-run replaces it) with a copy of the course's gradebook;
    returns the folder and the release fingerprint."""
    release = fingerprint(root)
    folder = shard_folder(root, shard, release)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    db = Path(root) / "autograde" / "gradebook.db"
    if db.is_file():
        src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        dst = sqlite3.connect(folder / "gradebook.db")
        try:
            src.backup(dst)
        finally:
            src.close()
            dst.close()
    return folder, release


def result_entry(result, row: dict) -> dict:
    """What ``merge`` needs of one graded submission: its stored row (records.store's form), its
    automatic scores per grade cell and its late penalty."""
    return {"row": row, "scores": {v.grade_id: v.score for v in result.cells},
            "late_penalty": float(getattr(result, "late_penalty", 0.0) or 0.0)}


def finish(folder: Path, shard: Shard, release: str, entries: list[dict]) -> None:
    """The shard's rows, then its manifest (last: a shard without one is incomplete)."""
    (folder / ROWS).write_text(json.dumps(entries, indent=1), encoding="utf-8")
    manifest = {"release": release, "index": shard.index, "count": shard.count,
                "submissions": sorted([e["row"]["student_id"], e["row"]["assignment"]] for e in entries)}
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    tmp.replace(folder / MANIFEST)


def collect(root: Path) -> tuple[list[tuple[Path, dict]], str, int]:
    """The complete set of shards of the current release, checked; a ``ShardError`` naming every
    problem otherwise (no shards, other releases, incomplete shards, different N, gaps,
    duplicates)."""
    base = Path(root) / SHARDS
    release = fingerprint(root)
    folders = sorted(p for p in base.glob("*/shard-*-of-*") if p.is_dir()) if base.is_dir() else []
    if not folders:
        raise ShardError(f"no shards in {SHARDS}/: run `attnlab-course grade --shard I/N` for I = 1..N first")
    others = sorted({p.parent.name for p in folders} - {release})
    if others:
        raise ShardError(
            f"shards from a different release in {SHARDS}/ ({', '.join(others)}); this course's notebooks and "
            f"attnlab version make release {release}. Grade those shards again with this release, or delete "
            f"{', '.join(f'{SHARDS}/{o}' for o in others)} if they are stale")
    problems, shards = [], []
    for folder in folders:
        rel = folder.relative_to(root)
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            entries = json.loads((folder / ROWS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            problems.append(f"{rel} is incomplete (no {MANIFEST}: still running, or it failed); grade it again")
            continue
        if manifest.get("release") != release or folder.name != f"shard-{manifest.get('index')}-of-{manifest.get('count')}":
            problems.append(f"{rel}: its manifest says release {manifest.get('release')}, shard "
                            f"{manifest.get('index')}/{manifest.get('count')}: not what its folder says")
            continue
        shards.append((folder, manifest, entries))
    if problems:
        raise ShardError("; ".join(problems))
    counts = sorted({m["count"] for _, m, _ in shards})
    if len(counts) > 1:
        raise ShardError(f"shards of different N in {SHARDS}/{release}/ ({', '.join(f'N = {c}' for c in counts)}): "
                         f"{', '.join(f.name for f, _, _ in shards)}; delete the shards of the batch you do not want")
    count = counts[0]
    missing = sorted(set(range(1, count + 1)) - {m["index"] for _, m, _ in shards})
    if missing:
        raise ShardError(f"missing shard(s) {', '.join(f'{i}/{count}' for i in missing)} in {SHARDS}/{release}/: "
                         f"run `attnlab-course grade --shard I/{count}` for each before merging")
    seen: dict[tuple[str, str], str] = {}
    dups = []
    for folder, _, entries in shards:
        for e in entries:
            key = (e["row"]["student_id"], e["row"]["assignment"])
            if key in seen:
                dups.append(f"{key[0]}/{key[1]} (in {seen[key]} and {folder.name})")
            else:
                seen[key] = folder.name
    if dups:
        raise ShardError(f"submission(s) graded in two shards: {', '.join(dups[:10])}"
                         f"{', ...' if len(dups) > 10 else ''}; delete the shard that should not have them and grade "
                         "it again")
    return [(f, e) for f, _, es in shards for e in es], release, count
