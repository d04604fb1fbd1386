#!/usr/bin/env python3
"""A real one-node Slurm cluster on this machine, grading a small class with
deploy/slurm/grade_array.sbatch exactly as docs/deploy.md says.

What it does, each step timed:

1. Slurm and munge from Debian's packages (``--install``: ``apt-get install slurmd slurmctld
   slurm-client munge`` when ``sbatch`` is missing).
2. A private cluster in a temporary folder: its own munge key and socket, a ``slurm.conf`` with one
   node (this machine, as ``slurmd -C`` describes it) and one partition, free ports; munged,
   slurmctld and slurmd started in the foreground as children of this script. Nothing under
   /etc/slurm or /etc/munge is read or changed; a munged or Slurm already running is left alone.
3. A course: this checkout's tracked files (``git archive`` of the working tree, uncommitted
   changes included), ``attnlab-course release 01_weighted_averages``, eight submissions of
   notebook 01 (correct, blank, wrong, not a notebook) under ``autograde/submitted/``; a copy of it
   graded once, unsharded, as the reference.
4. In the course folder, as docs/deploy.md's "At scale" section says:
   ``rm -rf autograde/shards`` then ``sbatch --array=1-2 deploy/slurm/grade_array.sbatch`` (the
   job script activates ``ATTNLAB_VENV``, this repository's .venv). Waits for the array and the
   merge job its first task submits, then checks that every job completed with exit code 0, that
   both shards graded something, and that ``autograde/grades.csv`` and the feedback pages are the
   same, byte for byte, as the unsharded run's (and that the rows are the statuses expected).
5. Always, even on failure or SIGTERM: cancels the cluster's jobs, stops slurmd, slurmctld and
   munged, and removes the temporary folder (``--keep`` keeps it).

On failure it prints why, the tails of the jobs' ``slurm-*.out`` files and of the daemons' logs,
and exits 1. Not root, or no Slurm and no way to install it without ``--install``: it says so and
exits 0 (skipped). ``make bootstrap`` first: the jobs use this repository's .venv (``--venv``).
Last line: ``slurm: 1 passed, 0 failed`` (or ``0 passed, 1 failed``).

    python3 tools/slurm_ci.py [--install] [--keep] [--timeout SECONDS]
"""
from __future__ import annotations

import argparse
import csv
import filecmp
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "01_weighted_averages"
SHARDS = 2
PACKAGES = ("slurmd", "slurmctld", "slurm-client", "munge")
TOOLS = ("sbatch", "squeue", "scontrol", "scancel", "sinfo", "slurmctld", "slurmd", "munged", "mungekey")

# A learner's wrong softmax (tests/catalogue/nb01_weighted_averages.py): normalises over axis 0.
WRONG_SOFTMAX = '''def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=0, keepdims=True))
    return e / np.sum(e, axis=0, keepdims=True)
'''


class Failure(Exception):
    """A step failed: the message says which and why."""


class Stop(BaseException):
    """SIGTERM or SIGHUP: unwind through the clean-up."""


def log(msg: str) -> None:
    print(f"slurm-ci: {msg}", flush=True)


class Clock:
    def __init__(self) -> None:
        self.start = time.monotonic()
        self.steps: list[tuple[str, float]] = []

    def step(self, name: str):
        clock = self

        class _Step:
            def __enter__(self):
                self.t = time.monotonic()
                log(f"{name} ...")

            def __exit__(self, *exc):
                dt = time.monotonic() - self.t
                clock.steps.append((name, dt))
                log(f"{name}: {dt:.1f} s" + (" (failed)" if exc[0] else ""))
                return False

        return _Step()


def run(cmd: list[str], *, timeout: float, env: dict | None = None, cwd: Path | None = None,
        check: bool = True, input=None, text: bool = True) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, env=env, cwd=cwd, text=text, capture_output=True, timeout=timeout,
                              input=input, stdin=None if input is not None else subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise Failure(f"`{' '.join(cmd)}` ran over {timeout:.0f} s:\n{e.stdout or ''}{e.stderr or ''}") from None
    if check and proc.returncode != 0:
        raise Failure(f"`{' '.join(cmd)}` exited {proc.returncode}:\n{proc.stdout if text else ''}{proc.stderr}")
    return proc


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as e:
        return f"(cannot read: {e})"
    return "\n".join(text[-lines:])


