"""What the kernel keeps beyond a process, and the sandbox's processes (the sandbox's side only:
imported by :mod:`attnlab.course.sandbox`, never by the grader): the inventory of what one learner
could leave for the next in a warm slot (:data:`KERNEL_STATE`) and how each kind is kept from it
(keyrings refused, System V IPC removed, every other process ended), the processes a submission's
cells start (adopted, counted, ended), and the limit on their number. The sandbox counts this
module's code as its own harness code (``sandbox._harness_codes``)."""
from __future__ import annotations

import io
import os
import resource
import signal
import time
from typing import NamedTuple


def _adopt_descendants():
    """Make this process the reaper of every process the learner's cells start, and return the
    function that ends them all (called once the calls are answered).

    A process a cell starts and leaves behind (a double fork: its parent ends, so it is an
    orphan) would otherwise be re-parented to init, and what it holds would be counted nowhere:
    the grader reads a memory probe's peak from the kernel's count for this process and the
    processes it waited for (``wait4``). As a subreaper (``PR_SET_CHILD_SUBREAPER``) this process
    gets the orphans; before it ends it kills and waits for every one of them, so their peak
    resident memory is in its count. The libc functions are bound here, before any learner code
    runs and before the audit hook could be asked about them."""
    import ctypes  # (here: loaded by the harness only when it runs, never by learner code's import)

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        kill = libc.kill
    except (OSError, AttributeError):
        return lambda: None
    me = os.getpid()
    # bound now: learner code may replace what the os, io and time modules hold
    listdir, opener, waitpid, monotonic, sigkill = os.listdir, io.open, os.waitpid, time.monotonic, int(signal.SIGKILL)

    def children() -> list[int]:
        pids = []
        try:
            for task in listdir(f"/proc/{me}/task"):
                with opener(f"/proc/{me}/task/{task}/children", encoding="ascii") as fh:
                    pids += [int(p) for p in fh.read().split()]
        except (OSError, ValueError):
            pass
        return pids

    def end_all() -> None:
        deadline = monotonic() + 5.0
        while monotonic() < deadline:
            for pid in children():
                kill(pid, sigkill)
            try:
                waitpid(-1, 0)  # its own children, if any, are this process's now
            except OSError:  # ChildProcessError: none left
                return
    return end_all


def _reap() -> tuple[bool, bool]:
    """Wait for this process's ended children: (whether there was one, whether one still runs)."""
    reaped = False
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except OSError:  # ChildProcessError: no children at all
            return reaped, False
        if pid == 0:
            return reaped, True
        reaped = True


