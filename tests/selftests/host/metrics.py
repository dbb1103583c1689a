#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The metrics of a running server against a workload of known size.

A cifs mount in the guest (cache=none: every write(2) and read(2) is a
WRITE or READ to the server) copies 8 MiB in and reads it back while the
endpoint (metrics listen) and smbsrvctl stats --prometheus -o FILE are
scraped; the counters must move by exactly the bytes written and read,
the requests and errors as caused (a failed logon from the host, an open
of a missing file), never backwards, and every scrape must pass promtool
check metrics.  Then the endpoint's errors (404, 405), a reload that
moves it and one that stops it.  Prints "PASS text" or "FAIL text: why"
per check; metrics.sh turns them into TAP.

    metrics.py PORT VM-NAME
"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manage import TOP, expect  # noqa: E402

MIB = 1 << 20
SIZE = 8 * MIB
URL = "http://127.0.0.1:9922/metrics"


def guest(vm, script, timeout=300):
    """A guest script: (exit status, its output as it is: a scrape keeps
    its last newline, which the text format needs)."""
    p = subprocess.run(
        ["bash", "-c", '. "$0/tools/vm/lib.sh"; vm_exec "$1" "$2"', TOP, vm,
         script], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def guest_ok(vm, script):
    rc, out = guest(vm, script)
    return rc == 0, "rc %d: %s" % (rc, out[-2000:])


def parse(text):
    """Prometheus text -> {'name{labels}': float}."""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        samples[key] = float(value)
    return samples


def promtool(text):
    """promtool check metrics on the host: (ok, what it said)."""
    p = subprocess.run(["promtool", "check", "metrics"], input=text,
                       capture_output=True, text=True, timeout=60)
    return p.returncode == 0 and not (p.stdout + p.stderr).strip(), \
        (p.stdout + p.stderr)[-2000:]


class Scrapes:
    """Every scrape taken, by how, to check them all with promtool."""

    def __init__(self, vm):
        self.vm = vm
        self.texts = []

    def endpoint(self):
        rc, out = guest(self.vm, "wget -q -O - %s" % URL)
        if rc != 0:
            raise RuntimeError("wget: rc %d: %s" % (rc, out))
        self.texts.append(("endpoint", out))
        return parse(out)

    def textfile(self):
        rc, out = guest(self.vm, "smbsrvctl stats --prometheus -o "
                        "/tmp/textfile/smbsrv.prom && cat "
                        "/tmp/textfile/smbsrv.prom")
        if rc != 0:
            raise RuntimeError("smbsrvctl: rc %d: %s" % (rc, out))
        self.texts.append(("textfile", out))
        return parse(out)


def cmd(name):
    return '{command="%s"}' % name


def main():
    port, vm = int(sys.argv[1]), sys.argv[2]
    s = Scrapes(vm)
    guest(vm, "mkdir -p /tmp/textfile")

    first = s.endpoint()
    expect("endpoint: smbsrv_up 1, daemon running, listening",
           lambda: (first.get("smbsrv_up") == 1 and
                    first.get("smbsrv_daemon_running") == 1 and
                    first.get("smbsrv_listening") == 1, first))
    expect("textfile: the same families as the endpoint",
           lambda: (set(k.split("{")[0] for k in s.textfile()) ==
                    set(k.split("{")[0] for k in first), ""))

    # A failed logon from the host: one session_setup error.
    before = s.endpoint()
    subprocess.run(["smbclient", "//127.0.0.1/data", "-p", str(port), "-m",
                    "SMB3", "-U", "alice%wrong", "-c", "ls"],
                   capture_output=True, timeout=120)
    after = s.endpoint()
    k = "smbsrv_request_errors_total" + cmd("session_setup")
    expect("a failed logon: session_setup errors +1",
           lambda: (after[k] - before[k] == 1, (before[k], after[k])))

    expect("cifs mount of [data] as alice (3.1.1, cache=none)",
           lambda: guest_ok(vm, "mkdir -p /mnt/m && mount -t cifs "
                            "//127.0.0.1/data /mnt/m -o username=alice,"
                            "password=alice-pw,uid=1001,cache=none,"
                            "vers=3.1.1 && dd if=/dev/urandom "
                            "of=/tmp/src bs=1M count=8 2>/dev/null"))
    mounted = s.endpoint()
    expect("one session, tree connects to [data] 1",
           lambda: (mounted["smbsrv_sessions"] == 1 and
                    mounted['smbsrv_share_tree_connects{share="data"}'] == 1,
                    mounted))

    # 8 MiB written while both ways are scraped every 0.3 s.
    a = s.endpoint()
    a_txt = s.textfile()
    rc, out = guest(vm, """
dd if=/tmp/src of=/mnt/m/f bs=1M 2>/dev/null &
dd_pid=$!
n=0
while kill -0 $dd_pid 2>/dev/null; do
    wget -q -O /tmp/during.$n %s
    smbsrvctl stats --prometheus -o /tmp/textfile/smbsrv.prom
    cp /tmp/textfile/smbsrv.prom /tmp/during-tf.$n
    n=$((n + 1))
    sleep 0.3
done
wait $dd_pid
echo scrapes $n
""" % URL)
    n = int(re.search(r"scrapes (\d+)", out).group(1)) if "scrapes" in out \
        else 0
    during = []
    for i in range(n):
        for f in ("/tmp/during.%d" % i, "/tmp/during-tf.%d" % i):
            rc2, t = guest(vm, "cat %s" % f)
            if rc2 == 0:
                s.texts.append(("during " + f, t))
                during.append(parse(t))
    b = s.endpoint()
    b_txt = s.textfile()
    wb = "smbsrv_write_bytes_total"
    expect("8 MiB copied in through the mount (scraped %d times meanwhile)"
           % len(during), lambda: (rc == 0 and len(during) >= 1, out))
    expect("endpoint: smbsrv_write_bytes_total moved by exactly 8 MiB",
           lambda: (b[wb] - a[wb] == SIZE, b[wb] - a[wb]))
    expect("textfile: smbsrv_write_bytes_total moved by exactly 8 MiB",
           lambda: (b_txt[wb] - a_txt[wb] == SIZE, b_txt[wb] - a_txt[wb]))
    seq = [a[wb]] + [d[wb] for d in during] + [b[wb]]
    expect("the scrapes during the copy never go backwards and stay "
           "within it", lambda: (all(x <= y for x, y in zip(seq, seq[1:]))
                                 and seq[-1] - seq[0] == SIZE, seq))
    wr = "smbsrv_requests_total" + cmd("write")
    expect("WRITE requests: at least 8 (1 MiB each at most)",
           lambda: (b[wr] - a[wr] >= 8, b[wr] - a[wr]))
    cnt = 'smbsrv_request_duration_seconds_count{command="write"}'
    inf = 'smbsrv_request_duration_seconds_bucket{command="write",le="+Inf"}'
    expect("the WRITE histogram: count = requests = +Inf bucket, buckets "
           "cumulative", lambda: (
               b[cnt] == b[wr] == b[inf] and
               all(x <= y for x, y in zip(
                   [v for k2, v in b.items()
                    if k2.startswith('smbsrv_request_duration_seconds_bucket'
                                     '{command="write"')],
                   [v for k2, v in b.items()
                    if k2.startswith('smbsrv_request_duration_seconds_bucket'
                                     '{command="write"')][1:])), b[cnt]))
    expect("the file on the server is the 8 MiB written",
           lambda: guest_ok(vm, "cmp /tmp/src /srv/data/f"))

    # 8 MiB read back.
    rb = "smbsrv_read_bytes_total"
    expect("8 MiB read back through the mount, the same bytes",
           lambda: guest_ok(vm, "dd if=/mnt/m/f bs=1M 2>/dev/null | "
                            "cmp - /tmp/src"))
    c = s.endpoint()
    expect("smbsrv_read_bytes_total moved by exactly 8 MiB",
           lambda: (c[rb] - b[rb] == SIZE, c[rb] - b[rb]))
    expect("smbsrv_write_bytes_total did not move while reading",
           lambda: (c[wb] == b[wb], c[wb] - b[wb]))

    # An open of a missing file: one CREATE error; an open file counted.
    rc, out = guest(vm, "ls /mnt/m/no-such-file 2>&1; "
                    "exec 3>/mnt/m/held; wget -q -O - %s | "
                    "grep '^smbsrv_open_files '; exec 3>&-" % URL)
    d = s.endpoint()
    ce = "smbsrv_request_errors_total" + cmd("create")
    expect("an open of a missing file: CREATE errors moved",
           lambda: (d[ce] - c[ce] >= 1, d[ce] - c[ce]))
    expect("a file held open: smbsrv_open_files at least 1 meanwhile",
           lambda: (re.search(r"^smbsrv_open_files [1-9]", out, re.M)
                    is not None, out))
    expect("open files back to 0 once it is closed",
           lambda: (d["smbsrv_open_files"] == 0, d["smbsrv_open_files"]))

    # Every scrape taken is valid Prometheus text.
    bad = []
    for how, text in s.texts:
        ok, said = promtool(text)
        if not ok:
            bad.append((how, said))
    expect("promtool check metrics accepts all %d scrapes" % len(s.texts),
           lambda: (not bad and len(s.texts) >= 10, bad[:2]))

    # The endpoint's errors.
    expect("GET / is 404",
           lambda: guest_ok(vm, "wget -S -O /dev/null http://127.0.0.1:9922/"
                            " 2>&1 | grep -q ' 404 '"))
    expect("a POST is 405 (raw request through nc)",
           lambda: guest_ok(vm, "printf 'POST /metrics HTTP/1.1\\r\\n\\r\\n' |"
                            " nc 127.0.0.1 9922 | head -1 | grep -q "
                            "'^HTTP/1.1 405'"))

    # A reload moves the endpoint, another stops it.
    expect("metrics listen = 127.0.0.1:9923, smbsrvctl reload: the new "
           "port answers, the old one is closed",
           lambda: guest_ok(vm, """set -e
sed -i 's/127.0.0.1:9922/127.0.0.1:9923/' /etc/smbsrv/smbsrv.conf
smbsrvctl reload
for i in $(seq 1 50); do
    wget -q -O /tmp/m2 http://127.0.0.1:9923/metrics && break
    sleep 0.2
done
grep -q '^smbsrv_up 1$' /tmp/m2
! wget -q -O /dev/null http://127.0.0.1:9922/metrics"""))
    expect("metrics listen removed, smbsrvctl reload: no endpoint",
           lambda: guest_ok(vm, """set -e
sed -i '/metrics listen/d' /etc/smbsrv/smbsrv.conf
smbsrvctl reload
for i in $(seq 1 50); do
    grep -q 'metrics endpoint stopped' /tmp/smbsrvd.log && break
    sleep 0.2
done
! wget -q -O /dev/null http://127.0.0.1:9923/metrics"""))
    expect("the mount unmounts", lambda: guest_ok(vm, "umount /mnt/m"))


if __name__ == "__main__":
    main()
