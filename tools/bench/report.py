#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Tables and plots from a tools/bench/bench.sh results directory.

    report.py DIR                 write DIR/report.md, DIR/results.json and,
                                  when the sweep ran, DIR/sweep.png
    report.py --compare A B       per-cell agreement of two runs (MiB/s and
                                  CPU-s/GiB, B against A)

Per run (DIR/runs/ROUND-SERVER-RW-BS-QD-JOBS): fio's JSON, the guest's
/proc/stat 'cpu' line before and after, smbsrvctl stats before and after.
The lease cell's runs (RW = reread, tools/bench/guest/reread.sh) have two
phases, READ and re-READ, each with its fio JSON, /proc/stat, smbsrvctl
stats and the cifs client's count of READs sent; and what smbsrvctl opens
showed for the file between them.
CPU-seconds are the busy time of all guest CPUs (user, nice, system, irq,
softirq, steal) over the run, client and server together.
"""
import json
import os
import re
import statistics
import subprocess
import sys

USER_HZ = 100
SIZES = {'k': 1 << 10, 'm': 1 << 20}


def size_bytes(s):
    return int(s[:-1]) * SIZES[s[-1]] if s[-1] in SIZES else int(s)


def parse_stats(lines):
    """smbsrvctl stats -> {name: number}: 'key: value' lines, and the queue
    table's columns as QUEUE.COLUMN."""
    out = {}
    header = None
    for line in lines:
        m = re.match(r'^([A-Za-z][\w .()/-]*?):\s+(\d+)\s*$', line)
        if m:
            out[m.group(1).strip()] = int(m.group(2))
            continue
        f = line.split()
        if f and f[0] == 'QUEUE':
            header = f
            continue
        if header and len(f) == len(header):
            for h, v in zip(header[2:], f[2:]):
                try:
                    out[f'{f[0]}.{h}'] = float(v)
                except ValueError:
                    pass
    return out


def stats_delta(s0, s1):
    """Counters that moved during the run; a queue's WAIT-US is a mean, so
    its delta is the mean wait of the messages started during the run."""
    d = {}
    for k, v in s1.items():
        if k not in s0:
            continue
        if k.endswith('.WAIT-US') or k.endswith('.INFLIGHT') or k.endswith('.MAX') \
                or k.endswith('.BATCH'):
            continue
        if v - s0[k]:
            d[k] = v - s0[k]
    for k in s1:
        if not k.endswith('.WAIT-US'):
            continue
        q = k[:-len('.WAIT-US')]
        try:
            n0 = s0[q + '.COMPLETED'] + s0[q + '.INFLIGHT']
            n1 = s1[q + '.COMPLETED'] + s1[q + '.INFLIGHT']
        except KeyError:
            continue
        if n1 > n0:
            d[k] = (s1[k] * n1 - s0[k] * n0) / (n1 - n0)
    return d


def busy_seconds(a, b):
    return sum(y - x for i, (x, y) in enumerate(zip(a, b))
               if i in (0, 1, 2, 5, 6, 7)) / USER_HZ


def parse_reread(path):
    """A lease cell run: {'round', 'server', 'phases': [READ, re-READ],
    'opens', 'mount'}, each phase with MiB/s, bytes, CPU-s/GiB, the
    smbsrv counters that moved, the client's READs sent and the READs
    smbsrv served (read spliced + read copied)."""
    sec = None
    body = {'fio': [], 'fio2': [], 'stats0': [], 'stats1': [], 'stats2': [],
            'opens': [], 'cifs-open-files': [], 'err': []}
    r = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('@@'):
            tag, _, rest = line[2:].partition(' ')
            if re.match(r'^stat\d$', tag):
                r[tag] = [int(x) for x in rest.split()[1:]]
            elif re.match(r'^cifs-reads\d$', tag):
                r[tag] = int(rest) if rest.strip().isdigit() else None
            elif tag in ('fio-rc', 'verify-rc'):
                r[tag] = int(rest)
            elif tag == 'mount':
                r['mount'] = rest
            elif tag == 'dmesg-warnings':
                r['warnings'] = int(rest)
            elif tag == 'err':
                body['err'].append(rest)
            sec = tag if tag in body else None
            continue
        if sec:
            body[sec].append(line)
    if 'stat2' not in r or r.get('fio-rc') != 0 or r.get('verify-rc') != 0:
        return None
    base = os.path.basename(path)
    rnd, rest = base.split('-', 1)
    server = re.match(r'^(.*)-reread-', rest).group(1)
    phases = []
    for i, key in ((0, 'fio'), (1, 'fio2')):
        d = json.loads('\n'.join(body[key]))['jobs'][0]['read']
        busy = busy_seconds(r[f'stat{i}'], r[f'stat{i + 1}'])
        c = stats_delta(parse_stats(body[f'stats{i}']), parse_stats(body[f'stats{i + 1}']))
        sent = None
        if r.get(f'cifs-reads{i}') is not None and r.get(f'cifs-reads{i + 1}') is not None:
            sent = r[f'cifs-reads{i + 1}'] - r[f'cifs-reads{i}']
        phases.append({
            'mibs': d['bw_bytes'] / (1 << 20),
            'bytes': d['io_bytes'],
            'cpu_per_gib': busy / (d['io_bytes'] / (1 << 30)) if d['io_bytes'] else 0,
            'counters': c,
            'sent': sent,
            'served': (c.get('read spliced', 0) + c.get('read copied', 0)
                       if server.startswith('smbsrv') else None),
        })
    caching = [ln.split()[3] for ln in body['opens'][1:] if len(ln.split()) > 3]
    return {'round': int(rnd), 'server': server, 'phases': phases,
            'caching': caching, 'mount': r.get('mount', ''),
            'warnings': r.get('warnings', 0)}


