#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Open N connections to an SMB server, print "ready", hold them until
stdin says anything or closes, then close them.

    hold-conns.py PORT N                 NEGOTIATE 3.1.1 on each
    hold-conns.py PORT N USER PASS SHARE and a logon (impacket, encrypted)
                                         with a tree connect, dialect
                                         $HOLD_DIALECT (default 0x0300)
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../tests/selftests/host"))
from smb2raw import Conn, list_ctx, preauth_ctx  # noqa: E402


def sessions(port, n, user, password, share):
    from impacket.smbconnection import SMBConnection
    conns = []
    for _ in range(n):
        c = SMBConnection("SRV", "127.0.0.1", sess_port=port,
                          preferredDialect=int(os.environ.get(
                              "HOLD_DIALECT", "0x0300"), 16))
        c.login(user, password)
        c.connectTree(share)
        conns.append(c)
    return conns


def main():
    port, n = int(sys.argv[1]), int(sys.argv[2])
    if len(sys.argv) > 3:
        conns = sessions(port, n, *sys.argv[3:6])
        print("ready", flush=True)
        sys.stdin.readline()
        for c in conns:
            c.close()
        return
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
