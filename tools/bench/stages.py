#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-stage breakdown of QD1 requests from traced runs.

Reads the output of tools/bench/guest/stages.sh (one file per traced run,
named ROUND-SERVER-RW-BS) and prints, per cell and server, the median of
each stage of a request's life in microseconds.  At queue depth 1 exactly
one request is in flight, so a request is everything between the cifs
client's smb3_*_enter and smb3_*_done events; no MessageId matching is
needed (and ksmbd's kprobes carry none).

Stages (the same cut points for both servers):

  c->s     client sends .. the server's receiver reads the first bytes
  recv     first bytes read .. message complete
  queue    message complete .. a worker starts it (0 for an inline READ)
  handler  worker start .. handler returned
  reply    handler returned .. response queued for sending
  send     response queued .. written to the socket
  s->c     written .. the client has processed the response
  total    client sends .. client done

  stages.py RUNFILE... [--md]
  stages.py --timed RUNFILE...   MiB/s and clat p50/p99 per cell and
                                 server, each smbsrv's /ksmbd and
                                 /smbsrv (the defaults) per round
  stages.py --rows LABEL RUNFILE...   smbsrv against ksmbd, one row per cell
  stages.py --stats RUNFILE...   the module's counters over each smbsrv's
                                 runs of a cell (smbsrvctl stats after
                                 minus before, summed): messages queued
                                 per I/O on each queue, other counters
                                 that moved

A server named smbsrv+OPTIONS is smbsrv with the WRITE placement options
of stages.sh --variants; "smbsrv" alone has the defaults.

Per traced cell: n requests, data-ready events (dr), receive work runs
per request (either work), inline (run by the receiver), xcpu (worker on
another CPU than the message's receive), ccpu (worker on another CPU than
the client's send), rccpu (receive completed on another CPU than the
client's send), recv-unbound (a run of the unbound receive work),
h-unbound (handler on smbsrv-unbound).
"""
import json
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\S+):\s?(.*)$')
STAGES = ["c->s", "recv", "queue", "handler", "reply", "send", "s->c", "total"]


def events(text):
    asked = {}		# ksmbd: what the thread's pending read asked for
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, cpu, ts, name, rest = m.groups()
        if name == 'read':
            asked[pid] = field(rest, 'len')
        elif name == 'read_ret':
            rest += ' len=%s' % asked.get(pid)
        yield float(ts) * 1e6, name, int(cpu), comm, rest


def field(rest, key):
    m = re.search(r'\b' + key + r'=(\S+)', rest)
    return m.group(1) if m else None


def requests(evs):
    """Split the event stream at the client's enter/done pairs."""
    cur = None
    for ts, name, cpu, comm, rest in evs:
        if name.endswith('_enter') and name.startswith('smb3_'):
            cur = [(ts, name, cpu, comm, rest)]
            continue
        if cur is None:
            continue
        cur.append((ts, name, cpu, comm, rest))
        if name.endswith('_done') and name.startswith('smb3_'):
            yield cur
            cur = None


def first(req, name, pred=None):
    for e in req:
        if e[1] == name and (pred is None or pred(e)):
            return e
    return None


def last(req, name):
    for e in reversed(req):
        if e[1] == name:
            return e
    return None


def smbsrv_req(req):
    a, d = req[0], req[-1]
    p = first(req, 'smbsrv_pdu_complete')
    w = first(req, 'smbsrv_worker_start')
    h = last(req, 'smbsrv_handler_done')
    q = first(req, 'smbsrv_rsp_queued')
    f = first(req, 'smbsrv_frame_written')
    if not all((p, w, h, q, f)):
        return None
    r0 = p[0] - int(field(p[4], 'recv_ns')) / 1000.0
    st = {
        "c->s": r0 - a[0], "recv": p[0] - r0, "queue": w[0] - p[0],
        "handler": h[0] - w[0], "reply": q[0] - h[0], "send": f[0] - q[0],
        "s->c": d[0] - f[0], "total": d[0] - a[0],
    }
    extra = {
        "data_ready": sum(1 for e in req if e[1] == 'smbsrv_data_ready'),
        "recv_runs": sum(1 for e in req if e[1] in ('recv_run', 'recv_unbound')),
        "inline": 'queue=inline' in w[4],
        # Unbound kworkers are named kworker/uN:M, per-CPU ones kworker/C:M.
        "recv_unbound": any(e[1] == 'recv_unbound' for e in req),
        "other_cpu": p[2] != w[2],
        "client_cpu": a[2] != w[2],
        "recv_client_cpu": p[2] != a[2],
        "handler_unbound": 'queue=unbound' in w[4],
    }
    return st, extra


def ksmbd_req(req):
    a, d = req[0], req[-1]
    # The header read (4 bytes) returns when the message starts coming.
    r0 = p = None
    for e in req:
        if e[1] != 'read_ret' or field(e[4], 'len') in (None, 'None'):
            continue
        if field(e[4], 'len') == '4' and r0 is None:
            r0 = e
        elif field(e[4], 'len') != '4' and r0 is not None and p is None:
            p = e
    q0 = first(req, 'queue')
    w = first(req, 'worker')
    h = None
    for name in ('h_write_ret', 'h_read_ret'):
        h = h or first(req, name)
    s = first(req, 'send')
    f = first(req, 'send_ret')
    if not all((r0, p, q0, w, h, s, f)):
        return None
    st = {
        "c->s": r0[0] - a[0], "recv": p[0] - r0[0], "queue": w[0] - p[0],
        "handler": h[0] - w[0], "reply": s[0] - h[0], "send": f[0] - s[0],
        "s->c": d[0] - f[0], "total": d[0] - a[0],
    }
    extra = {
        "data_ready": 0, "recv_runs": 0, "inline": False,
        "recv_unbound": False,
        "other_cpu": p[2] != w[2], "client_cpu": a[2] != w[2],
        "recv_client_cpu": p[2] != a[2], "handler_unbound": False,
    }
    return st, extra


def parse(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    fio = trace = ""
    if "@@fio\n" in text:
        fio = text.split("@@fio\n", 1)[1].split("@@trace\n", 1)[0]
    if "@@trace\n" in text:
        trace = text.split("@@trace\n", 1)[1].split("@@end", 1)[0]
    return fio, trace


def timed_runs(files, quiet=False):
    """Untraced runs, named ROUND-SERVER-RW-BS:
    {(rw, bs): {server: {round: (MiB/s, clat p50 us, clat p99 us)}}}."""
    runs = defaultdict(dict)
    for path in files:
        parts = path.rsplit("/", 1)[-1].split("-")
        if len(parts) < 4:
            continue
        r, srv, rw, bs = parts[0], parts[1], parts[2], parts[3]
        fio, _ = parse(path)
        try:
            j = json.loads(fio)["jobs"][0][rw]
        except (ValueError, KeyError, IndexError):
            if not quiet:
                print("%s: no fio result" % path)
            continue
        pct = j["clat_ns"]["percentile"]
        runs[(rw, bs)].setdefault(srv, {})[r] = (
            j["bw"] / 1024.0, pct["50.000000"] / 1000.0, pct["99.000000"] / 1000.0)
    return runs


def ratios(by, srv, base):
    """srv/base MiB/s per round both ran, and their median."""
    if srv == base or srv not in by or base not in by:
        return None
    rounds = sorted(set(by[srv]) & set(by[base]), key=int)
    if not rounds:
        return None
    v = [by[srv][r][0] / by[base][r][0] for r in rounds]
    return " ".join("%.2f" % x for x in v), statistics.median(v)


def timed(files, depth="1x1"):
    """Paired by round; DEPTH is QDxJOBS of the runs (label only)."""
    qd, jobs = depth.split("x")
    label = "QD%s" % qd + ("" if jobs == "1" else " x%s jobs" % jobs)
    runs = timed_runs(files)
    print("| cell | server | MiB/s median (min-max) | clat p50 us | clat p99 us |"
          " /ksmbd per round | median | /smbsrv per round | median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (rw, bs), by in sorted(runs.items()):
        for srv in sorted(by, key=lambda x: (x == "ksmbd", x)):
            v = list(by[srv].values())
            bw = [x[0] for x in v]
            row = "| %s %s %s | %s | %.2f (%.2f-%.2f) | %.0f | %.0f |" % (
                rw.upper(), bs, label, srv, statistics.median(bw), min(bw), max(bw),
                statistics.median(x[1] for x in v), statistics.median(x[2] for x in v))
            for base in ("ksmbd", "smbsrv"):
                r = ratios(by, srv, base) if srv != "ksmbd" else None
                row += " %s | %.2f |" % r if r else " | |"
            print(row)


def rows(label, files):
    """One markdown row per cell and smbsrv: against ksmbd, per round."""
    runs = timed_runs(files, quiet=True)

    def bw(d):
        v = [x[0] for x in d.values()]
        return "%.2f (%.2f-%.2f)" % (statistics.median(v), min(v), max(v))

    def med(d, i):
        return statistics.median(x[i] for x in d.values())
    for (rw, bs), by in sorted(runs.items(), key=lambda x: (x[0][0] == "read", x[0][1])):
        for srv in sorted(x for x in by if x != "ksmbd"):
            r = ratios(by, srv, "ksmbd")
            if not r:
                continue
            s, k = by[srv], by["ksmbd"]
            print("| %s %s | %s | %s | %s | %s | %.2f | %.0f / %.0f | %.0f / %.0f |" % (
                rw.upper(), bs.upper(), label if srv == "smbsrv" else label + " " + srv,
                bw(s), bw(k), r[0], r[1], med(s, 1), med(k, 1), med(s, 2), med(k, 2)))


def counters(text, tag):
    """smbsrvctl stats lines marked TAG: {name: value}, a queue's
    QUEUED as "queued NAME"."""
    c = {}
    for line in text.splitlines():
        if not line.startswith(tag + " "):
            continue
        f = line[len(tag) + 1:].split()
        if len(f) == 11 and f[1] in ("percpu", "unbound") and f[2].isdigit():
            c["queued " + f[0]] = int(f[2])
        elif len(f) >= 2 and f[-1].isdigit() and f[-2].endswith(":"):
            c[" ".join(f[:-1])[:-1]] = int(f[-1])
    return c


def stats(files):
    """Counter deltas over the runs of each cell and smbsrv."""
    delta = defaultdict(lambda: defaultdict(int))
    ios = defaultdict(int)
    for path in files:
        parts = path.rsplit("/", 1)[-1].split("-")
        if len(parts) < 4 or not parts[1].startswith("smbsrv"):
            continue
        srv, rw, bs = parts[1], parts[2], parts[3]
        text = open(path, encoding="utf-8", errors="replace").read()
        before, after = counters(text, "@@stats0"), counters(text, "@@stats1")
        fio, _ = parse(path)
        try:
            ios[(rw, bs, srv)] += json.loads(fio)["jobs"][0][rw]["total_ios"]
        except (ValueError, KeyError, IndexError):
            continue
        for k, v in after.items():
            if k in before:
                delta[(rw, bs, srv)][k] += v - before[k]
    for key in sorted(delta):
        rw, bs, srv = key
        d, n = delta[key], max(ios[key], 1)
        q = " ".join("%s/IO=%.2f" % (k, v / n) for k, v in sorted(d.items())
                     if k.startswith("queued "))
        other = " ".join("%s=%d" % (k.replace(" ", "_"), v)
                         for k, v in sorted(d.items())
                         if v and not k.startswith("queued "))
        print("%-5s %-4s %-10s IOs=%d %s %s" % (rw, bs, srv, ios[key], q, other))


def main(argv):
    if argv and argv[0] == "--stats":
        stats(argv[1:])
        return
    if argv and argv[0] == "--timed":
        if len(argv) > 2 and argv[1] == "--depth":
            timed(argv[3:], argv[2])
        else:
            timed(argv[1:])
        return
    if argv and argv[0] == "--rows":
        rows(argv[1], argv[2:])
        return
    md = "--md" in argv
    files = [a for a in argv if a != "--md"]
    cells = defaultdict(lambda: defaultdict(list))
    extras = defaultdict(lambda: defaultdict(list))
    fios = defaultdict(list)
    for path in files:
        name = path.rsplit("/", 1)[-1]
        parts = name.split("-")
        if len(parts) < 4:
            continue
        srv, rw, bs = parts[1], parts[2], parts[3]
        fio, trace = parse(path)
        key = (rw, bs, srv)
        if fio.strip():
            try:
                j = json.loads(fio)["jobs"][0][rw]
                fios[key].append((j["bw"] / 1024.0, j["clat_ns"]["percentile"]))
            except (ValueError, KeyError, IndexError):
                pass
        fn = smbsrv_req if srv.startswith("smbsrv") else ksmbd_req
        reqs = list(requests(events(trace)))
        for req in reqs[1:]:		# the first may have started untraced
            r = fn(req)
            if not r:
                continue
            for k, v in r[0].items():
                cells[key][k].append(v)
            for k, v in r[1].items():
                extras[key][k].append(v)
    for key in sorted(cells):
        rw, bs, srv = key
        st = cells[key]
        n = len(st["total"])
        line = " | ".join("%.0f" % statistics.median(st[s]) for s in STAGES)
        ex = extras[key]
        info = ("n=%d dr=%.1f runs=%.1f inline=%.0f%% xcpu=%.0f%% ccpu=%.0f%%"
                " rccpu=%.0f%% recv-unbound=%.0f%% h-unbound=%.0f%%") % (
            n, statistics.mean(ex["data_ready"]), statistics.mean(ex["recv_runs"]),
            100 * statistics.mean(ex["inline"]), 100 * statistics.mean(ex["other_cpu"]),
            100 * statistics.mean(ex["client_cpu"]),
            100 * statistics.mean(ex["recv_client_cpu"]),
            100 * statistics.mean(ex["recv_unbound"]),
            100 * statistics.mean(ex["handler_unbound"]))
        if fios[key]:
            bw = statistics.median(b for b, _ in fios[key])
            info += " traced-MiB/s=%.1f" % bw
        if md:
            print("| %s %s QD1 | %s | %s | %s |" % (rw.upper(), bs, srv, line, info))
        else:
            print("%-5s %-4s %-7s %s   %s" % (rw, bs, srv, line, info))
        means = " ".join("%s=%.0f" % (s, statistics.mean(st[s])) for s in STAGES)
        if not md:
            print("      means: " + means)


if __name__ == "__main__":
    main(sys.argv[1:])
