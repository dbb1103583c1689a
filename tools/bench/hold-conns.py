#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Open N connections to an SMB server, NEGOTIATE 3.1.1 on each, print
"ready", hold them until stdin closes or says anything, then close them.

    hold-conns.py PORT N
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../tests/selftests/host"))
from smb2raw import Conn, list_ctx, preauth_ctx  # noqa: E402


def main():
    port, n = int(sys.argv[1]), int(sys.argv[2])
    conns = []
    for _ in range(n):
        c = Conn(port)
        r = c.negotiate([0x0210, 0x0300, 0x0302, 0x0311],
                        [preauth_ctx(), list_ctx(2, [2, 1]),
                         list_ctx(8, [1, 0])])
        if r.status:
            sys.exit("negotiate failed: %#x" % r.status)
        conns.append(c)
    print("ready", flush=True)
    sys.stdin.readline()
    for c in conns:
        c.close()


if __name__ == "__main__":
    main()