def free_ports(n: int) -> list[int]:
    """``n`` distinct TCP ports free now (all held open while picking, so never the same twice)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# --- 1. packages -------------------------------------------------------------------------------

def missing_tools() -> list[str]:
    return [t for t in TOOLS if not shutil.which(t, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")]


def install() -> None:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *PACKAGES]
    # the packages' own services (munge, slurmd, slurmctld on /etc's configuration) must not start:
    # where no policy-rc.d says so already (container images have one), one says so for the install
    policy = Path("/usr/sbin/policy-rc.d")
    ours = not policy.exists()
    if ours:
        policy.write_text("#!/bin/sh\n# tools/slurm_ci.py, during its apt-get install only\nexit 101\n")
        policy.chmod(0o755)
    try:
        if run(cmd, timeout=600, env=env, check=False).returncode != 0:
            run(["apt-get", "update", "-qq"], timeout=300, env=env)
            run(cmd, timeout=600, env=env)
    finally:
        if ours:
            policy.unlink(missing_ok=True)


# --- 2. the cluster ----------------------------------------------------------------------------

class Cluster:
    """munged, slurmctld and slurmd of a private one-node cluster under ``base``."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.etc = base / "etc"
        self.conf = self.etc / "slurm.conf"
        self.logs = base / "log"
        self.sock = base / "munge" / "munge.socket"
        self.procs: dict[str, subprocess.Popen] = {}
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.env["PATH"] = self.env.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        for var in [v for v in self.env if v.startswith(("SLURM_", "SBATCH_", "SQUEUE_")) and v != "SLURM_CONF"]:
            del self.env[var]  # this script might itself run inside a job of another cluster

    def write_config(self) -> None:
        for d in (self.etc, self.logs, self.sock.parent, self.base / "state", self.base / "spool"):
            d.mkdir(parents=True)
        # munged wants its socket's folders searchable by all, its key readable by its user only
        os.chmod(self.base, 0o755)
        os.chmod(self.sock.parent, 0o755)
        key = self.base / "munge" / "munge.key"
        run(["mungekey", "--create", f"--keyfile={key}"], timeout=30, env=self.env)
        os.chmod(key, 0o600)

        # this machine as slurmd sees it: NodeName=<host> CPUs=... Sockets... RealMemory=<MiB>
        node = run(["slurmd", "-C"], timeout=30, env=self.env).stdout.splitlines()[0].strip()
        fields = dict(f.split("=", 1) for f in node.split())
        self.node = fields["NodeName"]
        memory = int(fields["RealMemory"])
        fields["RealMemory"] = str(max(memory - min(1024, memory // 20), 1))  # a margin: never above
        need = 8 * 1024  # deploy/slurm/grade_array.sbatch: --mem=8G
        if int(fields["RealMemory"]) < need:
            raise Failure(f"this machine has {memory} MiB of memory; the job script asks --mem=8G a task")
        self.cpus = int(fields["CPUs"])
        node_line = " ".join(f"{k}={v}" for k, v in fields.items()) + " NodeAddr=127.0.0.1 State=UNKNOWN"
        s = self.base
        ctld_port, slurmd_port = free_ports(2)
        self.conf.write_text(f"""\
# A one-node Slurm cluster for CI (tools/slurm_ci.py); everything under {s}
ClusterName=attnlabci
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.sock}
StateSaveLocation={s}/state
SlurmdSpoolDir={s}/spool
SlurmctldPidFile={s}/slurmctld.pid
SlurmdPidFile={s}/slurmd.pid
SlurmctldLogFile={self.logs}/slurmctld.log
SlurmdLogFile={self.logs}/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=10
Waittime=0
MailProg=/bin/true
# finished jobs stay in `scontrol show job` (no accounting here) long enough to read their state
MinJobAge=600
{node_line}
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
        self.key = key

    def _start(self, name: str, cmd: list[str]) -> None:
        out = open(self.logs / f"{name}.stdout", "w")
        self.procs[name] = subprocess.Popen(cmd, env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        out.close()

    def _alive(self, name: str) -> None:
        proc = self.procs[name]
        if proc.poll() is not None:
            raise Failure(f"{name} exited {proc.returncode}:\n" + tail(self.logs / f"{name}.stdout")
                          + "\n" + tail(self.logs / f"{name}.log"))

    def start(self, timeout: float = 90) -> None:
        m = self.sock.parent
        self._start("munged", ["munged", "--foreground", f"--key-file={self.key}", f"--socket={self.sock}",
                               f"--pid-file={m}/munged.pid", f"--log-file={self.logs}/munged.log",
                               f"--seed-file={m}/munged.seed"])
        deadline = time.monotonic() + 30
        while True:
            self._alive("munged")
            cred = subprocess.run(["munge", "-S", str(self.sock), "-n"], capture_output=True, env=self.env)
            if cred.returncode == 0 and subprocess.run(["unmunge", "-S", str(self.sock)], input=cred.stdout,
                                                       capture_output=True, env=self.env).returncode == 0:
                break
            if time.monotonic() > deadline:
                raise Failure("munged did not answer in 30 s:\n" + tail(self.logs / "munged.stdout"))
            time.sleep(0.3)
        self._start("slurmctld", ["slurmctld", "-D", "-i", "-f", str(self.conf)])
        self._start("slurmd", ["slurmd", "-D", "-f", str(self.conf)])
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            self._alive("slurmctld")
            self._alive("slurmd")
            proc = subprocess.run(["sinfo", "-h", "-N", "-o", "%t"], capture_output=True, text=True, env=self.env)
            state = (proc.stdout.strip() or proc.stderr.strip())
            if proc.returncode == 0 and state.rstrip("*") in ("idle", "mix", "alloc"):
                return
            time.sleep(0.5)
        raise Failure(f"the node is not idle after {timeout:.0f} s (sinfo: {state!r}):\n"
                      + tail(self.logs / "slurmctld.log") + "\n" + tail(self.logs / "slurmd.log"))

    def jobs(self) -> list[dict[str, str]]:
        """Every job slurmctld still knows (running, pending and finished), one dict each."""
        proc = run(["scontrol", "-o", "show", "job"], timeout=30, env=self.env, check=False)
        out = []
        for line in proc.stdout.splitlines():
            if "JobId=" in line:
                out.append(dict(re.findall(r"(\w+)=(\S*)", line)))
        return out

    def stop(self) -> None:
        if self.procs.get("slurmctld") and self.procs["slurmctld"].poll() is None:
            live = [j["JobId"] for j in self.jobs() if j.get("JobState") in ("PENDING", "RUNNING", "COMPLETING",
                                                                               "CONFIGURING", "SUSPENDED")]
            if live:
                log(f"cancelling jobs {' '.join(live)}")
                subprocess.run(["scancel", *live], env=self.env, capture_output=True, timeout=30)
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and any(
                        j.get("JobState") in ("RUNNING", "COMPLETING", "PENDING") for j in self.jobs()):
                    time.sleep(1)
        for name in ("slurmd", "slurmctld", "munged"):
            proc = self.procs.get(name)
            if proc is None or proc.poll() is not None:
                continue
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                log(f"{name} ignored SIGTERM for 20 s: SIGKILL")
                proc.kill()
                proc.wait(10)
        # what this cluster started and left behind (slurmstepd, a job's processes): they carry
        # this cluster's SLURM_CONF in their environment
        mark = f"SLURM_CONF={self.conf}".encode()
        for pid_dir in Path("/proc").glob("[0-9]*"):
            pid = int(pid_dir.name)
            if pid == os.getpid():
                continue
            try:
                if mark in (pid_dir / "environ").read_bytes().split(b"\0"):
                    os.kill(pid, signal.SIGKILL)
                    log(f"killed left-over process {pid} ({(pid_dir / 'cmdline').read_bytes()[:60]!r})")
            except (OSError, ProcessLookupError):
                pass


# --- 3. the course -----------------------------------------------------------------------------

def notebook_with(nb: dict, grade_id: str, source: str) -> dict:
    nb = json.loads(json.dumps(nb))
    cells = [c for c in nb["cells"] if (c.get("metadata", {}).get("nbgrader") or {}).get("grade_id") == grade_id]
    if len(cells) != 1:
        raise Failure(f"{ASSIGNMENT}: no single cell {grade_id!r} to replace")
    cells[0]["source"] = source
    return nb


def make_course(base: Path, venv_env: dict, clock: Clock) -> Path:
    course = base / "course"
    with clock.step("course: this checkout's files, released"):
        course.mkdir(parents=True)
        if (ROOT / ".git").exists():
            # the tracked files as they are in this working tree (`git stash create` writes a
            # commit of them, touching neither the tree nor any branch; empty when nothing changed)
            tree = run(["git", "-c", "user.name=slurm-ci", "-c", "user.email=slurm-ci@localhost",
                        "stash", "create"], timeout=60, cwd=ROOT).stdout.strip() or "HEAD"
            archive = run(["git", "archive", "--format=tar", tree], timeout=120, cwd=ROOT, text=False).stdout
            run(["tar", "-x", "-C", str(course)], timeout=120, input=archive, text=False)
        else:  # not a git checkout: what the course folder needs
            (course / "autograde").mkdir()
            for f in ("nbgrader_config.py", "due_dates.csv"):
                shutil.copy(ROOT / "autograde" / f, course / "autograde")
            for d in ("solutions", "notebooks", "deploy"):
                shutil.copytree(ROOT / d, course / d, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        run([str(venv_env["ATTNLAB_BIN"] / "attnlab-course"), "release", ASSIGNMENT], timeout=300,
            env=venv_env["env"], cwd=course)
    solution = json.loads((course / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    blank = (course / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    wrong = json.dumps(notebook_with(solution, "softmax", WRONG_SOFTMAX))
    submissions = {
        "ada": json.dumps(solution), "ben": json.dumps(solution), "cy": json.dumps(solution),
        "dee": json.dumps(solution), "eve": blank, "fay": blank, "gus": wrong,
        "hal": "{ this is not a notebook",
    }
    for student, text in submissions.items():
        folder = course / "autograde" / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(text)
    return course


# --- 4. grading, comparing ---------------------------------------------------------------------

def check_rows(csv_text: str) -> list[str]:
    """What is wrong with the unsharded run's rows, if anything (the reference must make sense)."""
    rows = {r["student_id"]: r for r in csv.DictReader(io.StringIO(csv_text))}
    problems = []
    if sorted(rows) != ["ada", "ben", "cy", "dee", "eve", "fay", "gus", "hal"]:
        problems.append(f"rows for {sorted(rows)}")
        return problems
    score = lambda s: float(rows[s].get("score") or 0)  # noqa: E731
    full = score("ada")
    for s in ("ben", "cy", "dee"):
        if score(s) != full or rows[s]["status"] != "graded":
            problems.append(f"{s} (a correct notebook): {rows[s]}")
    if not full > score("gus") > score("eve"):
        problems.append(f"scores: correct {full}, wrong softmax {score('gus')}, blank {score('eve')}")
    if rows["hal"]["status"] != "malformed notebook":
        problems.append(f"hal (not a notebook): {rows['hal']}")
    return problems


def compare_trees(a: Path, b: Path) -> list[str]:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    if files_a != files_b:
        return [f"feedback files differ: {sorted(set(map(str, files_a)) ^ set(map(str, files_b)))}"]
    return [f"feedback differs: {f}" for f in files_a if not filecmp.cmp(a / f, b / f, shallow=False)]


def job_name(j: dict[str, str]) -> str:
    """``attnlab-grade 7_2`` for task 2 of array 7 (Slurm gives a task a job id of its own too)."""
    jid = f"{j['ArrayJobId']}_{j['ArrayTaskId']}" if j.get("ArrayTaskId") else j["JobId"]
    return f"{j.get('JobName')} {jid}"


def wait_for_jobs(cluster: Cluster, array_id: str, timeout: float) -> list[dict[str, str]]:
    deadline = time.monotonic() + timeout
    last = ""
    stuck_since: dict[str, float] = {}
    while True:
        jobs = cluster.jobs()
        ours = [j for j in jobs
                if j.get("ArrayJobId", j["JobId"]) == array_id or j.get("JobName") == "attnlab-merge"]
        live = [j for j in ours if j.get("JobState") not in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT",
                                                             "OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE",
                                                             "PREEMPTED")]
        summary = ", ".join(f"{job_name(j)} {j.get('JobState')}"
                            + (f" ({j.get('Reason')})" if j.get("JobState") == "PENDING" else "") for j in ours)
        if summary != last:
            log(f"jobs: {summary}")
            last = summary
        if ours and not live:
            return ours
        now = time.monotonic()
        for j in live:  # pending for a reason that will not go away: say so now, not at the timeout
            reason = j.get("Reason", "")
            if j.get("JobState") == "PENDING" and re.search(r"NeverSatisfied|NotAvail|Invalid|BadConstraints|"
                                                            r"PartitionConfig|Held", reason):
                if now - stuck_since.setdefault(j["JobId"], now) > 30:
                    raise Failure(f"{job_name(j)} pending: {reason}")
        if now > deadline:
            raise Failure(f"the jobs did not finish in {timeout:.0f} s: {summary}")
        time.sleep(2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--install", action="store_true", help="apt-get install Slurm and munge if missing")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (cluster, course)")
    parser.add_argument("--timeout", type=float, default=900, help="for the Slurm jobs, seconds (default 900)")
    parser.add_argument("--venv", type=Path, default=Path(os.environ.get("ATTNLAB_VENV", ROOT / ".venv")),
                        help="the environment with attnlab installed (default: this repository's .venv)")
    args = parser.parse_args()

    if sys.platform != "linux" or os.geteuid() != 0:
        print("slurm: skipped (a private Slurm cluster needs root on Linux)")
        return 0
    if missing_tools() and not args.install:
        print(f"slurm: skipped (missing {' '.join(missing_tools())}; --install takes them from apt)")
        return 0
    if not (args.venv / "bin" / "attnlab-course").exists():
        print(f"slurm-ci: no attnlab-course in {args.venv} (run `make bootstrap` first)\nslurm: 0 passed, 1 failed")
        return 1

    def on_signal(signum, frame):
        raise Stop(signal.Signals(signum).name)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    clock = Clock()
    base = Path(tempfile.mkdtemp(prefix="attnlab-slurm-"))
    cluster = Cluster(base)
    course = None
    ok = False
    try:
        if missing_tools():
            with clock.step(f"apt-get install {' '.join(PACKAGES)}"):
                install()
            if missing_tools():
                raise Failure(f"still missing after the install: {' '.join(missing_tools())}")
        with clock.step("cluster: munged, slurmctld, slurmd up, the node idle"):
            cluster.write_config()
            cluster.start()
        log(f"node {cluster.node}, {cluster.cpus} CPUs; SLURM_CONF={cluster.conf}")

        venv = args.venv.resolve()
        env = {k: v for k, v in cluster.env.items() if k not in ("ATTNLAB_COURSE_ROOT", "VIRTUAL_ENV",
                                                                  "NBGRADER_EXECUTION", "PYTHONPATH")}
        env["ATTNLAB_VENV"] = str(venv)
        env["PYTHONUNBUFFERED"] = "1"
        course = make_course(base, {"ATTNLAB_BIN": venv / "bin", "env": env}, clock)

        one = base / "one" / "course"
        shutil.copytree(course, one, symlinks=True)
        with clock.step("reference: the same class graded once, unsharded (--jobs 2)"):
            proc = run([str(venv / "bin" / "attnlab-course"), "grade", "--jobs", "2"], timeout=900, env=env,
                       cwd=one)
        print(proc.stdout.rstrip()[-1500:], flush=True)
        reference = (one / "autograde" / "grades.csv").read_text()
        problems = check_rows(reference)
        if problems:
            raise Failure("the unsharded run's rows are not what this class should get:\n" + "\n".join(problems)
                          + "\n" + reference)

        with clock.step(f"slurm: sbatch --array=1-{SHARDS} deploy/slurm/grade_array.sbatch, then the merge job"):
            shutil.rmtree(course / "autograde" / "shards", ignore_errors=True)  # docs/deploy.md's `rm -rf`
            proc = run(["sbatch", f"--array=1-{SHARDS}", "deploy/slurm/grade_array.sbatch"], timeout=60,
                       env=env, cwd=course)
            m = re.search(r"Submitted batch job (\d+)", proc.stdout)
            if not m:
                raise Failure(f"sbatch said: {proc.stdout}{proc.stderr}")
            array_id = m.group(1)
            jobs = wait_for_jobs(cluster, array_id, args.timeout)
        for j in jobs:
            log(f"{job_name(j)}: {j.get('JobState')} exit {j.get('ExitCode')} "
                f"run {j.get('RunTime')}")
        tasks = [j for j in jobs if j.get("JobName") == "attnlab-grade"]
        merges = [j for j in jobs if j.get("JobName") == "attnlab-merge"]
        bad = [j for j in jobs if j.get("JobState") != "COMPLETED" or j.get("ExitCode") != "0:0"]
        if len(tasks) != SHARDS or len(merges) != 1 or bad:
            raise Failure(f"expected {SHARDS} array tasks and 1 merge job, all COMPLETED with exit 0:0; got "
                          + "; ".join(f"{job_name(j)} {j.get('JobState')} {j.get('ExitCode')}"
                                      for j in jobs))

        manifests = sorted((course / "autograde" / "shards").glob(f"*/shard-*-of-{SHARDS}/manifest.json"))
        owned = [json.loads(p.read_text())["submissions"] for p in manifests]
        log("shards: " + ", ".join(f"{p.parent.name} {len(o)} submission(s)" for p, o in zip(manifests, owned)))
        if len(owned) != SHARDS or not all(owned):
            raise Failure(f"expected {SHARDS} shards that each graded something: {manifests} {owned}")
        grades = course / "autograde" / "grades.csv"
        if not grades.exists():
            raise Failure("the merge job wrote no autograde/grades.csv")
        sharded = grades.read_text()
        if sharded != reference:
            raise Failure("grades.csv of the Slurm run differs from the unsharded run's:\n--- unsharded\n"
                          + reference + "--- slurm\n" + sharded)
        problems = compare_trees(one / "autograde" / "feedback", course / "autograde" / "feedback")
        if problems:
            raise Failure("\n".join(problems[:20]))
        isolated = "not isolated" not in sharded
        if not isolated and shutil.which("bwrap"):
            raise Failure("bubblewrap is installed, yet the rows say `not isolated`:\n" + sharded)
        log(f"grades.csv and {sum(1 for p in (course / 'autograde' / 'feedback').rglob('*.html'))} feedback pages "
            f"identical to the unsharded run's; submissions graded "
            + ("in bubblewrap sandboxes inside the Slurm jobs" if isolated else "NOT ISOLATED (see detail)"))
        for row in csv.DictReader(io.StringIO(sharded)):
            log(f"  {row['student_id']}: {row['status']} {row['score']}/{row['max_score']}")
        ok = True
    except Failure as e:
        print(f"slurm-ci: FAILED: {e}", file=sys.stderr, flush=True)
    except (Stop, KeyboardInterrupt) as e:
        print(f"slurm-ci: stopped ({type(e).__name__} {e})", file=sys.stderr, flush=True)
    finally:
        if not ok:
            outs = sorted((course / "autograde").glob("slurm-*.out")) if course else []
            for path in outs:
                print(f"--- {path.name} (last 40 lines)\n{tail(path)}", file=sys.stderr)
            for name in ("slurmctld.log", "slurmd.log", "munged.log"):
                if (cluster.logs / name).exists():
                    print(f"--- {name} (last 25 lines)\n{tail(cluster.logs / name, 25)}", file=sys.stderr)
            sys.stderr.flush()
        with clock.step("stop: jobs cancelled, slurmd, slurmctld and munged stopped"):
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the clean-up itself is not interrupted
            try:
                cluster.stop()
            except Exception as e:  # noqa: BLE001: say it, keep going to the folder's removal
                print(f"slurm-ci: clean-up: {e!r}", file=sys.stderr)
        if args.keep:
            log(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    total = time.monotonic() - clock.start
    log("times: " + "; ".join(f"{name.split(':')[0]} {dt:.1f} s" for name, dt in clock.steps)
        + f"; total {total:.1f} s")
    print(f"slurm: {int(ok)} passed, {int(not ok)} failed", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
