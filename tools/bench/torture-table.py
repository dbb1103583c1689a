#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-suite summary of a side-by-side smbtorture table.

    torture-table.py TABLE [TITLE]

TABLE is what tests/selftests/host/torture.bash's tt_table writes
(build/test-logs/torture-SCRIPT.txt: a header "subtest smbsrv ksmbd
[samba]" naming the servers, then a line per subtest, each result success,
failure, error, skip, xfail or "-" for did not run).
Prints, as Markdown: per suite the subtests each server passed and how
many ran (reported a result on either server), then per suite the
subtests each server did not pass, with their result.
"""
import sys


def load(path):
    """The servers (header order) and the rows (name, results...)."""
    servers = []
    rows = []
    for line in open(path):
        f = line.split()
        if f and f[0] == 'subtest':
            servers = f[1:]
        elif servers and len(f) == len(servers) + 1 and f[0].startswith(('smb2.', 'vfs.')):
            rows.append(f)
    return servers, rows


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    servers, rows = load(sys.argv[1])
    suites = []
    by = {}
    for name, *results in rows:
        suite = '.'.join(name.split('.')[:2])
        if suite not in by:
            suites.append(suite)
            by[suite] = []
        by[suite].append((name[len(suite) + 1:], dict(zip(servers, results))))
    if len(sys.argv) == 3:
        print(sys.argv[2] + '\n')
    print('| suite | ' + ' | '.join(f'{s} passed' for s in servers) + ' | ran |')
    print('|---|' + '---|' * len(servers) + '---|')
    tot = {s: 0 for s in servers}
    ran_all = 0
    for suite in suites:
        n = {s: sum(1 for _, r in by[suite] if r[s] == 'success') for s in servers}
        ran = sum(1 for _, r in by[suite] if any(r[s] != '-' for s in servers))
        for s in servers:
            tot[s] += n[s]
        ran_all += ran
        print(f'| {suite} | ' + ' | '.join(str(n[s]) for s in servers) + f' | {ran} |')
    print('| total | ' + ' | '.join(str(tot[s]) for s in servers) + f' | {ran_all} |')
    print()
    for s in servers:
        print(f'Not passed on {s} (result; "-": did not run):\n')
        for suite in suites:
            bad = [f'{sub} ({r[s]})' for sub, r in by[suite] if r[s] != 'success']
            if bad:
                print(f"* {suite} ({len(bad)}): {', '.join(bad)}")
        print()


if __name__ == '__main__':
    main()