def parse_run(path):
    sec = None
    body = {'fio': [], 'stats0': [], 'stats1': [], 'err': []}
    r = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('@@'):
            tag, _, rest = line[2:].partition(' ')
            if tag in ('stat0', 'stat1'):
                r[tag] = [int(x) for x in rest.split()[1:]]
            elif tag == 'conns':
                r[tag] = int(rest) if rest.strip().isdigit() else None
            elif tag in ('fio-rc', 'verify-rc'):
                r[tag] = int(rest)
            elif tag == 'err':
                body['err'].append(rest)
            sec = tag if tag in body else None
            continue
        if sec:
            body[sec].append(line)
    if 'stat1' not in r or r.get('fio-rc') != 0 or r.get('verify-rc') != 0:
        return None
    fio = json.loads('\n'.join(body['fio']))
    job = fio['jobs'][0]
    base = os.path.basename(path)
    rnd, rest = base.split('-', 1)
    m = re.match(r'^(.*)-(read|write|mixed)-(\w+)-(\d+)-(\d+)$', rest)
    server, rw, bs, qd, jobs = m.groups()
    if rw == 'mixed':
        # Both directions together; the latencies are the READs'.
        d = dict(job['read'])
        for k in ('bw_bytes', 'iops', 'io_bytes'):
            d[k] = job['read'][k] + job['write'][k]
    else:
        d = job[rw]
    busy = sum(b - a for i, (a, b) in enumerate(zip(r['stat0'], r['stat1']))
               if i in (0, 1, 2, 5, 6, 7)) / USER_HZ
    pct = d['clat_ns'].get('percentile', {})
    return {
        'round': int(rnd), 'server': server, 'rw': rw, 'bs': bs,
        'qd': int(qd), 'jobs': int(jobs),
        'mibs': d['bw_bytes'] / (1 << 20),
        'iops': d['iops'],
        'bytes': d['io_bytes'],
        'cpu_s': busy,
        'cpu_per_gib': busy / (d['io_bytes'] / (1 << 30)) if d['io_bytes'] else 0,
        'p50_us': pct.get('50.000000', 0) / 1000,
        'p99_us': pct.get('99.000000', 0) / 1000,
        'clat_mean_us': d['clat_ns']['mean'] / 1000,
        'conns': r.get('conns'),
        'counters': stats_delta(parse_stats(body['stats0']),
                                parse_stats(body['stats1'])),
    }


def load(d):
    meta = {}
    for line in open(os.path.join(d, 'meta')):
        k, _, v = line.rstrip('\n').partition(' ')
        meta[k] = v
    runs = []
    failed = []
    rereads = []
    metas = []
    rd = os.path.join(d, 'runs')
    for f in sorted(os.listdir(rd)):
        # The metadata and lease cells' runs have parsers of their own.
        kind = next(((parse, into) for key, parse, into in
                     (('-meta-', parse_meta, metas), ('-reread-', parse_reread, rereads))
                     if key in f), None)
        if kind:
            r = kind[0](os.path.join(rd, f))
            if r is None:
                failed.append(f)
            else:
                kind[1].append(r)
            continue
        r = parse_run(os.path.join(rd, f))
        if r is None:
            failed.append(f)
        else:
            runs.append(r)
    cells = {}
    for r in runs:
        key = (r['server'], r['rw'], r['bs'], r['qd'], r['jobs'])
        cells.setdefault(key, []).append(r)
    agg = {}
    for key, rs in cells.items():
        mib = [x['mibs'] for x in rs]
        cnt = {}
        for x in rs:
            for k, v in x['counters'].items():
                cnt.setdefault(k, []).append(v)
        agg[key] = {
            'mibs': statistics.median(mib),
            'mibs_min': min(mib), 'mibs_max': max(mib), 'n': len(rs),
            'iops': statistics.median(x['iops'] for x in rs),
            'cpu_per_gib': statistics.median(x['cpu_per_gib'] for x in rs),
            'p50_us': statistics.median(x['p50_us'] for x in rs),
            'p99_us': statistics.median(x['p99_us'] for x in rs),
            'p99_min': min(x['p99_us'] for x in rs),
            'p99_max': max(x['p99_us'] for x in rs),
            'counters': {k: statistics.median(v) for k, v in cnt.items()},
            'conns': sorted({x['conns'] for x in rs if x.get('conns') is not None}),
            'ratios': {},
        }
    # Per-round ratios to the rivals, for the spread of a ratio.
    for key in agg:
        s, rw, bs, qd, j = key
        for rival in ('ksmbd', 'nfsd'):
            if s == rival or (rival, rw, bs, qd, j) not in cells:
                continue
            mine = {x['round']: x['mibs'] for x in cells[key]}
            theirs = {x['round']: x['mibs'] for x in cells[(rival, rw, bs, qd, j)]}
            rs = [mine[k] / theirs[k] for k in mine if k in theirs and theirs[k]]
            if rs:
                agg[key]['ratios'][rival] = (statistics.median(rs), min(rs), max(rs))
    return meta, agg, failed, rereads, metas


def fmt(x, nd=1):
    if x is None:
        return '-'
    if x >= 100:
        return f'{x:.0f}'
    return f'{x:.{nd}f}'


def counters_text(c):
    """The smbsrv counters that explain a cell, compact: per queue the
    messages it ran, their mean wait from queueing to start, its socket
    writes (how many carried several responses); then every other counter
    that moved."""
    parts = []
    queues = sorted({k.rsplit('.', 1)[0] for k in c if k.endswith('.QUEUED')})
    for q in queues:
        t = f"{q}: {c.get(q + '.QUEUED', 0):.0f} msgs"
        if q + '.WAIT-US' in c:
            t += f", wait {c[q + '.WAIT-US']:.0f} µs"
        if c.get(q + '.SENDS'):
            t += f", {c[q + '.SENDS']:.0f} sends ({c.get(q + '.BATCHED', 0):.0f} batched)"
        parts.append(t)
    for k in sorted(c):
        if '.' not in k:
            parts.append(f'{k} {c[k]:.0f}')
    return '; '.join(parts) if parts else '-'


def header(meta, what):
    return (f"{what}: commit {meta.get('commit')}, {meta.get('date')}, "
            f"clock `{meta.get('clock')}` ({meta.get('qemu', '?')}), "
            f"-cpu {meta.get('cpu')}, -smp {meta.get('smp')}, guest kernel {meta.get('kernel')}, "
            f"{meta.get('secs')} s per run, {meta.get('rounds')} round(s), "
            f"host load at start {meta.get('host_load')}.")


def ratio_text(a, key, rival, spread):
    r = a['ratios'].get(rival)
    if not r:
        return '-'
    if spread and r[1] != r[2]:
        return f'{r[0]:.2f} ({r[1]:.2f}–{r[2]:.2f})'
    return f'{r[0]:.2f}'


def mib_text(a, spread):
    if spread and a['n'] > 1:
        return f"{fmt(a['mibs'])} ({fmt(a['mibs_min'])}–{fmt(a['mibs_max'])})"
    return fmt(a['mibs'])


def count_text(x):
    return '-' if x is None else f'{x:.0f}'


def phase_counters(x):
    if not x['server'].startswith('smbsrv'):
        return '-'
    return '; '.join(f"{ph}: {counters_text(p['counters']) if p['counters'] else 'none moved'}"
                     for ph, p in zip(('READ', 're-READ'), x['phases']))


