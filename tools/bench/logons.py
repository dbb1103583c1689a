#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Logon rate and latency of one server, for tools/bench/logon.sh: N
SMB2 logons (SESSION_SETUP to completion, then LOGOFF), each on a fresh
connection, by impacket's client; only the logon itself is timed
(connection and NEGOTIATE are not).  Kerberos logons present a service
ticket from an MIT ccache with a fresh authenticator each time (no
replay); NTLMv2 logons a password.  With --procs P, P processes log on
at once and the rate is the total over the wall time.

    logons.py PORT HOST METHOD N [--procs P] [--ccache F --realm R] [--user U --password W]

Prints one line: "METHOD n=N procs=P rate=R/s p50=A ms p90=B ms max=C ms".
"""

import argparse
import multiprocessing
import statistics
import sys
import time

from impacket.krb5.ccache import CCache
from impacket.smbconnection import SMBConnection


def run(args, n, out):
    """Puts the logon times, or the error that stopped them (a child that
    died without putting anything would leave main() waiting forever)."""
    try:
        out.put(logons(args, n))
    except Exception as e:  # noqa: BLE001 - any failure ends the run
        out.put("%s: %s" % (type(e).__name__, e))


def logons(args, n):
    tgs = None
    if args.method == "kerberos":
        cc = CCache.loadFile(args.ccache)
        cred = cc.getCredential("cifs/%s@%s" % (args.host, args.realm), anySPN=False)
        tgs = cred.toTGS()
    times = []
    for _ in range(n):
        c = SMBConnection(args.host, "127.0.0.1", sess_port=args.port, timeout=120)
        t0 = time.perf_counter()
        if tgs is not None:
            c.kerberosLogin(args.user, "", args.realm, TGS=tgs)
        else:
            c.login(args.user, args.password)
        times.append(time.perf_counter() - t0)
        c.logoff()
        c.close()
    return times


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("host")
    p.add_argument("method", choices=["kerberos", "ntlmv2"])
    p.add_argument("n", type=int)
    p.add_argument("--procs", type=int, default=1)
    p.add_argument("--ccache")
    p.add_argument("--realm", default="")
    p.add_argument("--user", default="")
    p.add_argument("--password", default="")
    args = p.parse_args()
    q = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=run, args=(args, args.n, q))
             for _ in range(args.procs)]
    t0 = time.perf_counter()
    for pr in procs:
        pr.start()
    times, errors = [], []
    for _ in procs:
        got = q.get()
        if isinstance(got, str):
            errors.append(got)
        else:
            times += got
    wall = time.perf_counter() - t0
    for pr in procs:
        pr.join()
    if errors:
        print("%s failed: %s" % (args.method, errors[0]))
        sys.exit(1)
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    # The rate: logons over the time spent logging on (sequential: the
    # sum of the timed parts; parallel: over the wall time).
    busy = sum(times) if args.procs == 1 else wall
    print("%s n=%d procs=%d rate=%.1f/s p50=%.1f ms p90=%.1f ms max=%.1f ms" % (
        args.method, len(ms), args.procs, len(ms) / busy, statistics.median(ms), p90, ms[-1]))


if __name__ == "__main__":
    main()
