#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-suite summary of a side-by-side smbtorture table.

    torture-table.py TABLE [TITLE]

TABLE is what tests/selftests/host/torture.bash's tt_table writes
(build/test-logs/torture-SCRIPT.txt: "subtest smbsrv ksmbd" per line, each
result success, failure, error, skip, xfail or "-" for did not run).
Prints, as Markdown: per suite the subtests each server passed and how
many ran (reported a result on either server), then per suite the
subtests each server did not pass, with their result.
"""
import sys

SERVERS = ('smbsrv', 'ksmbd')


def load(path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) != 3 or f[0] == 'subtest' or not f[0].startswith('smb2.'):
            continue
        rows.append(f)
    return rows


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    rows = load(sys.argv[1])
    suites = []
    by = {}
    for name, s, k in rows:
        suite = '.'.join(name.split('.')[:2])
        if suite not in by:
            suites.append(suite)
            by[suite] = []
        by[suite].append((name[len(suite) + 1:], {'smbsrv': s, 'ksmbd': k}))
    if len(sys.argv) == 3:
        print(sys.argv[2] + '\n')
    print('| suite | smbsrv passed | ksmbd passed | ran |')
    print('|---|---|---|---|')
    tot = {s: 0 for s in SERVERS}
    ran_all = 0
    for suite in suites:
        n = {s: sum(1 for _, r in by[suite] if r[s] == 'success') for s in SERVERS}
        ran = sum(1 for _, r in by[suite] if any(r[s] != '-' for s in SERVERS))
        for s in SERVERS:
            tot[s] += n[s]
        ran_all += ran
        print(f"| {suite} | {n['smbsrv']} | {n['ksmbd']} | {ran} |")
    print(f"| total | {tot['smbsrv']} | {tot['ksmbd']} | {ran_all} |")
    print()
    for s in SERVERS:
        print(f'Not passed on {s} (result; "-": did not run):\n')
        for suite in suites:
            bad = [f'{sub} ({r[s]})' for sub, r in by[suite] if r[s] != 'success']
            if bad:
                print(f"* {suite} ({len(bad)}): {', '.join(bad)}")
        print()


if __name__ == '__main__':
    main()