def short_mount(opts):
    keep = ('vers=', 'cache=', 'rsize=', 'nosharesock', 'closetimeo=', 'actimeo=')
    return ','.join(o for o in opts.split(',') if o.startswith(keep))


def reread_table(meta, rereads, w):
    """The lease cell: READ and re-READ per server and round, then the
    ratios."""
    if not rereads:
        return
    w('### Client caching: READ and re-READ through cifs cache=strict\n')
    w(f"Lease cell: commit {meta.get('commit')}, {meta.get('date')}, clock "
      f"`{meta.get('clock')}` ({meta.get('qemu', '?')}), -smp {meta.get('smp')}, guest kernel "
      f"{meta.get('kernel')}, {meta.get('rounds')} round(s), host load at start "
      f"{meta.get('host_load')}.\n")
    w("A buffered 1 MiB READ (fio psync) of a 128 MiB file through a cifs mount with "
      "cache=strict after the guest's page cache was dropped, then a second pass over it "
      "(re-READ), while a holder keeps the file open; smbsrv and ksmbd with `smb2 leases = "
      "yes`, smbsrv-nolease a share of smbsrv with `oplocks = no` (no caching granted). "
      "MiB/s is fio's, per phase; READs sent: the client's count (/proc/fs/cifs/Stats); "
      "READs served: smbsrv's (read spliced + read copied); caching: smbsrvctl opens for "
      "the file between the phases.\n")
    w('| round | server | READ MiB/s | re-READ MiB/s | re-READ/READ | READs sent (READ / '
      're-READ) | READs served (READ / re-READ) | caching | CPU-s/GiB READ / re-READ | '
      'smbsrv counters, READ; re-READ |')
    w('|---|---|---|---|---|---|---|---|---|---|')
    order = {'smbsrv-lease': 0, 'ksmbd-lease': 1, 'smbsrv-nolease': 2}
    for x in sorted(rereads, key=lambda x: (x['round'], order.get(x['server'], 9))):
        a, b = x['phases']
        w(f"| {x['round']} | {x['server']} | {fmt(a['mibs'])} | {fmt(b['mibs'])} | "
          f"{b['mibs'] / a['mibs']:.2f} | {count_text(a['sent'])} / {count_text(b['sent'])} | "
          f"{count_text(a['served'])} / {count_text(b['served'])} | "
          f"{' '.join(x['caching']) or '-'} | {fmt(a['cpu_per_gib'], 2)} / "
          f"{fmt(b['cpu_per_gib'], 2)} | "
          f"{phase_counters(x)} |")
    w('')
    rounds = sorted({x['round'] for x in rereads})
    by = {(x['round'], x['server']): x for x in rereads}
    rows = []
    for rnd in rounds:
        s, k = by.get((rnd, 'smbsrv-lease')), by.get((rnd, 'ksmbd-lease'))
        if s and k:
            rows.append(f"| {rnd} | {s['phases'][0]['mibs'] / k['phases'][0]['mibs']:.2f} | "
                        f"{s['phases'][1]['mibs'] / k['phases'][1]['mibs']:.2f} |")
    if rows:
        w('| round | smbsrv/ksmbd READ | smbsrv/ksmbd re-READ |')
        w('|---|---|---|')
        for row in rows:
            w(row)
        w('')
    mounts = sorted({short_mount(x['mount']) for x in rereads})
    w('Mount options (cifs, as /proc/mounts shows them): ' +
      '; '.join(f'`{m}`' for m in mounts) + '. Kernel warnings in the guest by the last '
      f"run: {max(x['warnings'] for x in rereads)}.\n")


META_PHASES = ('create', 'stat-cold', 'stat-warm', 'rename', 'delete')
META_ORDER = ['smbsrv', 'smbsrv-nolease', 'ksmbd', 'samba', 'nfsd', 'local']


def parse_commands(lines):
    """smbsrvctl stats' COMMAND table -> {command: (requests, total ns from
    decode to final status)}."""
    out = {}
    on = False
    for line in lines:
        f = line.split()
        if f[:2] == ['COMMAND', 'REQUESTS']:
            on = True
            continue
        if on and len(f) == 4 and f[1].isdigit():
            out[f[0]] = (int(f[1]), int(f[1]) * float(f[3]) * 1000)
    return out


def parse_meta(path):
    """A meta run (tools/bench/guest/meta.sh): per phase its operations,
    guest nanoseconds, requests the client sent and smbsrv's commands."""
    name = os.path.basename(path)
    rnd, _, rest = name.partition('-')
    server = re.match(r'^(.*)-meta-', rest).group(1)
    x = {'round': int(rnd), 'server': server, 'phases': {}, 'fio_rc': None,
         'verify_rc': None, 'errors': []}
    blk, cur = None, None
    st = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        f = line.split()
        if line.startswith('@@phase '):
            _, ph, ops, ns, reqs = f
            x['phases'][ph] = {'ops': int(ops), 'ns': int(ns), 'reqs': int(reqs)}
        elif line.startswith('@@stats0 ') or line.startswith('@@stats1 '):
            blk, cur = f[0][2:], f[1]
            st[(cur, blk)] = []
        elif line.startswith('@@end-stats'):
            blk = None
        elif line.startswith('@@fio-rc '):
            x['fio_rc'] = int(f[1])
        elif line.startswith('@@verify-rc '):
            x['verify_rc'] = int(f[1])
        elif line.startswith('@@err '):
            x['errors'].append(line[6:])
        elif blk:
            st[(cur, blk)].append(line)
    if x['fio_rc'] != 0 or x['verify_rc'] != 0 or not x['phases']:
        return None
    for ph, p in x['phases'].items():
        a = parse_commands(st.get((ph, 'stats0'), []))
        b = parse_commands(st.get((ph, 'stats1'), []))
        p['commands'] = {k: v[0] - a.get(k, (0, 0))[0] for k, v in b.items()
                         if v[0] - a.get(k, (0, 0))[0]}
        p['handler_ns'] = sum(v[1] - a.get(k, (0, 0))[1] for k, v in b.items())
    return x