def _children_seconds() -> float:
    """CPU time of the processes this one started and waited for (a call that ran the
    reference in a child process, even through the private fork_exec, adds to it)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _limit_tasks(n: int) -> None:
    """RLIMIT_NPROC for this process and every one it starts. Inside the sandbox's own user
    namespace the kernel (5.14 and later) counts only that namespace's tasks; root ignores it
    (the cgroup is the bound there)."""
    try:
        major, minor = (int(x) for x in os.uname().release.split(".")[:2])
    except ValueError:
        return
    if (major, minor) >= (5, 14) and os.geteuid() != 0:
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
        except (ValueError, OSError):
            pass


class KernelState(NamedTuple):
    """One kind of state the kernel keeps beyond a process, shared by every process of the
    sandbox's user and namespaces, so by the next submission a warm worker forks, and how it is
    kept from that next one (``isolation``, one of :data:`ISOLATIONS`)."""
    kind: str
    isolation: str
    how: str


ISOLATIONS = ("emptied", "removed", "refused", "ended")

# The inventory of what one learner could leave for the next in a warm slot. Each kind is
# emptied or removed after every child, refused to learner code, or ends with the processes,
# which are all ended after every child; tests/test_boundary40.py walks it (learner A writes
# each kind, learner B, the next child of the same worker, must read nothing) and fails on a
# kind it has no attack for.
KERNEL_STATE = (
    KernelState("files", "emptied", "the slot's work, results, tmp and shm folders (the only places a child can "
                "write) are emptied before the next child (warm._empty); the rest of its view is read-only"),
    KernelState("sysv_ipc", "removed", "System V shared memory, message queues and semaphores of the slot's IPC "
                "namespace are removed after each child (_remove_ipc)"),
    KernelState("posix_mqueue", "refused", "POSIX message queues: RLIMIT_MSGQUEUE is 0 in the worker and its "
                "children, so mq_open cannot make one"),
    KernelState("keyrings", "refused", "the kernel's user, user-session and session keyrings (nothing empties "
                "them): each child joins a fresh session keyring, then add_key, request_key and keyctl fail "
                "with EPERM (_refuse_keyrings: a seccomp filter; a warm child without it is a grader fault)"),
    KernelState("xattrs", "refused", "extended attributes: the kept folders themselves (work, results, tmp, "
                "mount points emptied, not replaced) would carry a user.* attribute to the next child, so the "
                "seccomp filter of _refuse_keyrings refuses setxattr, removexattr and their l/f/at forms too"),
    KernelState("processes", "ended", "every process but the worker is killed after each child, in the slot's "
                "own PID namespace (_end_the_rest)"),
    KernelState("sockets", "ended", "abstract and loopback sockets, pipes and memfds belong to processes, all "
                "ended; the network namespace has no interface but loopback"),
    KernelState("timers", "ended", "interval timers, POSIX timers and timerfds belong to processes, all ended"),
    KernelState("uts", "refused", "hostname and domain name: sethostname needs CAP_SYS_ADMIN, which bubblewrap "
                "drops"),
    KernelState("net_devices", "refused", "interfaces, addresses, routes, firewall rules of the network "
                "namespace: CAP_NET_ADMIN, which bubblewrap drops"),
)

_KEYRING_CALLS = {"x86_64": (0xC000003E, (248, 249, 250,   # add_key, request_key, keyctl
                                           188, 189, 190, 197, 198, 199, 463, 466)),  # (l|f)setxattr,
                  "aarch64": (0xC00000B7, (217, 218, 219,   # (l|f)removexattr, setxattrat, removexattrat
                                           5, 6, 7, 14, 15, 16, 463, 466))}

# The calls that reach another process by its pid (a signal, its priority, its CPUs, its limits):
# refused when they name the warm worker (this process's parent), the namespace's init (pid 1),
# a process group (0 or a negative pid: the worker is in this process's group) or, for
# priorities, a group or a user (every process of the user, the grader's too). What a child does
# to itself and to the processes it starts is its own. Per architecture: name -> number.
_PID_CALLS = {
    "x86_64": {"kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
               "setpriority": 141, "ioprio_set": 251, "sched_setaffinity": 203, "sched_setscheduler": 144,
               "sched_setparam": 142, "sched_setattr": 314, "prlimit64": 302, "pidfd_open": 434,
               "pidfd_send_signal": 424},
    "aarch64": {"kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240,
                "setpriority": 140, "ioprio_set": 30, "sched_setaffinity": 122, "sched_setscheduler": 119,
                "sched_setparam": 118, "sched_setattr": 274, "prlimit64": 261, "pidfd_open": 434,
                "pidfd_send_signal": 424},
}
_SIGNALS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")   # arg 0: a pid, 0 or -group
_BY_PID = ("tkill", "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr",
           "prlimit64", "pidfd_open")                                  # arg 0: a pid (0: itself)
_WHICH_WHO = {"setpriority": 0, "ioprio_set": 1}  # (which, who): only which == PRIO_PROCESS / IOPRIO_WHO_PROCESS


def seccomp_program(arch: str, parent: int) -> list[tuple[int, int, int, int]] | None:
    """The filter's BPF program for ``arch`` (None where the table has no such architecture):
    the keyring and extended-attribute calls refused (EPERM), every call of ``_PID_CALLS``
    refused where it names ``parent``, pid 1 or a group, ``pidfd_send_signal`` refused, the rest
    allowed. A call of another architecture (a 32-bit ``int 0x80``) or of the x32 ABI: refused."""
    if arch not in _KEYRING_CALLS or arch not in _PID_CALLS:
        return None
    audit, refused = _KEYRING_CALLS[arch]
    nrs = _PID_CALLS[arch]
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06   # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JGE|K, BPF_RET|K
    allow, refuse = 0x7FFF0000, 0x00050000 | 1   # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    arg = lambda i: 16 + 8 * i                   # noqa: E731 - the low 32 bits of argument i (little-endian)
    # (op, true label, false label, k): labels are names, resolved below; "" is the next instruction
    code: list[tuple] = [(ld, "", "", 4), (jeq, "", "REFUSE", audit), (ld, "", "", 0), (jge, "REFUSE", "", 0x40000000)]
    code += [(jeq, "REFUSE", "", nr) for nr in (*refused, nrs["pidfd_send_signal"])]
    for name in (*_SIGNALS, *_BY_PID, *_WHICH_WHO):
        code.append((jeq, name, "", nrs[name]))
    code.append((ret, "", "", allow))
    for name in _SIGNALS:
        code += [("label", name), (ld, "", "", arg(0)), (jeq, "REFUSE", "", 0), (jge, "REFUSE", "TARGET", 0x80000000)]
    for name in _BY_PID:
        code += [("label", name), (ld, "", "", arg(0)), ("jmp", "TARGET")]
    for name, process in _WHICH_WHO.items():
        code += [("label", name), (ld, "", "", arg(0)), (jeq, "", "REFUSE", process), (ld, "", "", arg(1)),
                 ("jmp", "TARGET")]
    code += [("label", "TARGET"), (jeq, "REFUSE", "", parent), (jeq, "REFUSE", "", 1), (ret, "", "", allow),
             ("label", "REFUSE"), (ret, "", "", refuse)]
    where, n = {}, 0
    for op in code:
        if op[0] == "label":
            where[op[1]] = n
        else:
            n += 1
    prog, n = [], 0
    for op in code:
        if op[0] == "label":
            continue
        if op[0] == "jmp":  # BPF_JMP|JA: an unconditional jump
            prog.append((0x05, 0, 0, where[op[1]] - n - 1))
        else:
            o, t, f, k = op
            jt = where[t] - n - 1 if t else 0
            jf = where[f] - n - 1 if f else 0
            assert 0 <= jt < 256 and 0 <= jf < 256, (op, jt, jf)
            prog.append((o, jt, jf, k))
        n += 1
    return prog


def _refuse_keyrings() -> bool:
    """A fresh, empty session keyring for this process (``KEYCTL_JOIN_SESSION_KEYRING`` with no
    name: an anonymous one, so nothing of the session the worker started in is inherited), then a
    seccomp filter on this process and all it starts (:func:`seccomp_program`): ``add_key``,
    ``request_key`` and ``keyctl`` fail with EPERM, and so do the calls that set or remove an
    extended attribute, and every call that would signal, slow, move or limit the warm worker
    (this process's parent) or the namespace's init (False where this machine's architecture is
    not in the table or the filter could not be set)."""
    # (here: loaded by the harness only when it runs, never by learner code's import)
    import ctypes
    import struct

    prog = seccomp_program(os.uname().machine, os.getppid())
    if prog is None:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall(ctypes.c_long(_KEYRING_CALLS[os.uname().machine][1][2]), ctypes.c_long(1), None)
    # (keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL); it may fail where the host's own filter already
    # refuses keyctl: then so is the learner's)
    raw = b"".join(struct.pack("HBBI", *op) for op in prog)
    buf = ctypes.create_string_buffer(raw)

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog), ctypes.addressof(buf))
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    return libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER


def scheduling_state() -> tuple:
    """This process's scheduling state: nice value, CPUs, every resource limit. A warm worker
    compares it after each child with what it had before the first, and is replaced when it
    differs (nothing its children did to it may reach the next child)."""
    limits = tuple(resource.getrlimit(getattr(resource, n)) for n in sorted(dir(resource)) if n.startswith("RLIMIT_"))
    try:
        cpus = tuple(sorted(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cpus = ()
    return os.getpriority(os.PRIO_PROCESS, 0), cpus, limits


def _end_the_rest() -> bool:
    """Kill every process of this PID namespace but this one and its init, until none is left
    (False if some are still there after many tries), then remove the System V IPC objects its
    children made (the IPC namespace outlives them)."""
    me = os.getpid()
    for _ in range(500):
        others = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in (me, 1):
                continue
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as fh:
                    if fh.read().rpartition(")")[2].split()[0] == "Z":
                        continue  # ended; its parent (the namespace's init) reaps it
            except (OSError, IndexError):
                continue
            others.append(int(name))
        if not others:
            return _remove_ipc()
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)
    return False


def _remove_ipc() -> bool:
    """Remove every System V shared-memory segment, message queue and semaphore set of this IPC
    namespace (False if one is left)."""
    import ctypes  # (here: loaded by the harness only when it runs, never by learner code's import)

    libc = ctypes.CDLL(None, use_errno=True)
    ok = True
    for table, remove in (("shm", libc.shmctl), ("msg", libc.msgctl), ("sem", libc.semctl)):
        try:
            with open(f"/proc/sysvipc/{table}", encoding="ascii") as fh:
                ids = [int(line.split()[1]) for line in fh.readlines()[1:] if line.strip()]
        except (OSError, ValueError, IndexError):
            continue
        for ident in ids:
            args = (ident, 0, 0) if table == "sem" else (ident, 0, None)  # IPC_RMID == 0
            if remove(*args) != 0:
                ok = False
    return ok
