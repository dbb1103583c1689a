#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the cluster state store relies on, checked against a running test
cluster (tools/cluster/ceph-up.sh up): each check prints "ok NAME: detail"
or "FAIL NAME: detail", latencies are medians over the loop, and the last
line is "N passed, N failed".

Usage: tools/cluster/probe.py CEPH_CONF [--slow]

  --slow  also how long a killed CephFS client keeps its file lock (up to
          the MDS's session_autoclose, 300 s by default)

Debian's python3-rados and python3-cephfs (tools/deps.sh --cluster); run it
with /usr/bin/python3, whose modules they are.
"""

import errno
import os
import signal
import statistics
import sys
import time

import cephfs
import rados

POOL = "smbsrv"
CONF = ""
N = 200

passed = 0
failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
    print(f"{'ok' if cond else 'FAIL'} {name}: {detail}", flush=True)


def connect(conf, name="admin"):
    r = rados.Rados(conffile=conf, rados_id=name)
    r.conf_set("rados_osd_op_timeout", "20")
    r.connect(timeout=30)
    return r


def err_of(fn):
    """The errno fn() raised as a rados.Error, or 0."""
    try:
        fn()
    except rados.Error as e:
        return abs(getattr(e, "errno", 0) or 0) or -1
    return 0


def median_us(fn, n=N):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def read_omap(io, oid):
    with rados.ReadOpCtx() as op:
        it, _ = io.get_omap_vals(op, "", "", 1000)
        io.operate_read_op(op, oid)
        vals = dict(it)
    return vals, io.get_last_version()


def write(io, oid, keys=(), vals=(), rm=(), version=None, cmp=None):
    with rados.WriteOpCtx() as op:
        if version is not None:
            op.assert_version(version)
        if cmp is not None:
            op.omap_cmp(cmp[0], cmp[1], rados.LIBRADOS_CMPXATTR_OP_EQ)
        if keys:
            io.set_omap(op, tuple(keys), tuple(vals))
        if rm:
            io.remove_omap_keys(op, tuple(rm))
        io.operate_write_op(op, oid)


def omap_checks(io):
    oid = "probe.inode"
    try:
        io.remove_object(oid)
    except rados.ObjectNotFound:
        pass
    write(io, oid, ["o.nodeA.1", "waiters"], [b"rw", b"0"])
    vals, ver = read_omap(io, oid)
    check("omap-read", vals.get("o.nodeA.1") == b"rw",
          f"{len(vals)} keys at version {ver}")

    # Optimistic concurrency: a write guarded by the version read.
    e = err_of(lambda: write(io, oid, ["o.nodeB.2"], [b"r"], version=ver))
    check("guarded-write", e == 0, "assert_version + omap_set applied")
    e = err_of(lambda: write(io, oid, ["o.nodeC.3"], [b"r"], version=ver))
    vals, ver2 = read_omap(io, oid)
    check("stale-version-refused",
          e == errno.ERANGE and "o.nodeC.3" not in vals,
          f"errno {e} ({errno.errorcode.get(e, '?')}), nothing written")

    # A blind write that must not happen while requests wait.
    e = err_of(lambda: write(io, oid, rm=["o.nodeB.2"], cmp=("waiters", "0")))
    vals, _ = read_omap(io, oid)
    check("omap-cmp-equal", e == 0 and "o.nodeB.2" not in vals,
          "guard held, key removed")
    write(io, oid, ["waiters"], [b"1"])
    e = err_of(lambda: write(io, oid, rm=["o.nodeA.1"], cmp=("waiters", "0")))
    vals, _ = read_omap(io, oid)
    check("omap-cmp-differs", e == errno.ECANCELED and "o.nodeA.1" in vals,
          f"errno {e} ({errno.errorcode.get(e, '?')}), whole op refused")
    e = err_of(lambda: write(io, oid, ["x"], [b"1"], cmp=("absent", "")))
    e2 = err_of(lambda: write(io, oid, ["x"], [b"1"], cmp=("absent", "0")))
    check("omap-cmp-missing-key", True,
          f"missing key vs '': errno {e}; vs '0': errno {e2} "
          f"({errno.errorcode.get(e2, '?')})")

    # Costs on this test bed (one OSD, loopback).
    t_read = median_us(lambda: read_omap(io, oid))

    def guarded():
        _, v = read_omap(io, oid)
        write(io, oid, ["o.nodeA.9"], [b"rw"], version=v)

    t_rmw = median_us(guarded)
    t_set = median_us(lambda: write(io, oid, ["o.nodeA.9"], [b"rw"]))
    t_cmp = median_us(lambda: write(io, oid, rm=["o.nodeA.9"],
                                    cmp=("waiters", "1")))
    check("latency", True,
          f"median omap read {t_read:.0f} us, read+guarded write "
          f"{t_rmw:.0f} us, omap set {t_set:.0f} us, "
          f"cmp-guarded remove {t_cmp:.0f} us (N={N})")
    io.remove_object(oid)


def lock_checks(conf, io):
    oid = "probe.node"
    other = connect(conf)
    io2 = other.open_ioctx(POOL)
    io.lock_exclusive(oid, "alive", "nodeA", "probe", duration=3)
    t0 = time.monotonic()
    e = err_of(lambda: io2.lock_exclusive(oid, "alive", "nodeB", duration=3))
    check("cls-lock-exclusive", e == errno.EBUSY,
          f"second holder gets errno {e} ({errno.errorcode.get(e, '?')})")
    # Renewal by the holder (LIBRADOS_LOCK_FLAG_MAY_RENEW = 1).
    e = err_of(lambda: io.lock_exclusive(oid, "alive", "nodeA", duration=3,
                                         flags=1))
    t0 = time.monotonic()
    check("cls-lock-renew", e == 0, "same cookie renews with flag 1")
    t_renew = median_us(lambda: io.lock_exclusive(oid, "alive", "nodeA",
                                                  duration=3, flags=1), 50)
    t0 = time.monotonic()
    while err_of(lambda: io2.lock_exclusive(oid, "alive", "nodeB",
                                            duration=3)) == errno.EBUSY:
        if time.monotonic() - t0 > 20:
            break
        time.sleep(0.1)
    waited = time.monotonic() - t0
    check("cls-lock-expiry", 2.5 < waited < 10,
          f"unrenewed 3 s lock taken over after {waited:.1f} s; "
          f"renewal costs {t_renew:.0f} us")
    io2.unlock(oid, "alive", "nodeB")
    io2.close()
    other.shutdown()


def watcher_child(conf, oid, timeout, ready_w):
    """A process watching oid, acking each notify, until killed."""
    r = connect(conf)
    io = r.open_ioctx(POOL)

    def cb(notify_id, notifier_id, watch_id, data):
        return b"ack:" + data

    w = io.watch(oid, cb, timeout=timeout)
    os.write(ready_w, b"1")
    while True:
        time.sleep(1)
    del w


def notify_checks(conf, io):
    oid = "probe.node.nodeB"
    io.write_full(oid, b"")
    t = time.perf_counter()
    io.notify(oid, "nobody", timeout_ms=1000)
    check("notify-no-watchers", True,
          f"returns at once ({(time.perf_counter() - t) * 1e3:.1f} ms)")

    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            watcher_child(conf, oid, 5, wr)
        finally:
            os._exit(0)
    os.close(wr)
    os.read(rd, 1)
    t_notify = median_us(lambda: io.notify(oid, "break", timeout_ms=5000), 50)
    check("notify-acked", True,
          f"notify to a live watcher, median round trip {t_notify:.0f} us")

    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    killed = time.monotonic()
    e = err_of(lambda: io.notify(oid, "break", timeout_ms=1000))
    check("notify-dead-watcher", e == errno.ETIMEDOUT,
          f"right after the kill: errno {e} ({errno.errorcode.get(e, '?')}) "
          "after the notify's own 1 s timeout")
    while err_of(lambda: io.notify(oid, "break", timeout_ms=1000)):
        if time.monotonic() - killed > 60:
            break
    gone = time.monotonic() - killed
    check("watch-timeout", gone < 15,
          f"a killed watcher (watch timeout 5 s) stops delaying notifies "
          f"after {gone:.1f} s")
    io.remove_object(oid)


def blocklist_checks(conf, r, io):
    victim = connect(conf)
    vio = victim.open_ioctx(POOL)
    vio.write_full("probe.fenced", b"before")
    addrs = victim.get_addrs()
    t = time.monotonic()
    r.blocklist_add(addrs.split(",")[0].strip("[]").split(":", 1)[-1]
                    if addrs.startswith("[") else addrs, 60)
    r.wait_for_latest_osdmap()
    e = err_of(lambda: vio.write_full("probe.fenced", b"after"))
    data = io.read("probe.fenced")
    check("blocklist-fences", e != 0 and data == b"before",
          f"blocklisted client's write fails with errno {e} "
          f"({errno.errorcode.get(e, '?')}) "
          f"{time.monotonic() - t:.1f} s after blocklist add ({addrs})")
    io.remove_object("probe.fenced")
    r.mon_command('{"prefix": "osd blocklist", "blocklistop": "clear"}', b"")
    try:
        victim.shutdown()
    except rados.Error:
        pass


def fs_connect(conf):
    fs = cephfs.LibCephFS(conffile=conf)
    fs.mount()
    return fs


def flock_child(conf, ready_w):
    """A CephFS client holding an exclusive flock on /probe.lock until
    killed; it writes its client address to ready_w once it holds it."""
    fs = fs_connect(conf)
    fd = fs.open(b"/probe.lock", os.O_CREAT | os.O_RDWR, 0o644)
    fs.flock(fd, 2 | 4, 1111)   # LOCK_EX | LOCK_NB
    os.write(ready_w, fs.get_addrs().encode() + b"\n")
    while True:
        time.sleep(1)


def blocklist_addrs(r, addrs):
    """Blocklist every address of a client ("[v2:ip:port/nonce,...]")."""
    for a in addrs.strip().strip("[]").split(","):
        a = a.split(":", 1)[1] if a.startswith(("v1:", "v2:", "any:")) else a
        r.blocklist_add(a, 600)


def held_lock_gone(b, killer, limit):
    """Start a CephFS client holding a flock, kill it, call killer(pid,
    addrs) (the survivors' fencing), return the seconds from the kill
    until client b gets the lock."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            flock_child(CONF, wr)
        finally:
            os._exit(0)
    os.close(wr)
    addrs = os.fdopen(rd).readline()
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    t = time.monotonic()
    killer(pid, addrs)
    fdb = b.open(b"/probe.lock", os.O_RDWR, 0)
    while True:
        try:
            b.flock(fdb, 2 | 4, 3)
            break
        except cephfs.Error:
            if time.monotonic() - t > limit:
                break
            time.sleep(0.2)
    gone = time.monotonic() - t
    b.flock(fdb, 8, 3)
    b.close(fdb)
    return gone


def cephfs_checks(conf, slow):
    a = fs_connect(conf)
    b = fs_connect(conf)
    fd = a.open(b"/probe.txt", os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
    a.write(fd, b"written by A", 0)
    a.fsync(fd, 0)
    fdb = b.open(b"/probe.txt", os.O_RDONLY, 0)
    got = b.read(fdb, 0, 64)
    ia = a.stat(b"/probe.txt").st_ino
    ib = b.stat(b"/probe.txt").st_ino
    check("cephfs-two-clients", got == b"written by A" and ia == ib,
          f"B reads A's write; both see inode {ia:#x}")
    a.flock(fd, 2 | 4, 1)
    try:
        b.flock(fdb, 2 | 4, 2)
        e = 0
    except cephfs.Error as ex:
        e = abs(getattr(ex, "errno", -1) or -1)
    check("cephfs-lock-across-clients", e in (errno.EWOULDBLOCK, errno.EAGAIN),
          f"B's exclusive flock while A holds one: errno {e}")
    a.flock(fd, 8, 1)           # LOCK_UN
    try:
        b.flock(fdb, 2 | 4, 2)
        b.flock(fdb, 8, 2)
        e = 0
    except cephfs.Error as ex:
        e = abs(getattr(ex, "errno", -1) or -1)
    check("cephfs-lock-released", e == 0, f"B gets it once A unlocks ({e})")
    a.close(fd)
    b.close(fdb)
    a.unlink(b"/probe.txt")

    # A node that died is fenced by the survivors: blocklisting its
    # CephFS client must free what the MDS still holds for it.
    r = connect(CONF)
    gone = held_lock_gone(b, lambda pid, addrs: blocklist_addrs(r, addrs), 120)
    check("cephfs-fenced-client-lock", gone < 60,
          f"a blocklisted client's flock is released after {gone:.1f} s")
    r.mon_command('{"prefix": "osd blocklist", "blocklistop": "clear"}', b"")
    r.shutdown()
    if slow:
        gone = held_lock_gone(b, lambda pid, addrs: None, 400)
        check("cephfs-dead-client-lock", gone < 400,
              f"a killed, unfenced client's flock is released after "
              f"{gone:.0f} s")
    a.unlink(b"/probe.lock")
    a.shutdown()
    b.shutdown()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    global CONF
    conf = CONF = sys.argv[1]
    slow = "--slow" in sys.argv[2:]
    r = connect(conf)
    io = r.open_ioctx(POOL)
    omap_checks(io)
    lock_checks(conf, io)
    notify_checks(conf, io)
    blocklist_checks(conf, r, io)
    cephfs_checks(conf, slow)
    io.close()
    r.shutdown()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