def meta_table(meta, metas, w):
    """The metadata section: ops/s per phase and server (median over
    rounds), ratios, guest nanoseconds (instructions under icount) per
    operation and per request, smbsrv's commands per phase."""
    if not metas:
        return
    icount = meta.get('clock') == 'icount'
    unit = 'instructions' if icount else 'guest ns'
    servers = sorted({x['server'] for x in metas},
                     key=lambda s: META_ORDER.index(s) if s in META_ORDER else 99)
    rounds = sorted({x['round'] for x in metas})
    med = {}
    for s in servers:
        for ph in META_PHASES:
            v = [x['phases'][ph] for x in metas if x['server'] == s and ph in x['phases']]
            if v:
                med[(s, ph)] = {
                    'ops_s': statistics.median(p['ops'] * 1e9 / p['ns'] for p in v),
                    'ns_op': statistics.median(p['ns'] / p['ops'] for p in v),
                    'ns_req': statistics.median(p['ns'] / p['reqs'] for p in v)
                    if all(p['reqs'] for p in v) else None,
                    'reqs_op': statistics.median(p['reqs'] / p['ops'] for p in v),
                    'ops': v[0]['ops']}
    w('### Small files and metadata\n')
    w(f"Meta section: commit {meta.get('commit')}, {meta.get('date')}, clock "
      f"`{meta.get('clock')}` ({meta.get('qemu', '?')}), -smp {meta.get('smp')}, guest kernel "
      f"{meta.get('kernel')}, {len(rounds)} round(s), host load at start "
      f"{meta.get('host_load')}; {meta.get('meta_files')} files of "
      f"{meta.get('meta_size')} bytes in {meta.get('meta_dirs')} directories.\n")
    w('Operations per second' + (' (median over rounds)' if len(rounds) > 1 else '') +
      f" of the guest clock{' (one tick per guest instruction)' if icount else ''}; "
      'each server on its own tmpfs through a fresh mount of the kernel client '
      '(cifs vers=3.1.1 cache=strict, NFSv4.2), smbsrv and ksmbd with `smb2 leases = yes` '
      '(smbsrv-nolease: `smb2 leases = no`, the default), local: the same loops on the '
      'tmpfs itself. stat: readdir of every directory and lstat of every entry, cold '
      'after a remount, then warm.\n')
    w('| phase | ' + ' | '.join(servers) + ' |')
    w('|---|' + '---|' * len(servers))
    for ph in META_PHASES:
        w(f'| {ph} | ' + ' | '.join(fmt(med[(s, ph)]['ops_s'], 0) if (s, ph) in med else '-'
                                   for s in servers) + ' |')
    w('')
    rivals = [r for r in ('ksmbd', 'samba', 'nfsd', 'local') if r in servers]
    if 'smbsrv' in servers and rivals:
        mine = [s for s in ('smbsrv', 'smbsrv-nolease') if s in servers]
        cols = [(s, r) for s in mine for r in rivals]
        w('| phase | ' + ' | '.join(f'{s}/{r}' for s, r in cols) + ' |')
        w('|---|' + '---|' * len(cols))
        for ph in META_PHASES:
            w(f'| {ph} | ' + ' | '.join(
                f"{med[(s, ph)]['ops_s'] / med[(r, ph)]['ops_s']:.2f}"
                if (s, ph) in med and (r, ph) in med else '-' for s, r in cols) + ' |')
        w('')
    w(f'{unit.capitalize()} per operation (client and server together), and per request '
      'the client sent (SMB requests from /proc/fs/cifs/Stats, NFS RPCs), requests per '
      'operation in brackets:\n')
    w('| phase | ' + ' | '.join(servers) + ' |')
    w('|---|' + '---|' * len(servers))
    for ph in META_PHASES:
        cells = []
        for s in servers:
            m = med.get((s, ph))
            if not m:
                cells.append('-')
            elif m['ns_req'] is None:
                cells.append(f"{m['ns_op'] / 1000:.0f}k")
            else:
                cells.append(f"{m['ns_op'] / 1000:.0f}k; {m['ns_req'] / 1000:.0f}k/req "
                             f"({m['reqs_op']:.2f})")
        w(f'| {ph} | ' + ' | '.join(cells) + ' |')
    w('')
    for s in ('smbsrv', 'smbsrv-nolease'):
        x = next((x for x in metas if x['server'] == s), None)
        if not x:
            continue
        w(f"{s}'s commands per phase (smbsrvctl stats, round {x['round']}), and the "
          f"share of the phase's {unit} spent from decoding a request to its final "
          "status (the handlers):\n")
        for ph in META_PHASES:
            p = x['phases'].get(ph, {})
            c = p.get('commands', {})
            share = f" ({p['handler_ns'] / p['ns']:.0%} in handlers)" if p.get('ns') else ''
            w(f"- {ph}: " + (', '.join(f'{k} {v}' for k, v in
                                      sorted(c.items(), key=lambda kv: -kv[1])) or 'none')
              + share)
        w('')
    return med


def report(d):
    meta, agg, failed, rereads, metas = load(d)
    spread = int(meta.get('rounds', '1')) > 1
    servers = []
    for k in agg:
        if k[0] not in servers:
            servers.append(k[0])
    order = ['smbsrv', 'smbsrv-splice', 'smbsrv-copy', 'smbsrv-noinline', 'ksmbd', 'nfsd',
             'smbsrv-sign', 'ksmbd-sign']
    servers.sort(key=lambda s: order.index(s) if s in order else 99)
    out = []
    w = out.append

    # READ matrix: every cell with more than the latency trio's servers,
    # or any 4-job cell.
    mcells = sorted({(bs, qd, j) for (s, rw, bs, qd, j) in agg
                     if rw == 'read' and not conns_cell(s)},
                    key=lambda c: (size_bytes(c[0]), c[1], c[2]))
    msrv = [s for s in servers if not s.endswith(('-sign', '-seal')) and s != 'smbsrv-audit'
            and not conns_cell(s)]
    mcells = [c for c in mcells if not (c[1] == 8 and c[2] == 1) or
              size_bytes(c[0]) in (4 << 10, 64 << 10, 1 << 20)]
    meta_med = meta_table(meta, metas, w)
    if mcells:
        matrix_table(meta, agg, mcells, msrv, spread, w)
    signed_sweep_latency(d, meta, agg, servers, spread, w)
    reread_table(meta, rereads, w)
    audit_table(meta, agg, spread, w)
    write_table(meta, agg, spread, w)
    write_signed_table(meta, agg, spread, w)
    write_signed_table(meta, agg, spread, w, 'seal')
    small_table(meta, agg, d, w)
    conns_table(meta, agg, d, w)
    if failed:
        w('Failed runs (fio error or data check): ' + ', '.join(failed) + '\n')
    text = '\n'.join(out)
    with open(os.path.join(d, 'report.md'), 'w') as f:
        f.write(text)
    res = {'meta': meta, 'cells': {' '.join(map(str, k)): v for k, v in agg.items()},
           'reread': rereads, 'meta_runs': metas,
           'meta_median': {' '.join(k): v for k, v in (meta_med or {}).items()}}
    with open(os.path.join(d, 'results.json'), 'w') as f:
        json.dump(res, f, indent=1)
    print(text)


def matrix_table(meta, agg, mcells, msrv, spread, w):
    w('### Sequential READ\n')
    w(header(meta, 'READ') + '\n')
    w('MiB/s' + (' (median, min–max over rounds)' if spread else '') +
      ', smbsrv with its default knobs against each rival, guest CPU-seconds '
      'per GiB read (client and server together), and smbsrv\'s counters over '
      'the run.\n')
    cols = [s for s in msrv if any((s, 'read', bs, qd, j) in agg for (bs, qd, j) in mcells)]
    w('| size | QD | jobs | ' + ' | '.join(cols) +
      ' | smbsrv/ksmbd | smbsrv/nfsd | CPU-s/GiB ' + ', '.join(cols) +
      ' | smbsrv counters |')
    w('|' + '---|' * (3 + len(cols) + 4))
    for bs, qd, j in mcells:
        row = [bs.upper(), str(qd), str(j)]
        if not any((s, 'read', bs, qd, j) in agg for s in cols):
            continue
        for s in cols:
            a = agg.get((s, 'read', bs, qd, j))
            row.append(mib_text(a, spread) if a else '')
        a = agg.get(('smbsrv', 'read', bs, qd, j))
        row.append(ratio_text(a, None, 'ksmbd', spread) if a else '')
        row.append(ratio_text(a, None, 'nfsd', spread) if a else '')
        row.append(' / '.join(fmt(agg[(s, 'read', bs, qd, j)]['cpu_per_gib'], 2)
                              if (s, 'read', bs, qd, j) in agg else '-' for s in cols))
        row.append(counters_text(a['counters']) if a else '')
        w('| ' + ' | '.join(row) + ' |')
    w('')


def write_table(meta, agg, spread, w):
    """WRITEs: smbsrv (one copy from min receivefile size), smbsrv with
    every WRITE copied twice (min receivefile size 0), ksmbd."""
    cells = sorted({(bs, qd, j) for (s, rw, bs, qd, j) in agg
                    if s == 'smbsrv-wcopy' and rw == 'write'},
                   key=lambda c: (size_bytes(c[0]), c[1], c[2]))
    if not cells:
        return
    w('### WRITE with one copy\n')
    w(header(meta, 'WRITE') + '\n')
    w('smbsrv: `min receivefile size = 64K` (the data of a plain WRITE from 64 KiB '
      'received into pages, one copy); smbsrv-wcopy: `min receivefile size = 0` (every '
      'WRITE copied into a buffer, then into the page cache); ksmbd.\n')
    w('| size | QD | jobs | smbsrv MiB/s | smbsrv-wcopy MiB/s | ksmbd MiB/s | '
      'smbsrv/ksmbd | smbsrv-wcopy/ksmbd | smbsrv/smbsrv-wcopy |')
    w('|---|---|---|---|---|---|---|---|---|')

    def ratio(x, y):
        return f"{x['mibs'] / y['mibs']:.2f}" if x and y and y['mibs'] else '-'
    for bs, qd, j in cells:
        a = agg.get(('smbsrv', 'write', bs, qd, j))
        b = agg.get(('smbsrv-wcopy', 'write', bs, qd, j))
        k = agg.get(('ksmbd', 'write', bs, qd, j))
        w(f"| {bs.upper()} | {qd} | {j} | {mib_text(a, spread) if a else '-'} | "
          f"{mib_text(b, spread) if b else '-'} | {mib_text(k, spread) if k else '-'} | "
          f"{ratio(a, k)} | {ratio(b, k)} | {ratio(a, b)} |")
    w('')


SIGNED_TEXT = (
    'cifs mounts with `sign` (SMB 3.1.1, AES-CMAC). smbsrv-sign: `min receivefile '
    'size = 64K` (the data received into pages, the signature checked over them, '
    'one copy); smbsrv-sign-wcopy: `min receivefile size = 0` (the frame read into '
    'a buffer, checked there, copied into the page cache); ksmbd-sign.\n')
SEALED_TEXT = (
    'cifs mounts with `seal` (SMB 3.1.1, AES-128-GCM). smbsrv-seal: `min receivefile '
    'size = 64K` (the ciphertext received into pages, decrypted out of them into '
    'pages of the server\'s own in one pass, one copy into the page cache); '
    'smbsrv-seal-wcopy: `min receivefile size = 0` (the frame read into a buffer, '
    'decrypted there, copied into the page cache); ksmbd-seal.\n')


def write_signed_table(meta, agg, spread, w, kind='sign'):
    """Signed (or sealed) WRITEs: smbsrv (the signature checked over, or
    the data decrypted out of, the received pages, one copy), smbsrv
    copying every WRITE twice, ksmbd."""
    cells = sorted({(bs, qd, j) for (s, rw, bs, qd, j) in agg
                    if s == f'smbsrv-{kind}-wcopy' and rw == 'write'},
                   key=lambda c: (size_bytes(c[0]), c[1], c[2]))
    if not cells:
        return
    what = 'Signed' if kind == 'sign' else 'Sealed'
    w(f'### {what} WRITE with one copy\n')
    w(header(meta, f'{what} WRITE') + '\n')
    w(SIGNED_TEXT if kind == 'sign' else SEALED_TEXT)
    w('| size | QD | jobs | smbsrv MiB/s | smbsrv-wcopy MiB/s | ksmbd MiB/s | '
      'smbsrv/ksmbd | smbsrv-wcopy/ksmbd | smbsrv/smbsrv-wcopy |')
    w('|---|---|---|---|---|---|---|---|---|')

    def ratio(x, y):
        return f"{x['mibs'] / y['mibs']:.2f}" if x and y and y['mibs'] else '-'
    for bs, qd, j in cells:
        a = agg.get((f'smbsrv-{kind}', 'write', bs, qd, j))
        b = agg.get((f'smbsrv-{kind}-wcopy', 'write', bs, qd, j))
        k = agg.get((f'ksmbd-{kind}', 'write', bs, qd, j))
        w(f"| {bs.upper()} | {qd} | {j} | {mib_text(a, spread) if a else '-'} | "
          f"{mib_text(b, spread) if b else '-'} | {mib_text(k, spread) if k else '-'} | "
          f"{ratio(a, k)} | {ratio(b, k)} | {ratio(a, b)} |")
    w('')


def small_table(meta, agg, d, w):
    """Small I/O (section small): 4K READ and WRITE, smbsrv against ksmbd
    per round, and guest nanoseconds per request (instructions under the
    instruction clock: the guest clock skips idle time, so one request's
    share of it is what the guest executed for it, client and server)."""
    plan = os.path.join(d, 'plan')
    if not os.path.exists(plan) or not any(
            l.split()[2:] in (['4k', '1', '1'], ['4k', '8', '4'])
            for l in open(plan) if l.startswith('smbsrv ')):
        return
    cells = [(rw, '4k', qd, j) for rw in ('read', 'write') for qd, j in ((1, 1), (8, 4))
             if ('smbsrv', rw, '4k', qd, j) in agg and ('ksmbd', rw, '4k', qd, j) in agg]
    if not cells:
        return
    icount = meta.get('clock') == 'icount'
    unit = 'instructions' if icount else 'guest ns'
    w('### Small I/O\n')
    w(header(meta, 'Small I/O') + '\n')
    w(f'MiB/s (median over rounds), smbsrv/ksmbd per round (median, min-max), and {unit} '
      'per request (client and server together: the guest clock divided by the requests).\n')
    w(f'| op | QD x jobs | smbsrv MiB/s | ksmbd MiB/s | smbsrv/ksmbd | smbsrv {unit}/req | '
      f'ksmbd {unit}/req |')
    w('|---|---|---|---|---|---|---|')
    for rw, bs, qd, j in cells:
        a = agg[('smbsrv', rw, bs, qd, j)]
        k = agg[('ksmbd', rw, bs, qd, j)]
        r = a['ratios'].get('ksmbd')
        rt = f'{r[0]:.3f} ({r[1]:.3f}-{r[2]:.3f})' if r else '-'
        w(f"| {rw.upper()} | {qd} x {j} | {fmt(a['mibs'])} | {fmt(k['mibs'])} | {rt} | "
          f"{1e9 / a['iops'] / 1000:.1f}k | {1e9 / k['iops'] / 1000:.1f}k |")
    w('')


def conns_cell(name):
    """('smbsrv', 'c', 2) for smbsrv.c2, ('ksmbd', 'mc', 2) for ksmbd.mc2."""
    m = re.match(r'^(.*)\.(c|mc)(\d+)$', name)
    return (m.group(1), m.group(2), int(m.group(3))) if m else None


def conns_table(meta, agg, d, w):
    """The connection cells (sections conns, conns-sealed): MiB/s per size,
    operation and number of connections, smbsrv against ksmbd and nfsd
    (ratios of the medians), the connections that carried the run, and
    one PNG per size."""
    keys = [(s, rw, bs, qd, j) for (s, rw, bs, qd, j) in agg if conns_cell(s)]
    if not keys:
        return
    sizes = sorted({k[2] for k in keys}, key=size_bytes)
    ops = [o for o in ('read', 'write', 'mixed') if any(k[1] == o for k in keys)]
    qd, jobs = keys[0][3], keys[0][4]
    w('### Connections\n')
    w(header(meta, 'Connections') + '\n')
    w(f'{jobs} jobs at QD{qd} spread over the connections; MiB/s (median over rounds; mixed: '
      'READ and WRITE together). cN: N connections (cifs: N mounts with nosharesock; '
      'NFS: nconnect=N); mc2: one cifs mount with 2 channels. In brackets: the '
      'connections that carried more than 1 MiB, where that differs from N.\n')
    for prefix, rivals in (('', ('ksmbd', 'nfsd')), ('-seal', ('ksmbd',))):
        mine = 'smbsrv' + prefix
        variants = sorted({(c[1], c[2]) for c in map(conns_cell, (k[0] for k in keys))
                           if c and c[0] == mine}, key=lambda v: (v[0] == 'mc', v[1]))
        if not variants:
            continue
        srvs = [mine] + [r + prefix for r in rivals]
        w(f"| size | op | conns | {' | '.join(srvs)} | "
          + ' | '.join(f'{mine}/{r}' for r in srvs[1:]) + ' |')
        w('|' + '---|' * (3 + len(srvs) + len(srvs) - 1))
        rows = {}
        for bs in sizes:
            for rw in ops:
                for kind, n in variants:
                    cells = [agg.get((f'{s}.{kind}{n}', rw, bs, qd, jobs)) for s in srvs]
                    if not cells[0]:
                        continue
                    txt = []
                    for a in cells:
                        if not a:
                            txt.append('-')
                            continue
                        t = fmt(a['mibs'])
                        if a['conns'] and a['conns'] != [n]:
                            t += f" ({'/'.join(map(str, a['conns']))})"
                        txt.append(t)
                    rat = [f"{cells[0]['mibs'] / a['mibs']:.2f}" if a and a['mibs'] else '-'
                           for a in cells[1:]]
                    w(f"| {bs.upper()} | {rw.upper()} | {kind}{n} | " + ' | '.join(txt) +
                      ' | ' + ' | '.join(rat) + ' |')
                    rows.setdefault(bs, []).append((f'{rw.upper()} {kind}{n}',
                                                    [a['mibs'] if a else None for a in cells]))
        w('')
        for bs, r in rows.items():
            conns_plot(d, meta, f'conns{prefix}-{bs}', f'{bs.upper()}{" sealed" if prefix else ""}',
                       srvs, r, qd, jobs)


def conns_plot(d, meta, name, what, srvs, rows, qd, jobs):
    """NAME.png: clustered bars, MiB/s per operation and connections, one
    bar per server (gnuplot)."""
    dat = os.path.join(d, name + '.dat')
    with open(dat, 'w') as f:
        f.write('# cell ' + ' '.join(srvs) + '\n')
        for label, v in rows:
            f.write(f'"{label}" ' + ' '.join(f'{x:.3f}' if x else '?' for x in v) + '\n')
    cols = ', '.join(f"'{dat}' using {i + 2}{':xtic(1)' if i == 0 else ''} title '{s}'"
                     for i, s in enumerate(srvs))
    title = (f"{what}, {jobs} jobs x QD{qd} over N connections; commit {meta.get('commit')}, "
             f"clock {meta.get('clock')}, -cpu {meta.get('cpu')}")
    script = f"""set terminal pngcairo size 1200,500 font ',10'
set output '{os.path.join(d, name + '.png')}'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set yrange [0:*]
set ylabel 'MiB/s ({'instruction clock' if meta.get('clock') == 'icount' else 'real time'})'
set title "{title}"
set key left top
set grid ytics
plot {cols}
"""
    try:
        subprocess.run(['gnuplot'], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'report: no plot ({e})', file=sys.stderr)


def audit_table(meta, agg, spread, w):
    """smbsrv through a share with the audit trail on, beside smbsrv."""
    cells = sorted({(rw, bs, qd, j) for (s, rw, bs, qd, j) in agg if s == 'smbsrv-audit'},
                   key=lambda c: (c[0], size_bytes(c[1]), c[2], c[3]))
    if not cells:
        return
    w('### The audit trail on and off\n')
    w(header(meta, 'Audit') + '\n')
    w('smbsrv with its default knobs through its bench share, and through a share of the '
      'same tmpfs with `vfs objects = full_audit` (successes of connect, disconnect, '
      'create_file, pwrite, renameat, unlinkat, fset_nt_acl; every failure), each on a '
      'connection of its own.\n')
    w('| op | size | QD | jobs | smbsrv MiB/s | audited MiB/s | audited/plain |')
    w('|---|---|---|---|---|---|---|')
    for rw, bs, qd, j in cells:
        a = agg.get(('smbsrv', rw, bs, qd, j))
        b = agg.get(('smbsrv-audit', rw, bs, qd, j))
        r = f"{b['mibs'] / a['mibs']:.3f}" if a and b and a['mibs'] else '-'
        w(f"| {rw.upper()} | {bs.upper()} | {qd} | {j} | {mib_text(a, spread) if a else '-'} | "
          f"{mib_text(b, spread) if b else '-'} | {r} |")
    w('')


def signed_sweep_latency(d, meta, agg, servers, spread, w):
    # Signed sessions: smbsrv against ksmbd, both mounted with `sign`.
    scells = sorted({(bs, qd, j) for (s, rw, bs, qd, j) in agg
                     if s == 'smbsrv-sign' and rw == 'read'},
                    key=lambda c: (size_bytes(c[0]), c[1], c[2]))
    if scells:
        w('### Sequential READ on a signed session\n')
        w(header(meta, 'Signed READ') + '\n')
        w('cifs mounts with `sign` (SMB 3.1.1, AES-CMAC) of the same shares; smbsrv with '
          'its default knobs.\n')
        w('| size | QD | jobs | smbsrv signed MiB/s | ksmbd signed MiB/s | ratio | '
          'CPU-s/GiB smbsrv / ksmbd | smbsrv counters |')
        w('|---|---|---|---|---|---|---|---|')
        for bs, qd, j in scells:
            a = agg.get(('smbsrv-sign', 'read', bs, qd, j))
            b = agg.get(('ksmbd-sign', 'read', bs, qd, j))
            r = '-'
            if a and b and b['mibs']:
                r = f"{a['mibs'] / b['mibs']:.2f}"
            w(f"| {bs.upper()} | {qd} | {j} | {mib_text(a, spread) if a else '-'} | "
              f"{mib_text(b, spread) if b else '-'} | {r} | "
              f"{fmt(a['cpu_per_gib'], 2) if a else '-'} / "
              f"{fmt(b['cpu_per_gib'], 2) if b else '-'} | "
              f"{counters_text(a['counters']) if a else '-'} |")
        w('')

    # Size sweep: the servers that ran a size only the sweep has.
    sw = sorted({bs for (s, rw, bs, qd, j) in agg
                 if rw == 'read' and qd == 8 and j == 1}, key=size_bytes)
    ssrv = [s for s in servers if ('read', '8k') in
            {(k[1], k[2]) for k in agg if k[0] == s}]
    if len(sw) > 3 and ssrv:
        w('### READ size sweep (QD8, 1 job)\n')
        w(header(meta, 'Sweep') + '\n')
        w('MiB/s and guest CPU-seconds per GiB. smbsrv-splice: `splice threshold = 4K` '
          '(every READ spliced); smbsrv-copy: `splice threshold = 0` (splice off).\n')
        pairs = [(a, b) for a, b in (('smbsrv-splice', 'smbsrv-copy'),
                                     ('smbsrv-splice', 'ksmbd'), ('smbsrv', 'ksmbd'),
                                     ('smbsrv-splice', 'nfsd'), ('smbsrv', 'nfsd'))
                 if a in ssrv and b in ssrv]
        w('| size | ' + ' | '.join(f'{s} MiB/s' for s in ssrv) + ' | ' +
          ''.join(f'{a}/{b} | ' for a, b in pairs) +
          ' | '.join(f'{s} CPU-s/GiB' for s in ssrv) + ' |')
        w('|' + '---|' * (1 + 2 * len(ssrv) + len(pairs)))
        rows = []
        for bs in sw:
            v = {s: agg.get((s, 'read', bs, 8, 1)) for s in ssrv}
            row = [bs.upper()] + [fmt(v[s]['mibs']) if v[s] else '-' for s in ssrv]
            row += [f"{v[a]['mibs'] / v[b]['mibs']:.2f}" if v[a] and v[b] else '-'
                    for a, b in pairs]
            row += [fmt(v[s]['cpu_per_gib'], 2) if v[s] else '-' for s in ssrv]
            w('| ' + ' | '.join(row) + ' |')
            rows.append((size_bytes(bs) >> 10, [v[s] for s in ssrv]))
        w('')
        plot(d, meta, ssrv, rows)

    # Latency.
    lcells = sorted({(rw, bs, qd) for (s, rw, bs, qd, j) in agg
                     if j == 1 and qd in (1, 4) and s == 'smbsrv'
                     and (('ksmbd', rw, bs, qd, j) in agg)},
                    key=lambda c: (c[0], size_bytes(c[1]), c[2]))
    if lcells:
        lsrv = [s for s in ('smbsrv', 'ksmbd', 'nfsd')]
        w('### Completion latency (fio clat, 1 job)\n')
        w(header(meta, 'Latency') + '\n')
        w('p50 / p99 in µs' + (' (medians over rounds; p99 min–max)' if spread else '') +
          ', and MiB/s.\n')
        w('| op | size | QD | ' + ' | '.join(f'{s} p50 / p99' for s in lsrv) +
          ' | ' + ' | '.join(f'{s} MiB/s' for s in lsrv) +
          ' | smbsrv/ksmbd MiB/s | smbsrv/ksmbd p99 |')
        w('|' + '---|' * (3 + 2 * len(lsrv) + 2))
        for rw, bs, qd in lcells:
            v = [agg.get((s, rw, bs, qd, 1)) for s in lsrv]
            row = [rw.upper(), bs.upper(), str(qd)]
            for a in v:
                if not a:
                    row.append('-')
                    continue
                t = f"{fmt(a['p50_us'])} / {fmt(a['p99_us'])}"
                if spread and a['n'] > 1:
                    t += f" ({fmt(a['p99_min'])}–{fmt(a['p99_max'])})"
                row.append(t)
            row += [mib_text(a, spread) if a else '-' for a in v]
            row.append(ratio_text(v[0], None, 'ksmbd', spread))
            row.append(f"{v[0]['p99_us'] / v[1]['p99_us']:.2f}" if v[0] and v[1] and
                       v[1]['p99_us'] else '-')
            w('| ' + ' | '.join(row) + ' |')
        w('')


def plot(d, meta, ssrv, rows):
    """sweep.png: MiB/s and CPU-s/GiB against READ size, one line per
    server; matplotlib (Debian's python3-matplotlib), else gnuplot."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return plot_gnuplot(d, meta, ssrv, rows)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    kib = [k for k, _ in rows]
    for ax, what, key, ylabel in ((axes[0], 'READ throughput', 'mibs', 'MiB/s (guest clock)'),
                                  (axes[1], 'CPU per GiB read', 'cpu_per_gib',
                                   'guest CPU-seconds per GiB (client + server)')):
        for i, s in enumerate(ssrv):
            pts = [(k, v[i][key]) for k, v in rows if v[i]]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o', label=s)
        ax.set_xscale('log', base=2)
        ax.set_xticks(kib)
        ax.set_xticklabels([f'{k}K' if k < 1024 else f'{k >> 10}M' for k in kib])
        ax.set_xlabel('READ size (QD8, 1 job)')
        ax.set_ylabel(ylabel)
        ax.set_title(what)
        ax.grid(True, alpha=0.4)
        ax.legend()
    fig.suptitle(f"READ size sweep; commit {meta.get('commit')}, clock {meta.get('clock')}, "
                 f"-cpu {meta.get('cpu')}, -smp {meta.get('smp')}, {meta.get('secs')} s per run")
    fig.tight_layout()
    fig.savefig(os.path.join(d, 'sweep.png'), dpi=100)
    plt.close(fig)


def plot_gnuplot(d, meta, ssrv, rows):
    """sweep.png through gnuplot."""
    dat = os.path.join(d, 'sweep.dat')
    with open(dat, 'w') as f:
        f.write('# KiB ' + ' '.join(f'{s}_mibs {s}_cpu' for s in ssrv) + '\n')
        for kib, v in rows:
            f.write(f'{kib} ' + ' '.join(
                f"{a['mibs']:.3f} {a['cpu_per_gib']:.4f}" if a else '? ?'
                for a in v) + '\n')
    title = (f"READ size sweep, QD8 1 job; commit {meta.get('commit')}, "
             f"clock {meta.get('clock')}, -cpu {meta.get('cpu')}")
    lines = []
    for what, col0, ylabel in (('MiB/s', 2, 'MiB/s (guest clock)'),
                               ('CPU-s/GiB', 3, 'guest CPU-seconds per GiB')):
        plots = ', '.join(
            f"'{dat}' using 1:{col0 + 2 * i} with linespoints title '{s}'"
            for i, s in enumerate(ssrv))
        lines.append(f"set ylabel '{ylabel}'\nset title '{what}'\nplot {plots}")
    script = f"""set terminal pngcairo size 1200,500 font ',10'
set output '{os.path.join(d, 'sweep.png')}'
set datafile missing '?'
set multiplot layout 1,2 title "{title}"
set logscale x 2
set xlabel 'READ size (KiB)'
set key left top
set grid
{lines[0]}
set key right top
{lines[1]}
unset multiplot
"""
    try:
        subprocess.run(['gnuplot'], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'report: no plot ({e})', file=sys.stderr)


def compare(a, b):
    ma, ga, _, ra, _ = load(a)
    mb, gb, _, rb, _ = load(b)
    print(f"Agreement of two runs: A = commit {ma.get('commit')} {ma.get('date')}, "
          f"B = commit {mb.get('commit')} {mb.get('date')}; clock `{ma.get('clock')}` / "
          f"`{mb.get('clock')}`, -cpu {ma.get('cpu')} / {mb.get('cpu')}.\n")
    print('| server | op | size | QD | jobs | A MiB/s | B MiB/s | B/A | A CPU-s/GiB | B CPU-s/GiB | B/A |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    worst = (0, None)
    worst_cpu = (0, None)
    for k in sorted(ga, key=lambda k: (k[1], size_bytes(k[2]), k[3], k[4], k[0])):
        if k not in gb:
            continue
        x, y = ga[k], gb[k]
        r = y['mibs'] / x['mibs'] if x['mibs'] else 0
        rc = y['cpu_per_gib'] / x['cpu_per_gib'] if x['cpu_per_gib'] else 0
        if abs(r - 1) > worst[0]:
            worst = (abs(r - 1), k)
        if abs(rc - 1) > worst_cpu[0]:
            worst_cpu = (abs(rc - 1), k)
        print(f'| {k[0]} | {k[1]} | {k[2].upper()} | {k[3]} | {k[4]} | {fmt(x["mibs"])} | '
              f'{fmt(y["mibs"])} | {r:.3f} | {x["cpu_per_gib"]:.2f} | '
              f'{y["cpu_per_gib"]:.2f} | {rc:.3f} |')
    print(f'\nLargest MiB/s difference: {100 * worst[0]:.1f}% ({worst[1]}); '
          f'largest CPU-s/GiB difference: {100 * worst_cpu[0]:.1f}% ({worst_cpu[1]}).')
    # The lease cell: first rounds of A and B, phase by phase.
    xa = {x['server']: x for x in sorted(ra, key=lambda x: -x['round'])}
    xb = {x['server']: x for x in sorted(rb, key=lambda x: -x['round'])}
    if set(xa) & set(xb):
        print('\n| server | phase | A MiB/s | B MiB/s | B/A |')
        print('|---|---|---|---|---|')
        for srv in sorted(set(xa) & set(xb)):
            for i, ph in enumerate(('READ', 're-READ')):
                pa, pb = xa[srv]['phases'][i], xb[srv]['phases'][i]
                print(f"| {srv} | {ph} | {fmt(pa['mibs'])} | {fmt(pb['mibs'])} | "
                      f"{pb['mibs'] / pa['mibs']:.3f} |")


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--compare':
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2:
        report(sys.argv[1])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
