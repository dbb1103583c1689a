#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Living with a running server, through impacket sessions that stay open
while the administrator works in the guest: smbsrvctl sessions, a share
added and used without restarting anything, a user deleted (next logon
refused, another user's session unharmed), hosts deny at tree connect,
kill -9 of the daemon (established sessions keep working) and a restart
(new logons work).  Prints "PASS text" or "FAIL text: why" per check;
manage.sh turns them into TAP.

    manage.py PORT VM-NAME
"""

import json
import re
import subprocess
import sys

from impacket import nt_errors
from impacket import smb3
from impacket import smb3structs as s3
from impacket.smbconnection import SMBConnection, SessionError

TOP = __file__.rsplit("/", 4)[0]
PW = {"alice": "alice-pw", "bob": "bob-pw"}


def check(text, cond, why=""):
    print(("PASS %s" % text) if cond else ("FAIL %s: %s" % (text, why)),
          flush=True)


def expect(text, fn):
    try:
        r = fn()
        cond, why = r if isinstance(r, tuple) else (r, "")
    except Exception as e:  # noqa: BLE001 - report anything as a failure
        cond, why = False, "%s: %s" % (type(e).__name__, e)
    check(text, cond, why)


def guest(vm, script):
    """Run a shell script in the guest: (exit status, output)."""
    p = subprocess.run(
        ["bash", "-c", '. "$0/tools/vm/lib.sh"; vm_exec "$1" "$2"', TOP, vm,
         script], capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stdout + p.stderr).strip()


def guest_ok(vm, script):
    rc, out = guest(vm, script)
    return rc == 0, "rc %d: %s" % (rc, out)


def status_of(fn):
    """The NTSTATUS an impacket call fails with, or 0."""
    try:
        fn()
    except SessionError as e:
        return e.getErrorCode()
    return 0


def status_is(fn, want):
    def run():
        got = status_of(fn)
        return got == want, "got 0x%08x, want 0x%08x" % (got, want)
    return run


class SigningSMB3(smb3.SMB3):
    """impacket's SMB3 asking for signing in NEGOTIATE (SecurityMode)."""

    def negotiateSession(self, *args, **kw):
        self.RequireMessageSigning = True
        return super().negotiateSession(*args, **kw)


class Session:
    """An impacket SMB session kept open across the test."""

    def __init__(self, port, user, dialect=s3.SMB2_DIALECT_21, sign=False):
        if sign:
            self.c = SMBConnection(existingConnection=SigningSMB3(
                "SMBSRV", "127.0.0.1", sess_port=port,
                preferredDialect=dialect))
        else:
            self.c = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                                   preferredDialect=dialect)
        self.c.login(user, PW.get(user, "x"))
        self.tid = self.c.connectTree("demo")
        self.fid = self.c.createFile(self.tid, "%s.txt" % user)
        self.n = 0

    def roundtrip(self):
        """Write a new line at the end and read the whole file back."""
        line = ("line %d\n" % self.n).encode()
        self.c.writeFile(self.tid, self.fid, line, self.n * len(line))
        self.n += 1
        got = self.c.readFile(self.tid, self.fid, 0, self.n * len(line))
        want = b"".join(("line %d\n" % i).encode() for i in range(self.n))
        return got == want, "read back %r" % got


def login(port, user):
    c = SMBConnection("SMBSRV", "127.0.0.1", sess_port=port,
                      preferredDialect=s3.SMB2_DIALECT_21)
    c.login(user, PW.get(user, "x"))
    c.connectTree("demo")
    c.logoff()


def reloads(vm):
    """How many reloads (SIGHUP) the daemon has logged."""
    return int(guest(vm, "grep -c 'configuration reloaded' /tmp/smbsrvd.log")
               [1] or 0)


def reload_after(vm, before):
    """Wait until the daemon logged a reload more than before."""
    return guest_ok(vm, "for i in $(seq 1 50); do "
                    "[ \"$(grep -c 'configuration reloaded' /tmp/smbsrvd.log)\""
                    " -gt %d ] && exit 0; sleep 0.2; done; exit 1" % before)


# The guest's cifs mounts, over loopback.  cache=none: every read and
# write goes to the server, so a check through the mount is a check of the
# server.  UID: the guest's accounts (tools/vm/mkinitramfs.sh).
UID = {"alice": 1001, "bob": 1002}


def guest_json(vm, args):
    """smbsrvctl -j ARGS in the guest, parsed; raises if it is not JSON."""
    rc, out = guest(vm, "smbsrvctl -j %s" % args)
    if rc != 0:
        raise RuntimeError("smbsrvctl -j %s: rc %d: %s" % (args, rc, out))
    return json.loads(out)


def json_checks(vm, table):
    """smbsrvctl -j against the module's state with bob (3.0, signed, one
    open of bob.txt), alice (2.1, alice.txt) and bob's cifs mount (3.1.1)
    logged on: the same facts as the tables, as JSON."""
    sessions = guest_json(vm, "sessions")
    by = {}
    for x in sessions:
        by.setdefault(x["user"], []).append(x)
    expect("-j sessions: three sessions, bob twice, alice once",
           lambda: (sorted(x["user"] for x in sessions) ==
                    ["alice", "bob", "bob"], sessions))
    imp = [x for x in by.get("bob", []) if x["dialect"] == "3.0"]
    expect("-j sessions: bob's impacket session, 3.0, signing true, 1 tree, "
           "1 open file, guest false",
           lambda: (len(imp) == 1 and imp[0]["signing"] is True and
                    imp[0]["trees"] == 1 and imp[0]["open_files"] == 1 and
                    imp[0]["guest"] is False, sessions))
    expect("-j sessions: alice 2.1, signing false, encryption false",
           lambda: (by["alice"][0]["dialect"] == "2.1" and
                    by["alice"][0]["signing"] is False and
                    by["alice"][0]["encryption"] is False, sessions))
    expect("-j sessions: the session ids are those the table prints",
           lambda: (sorted(x["session_id"] for x in sessions) ==
                    sorted(table), (sessions, table)))

    conns = guest_json(vm, "connections")
    expect("-j connections: each session's channel is a listed connection",
           lambda: (all(x["channels"] and set(x["channels"]) <=
                        {c["connection_id"] for c in conns}
                        for x in sessions), (sessions, conns)))
    expect("-j connections: requests counted, dialect named",
           lambda: (all(c["requests"] > 0 and c["dialect"] in
                        ("2.1", "3.0", "3.1.1") for c in conns
                        if any(c["connection_id"] in x["channels"]
                               for x in sessions)), conns))

    opens = guest_json(vm, "opens")
    mine = {o["path"]: o for o in opens if o["share"] == "demo"}
    sid = {x["user"] + x["dialect"]: x["session_id"] for x in sessions}
    expect("-j opens: bob.txt open in bob's session, alice.txt in alice's",
           lambda: (mine.get("bob.txt", {}).get("session_id") ==
                    sid.get("bob3.0") and
                    mine.get("alice.txt", {}).get("session_id") ==
                    sid.get("alice2.1"), (opens, sid)))
    expect("-j opens: an access mask, a volatile id, no lease, not durable",
           lambda: (mine["bob.txt"]["access"] > 0 and
                    mine["bob.txt"]["volatile_id"].startswith("0x") and
                    mine["bob.txt"]["durable"] is None, opens))

    st = guest_json(vm, "status")
    shares = {x["name"]: x for x in st["shares"]}
    expect("-j status: daemon running, port 445, 3 sessions, [demo] with "
           "3 tree connects",
           lambda: (st["daemon"]["running"] is True and
                    st["listen_port"] == 445 and st["sessions"] == 3 and
                    shares.get("demo", {}).get("tree_connects") == 3, st))
    expect("-j status: knobs typed (tcp_port a number, smb2_leases a "
           "boolean, signing a word)",
           lambda: (st["knobs"]["tcp_port"]["value"] == 445 and
                    isinstance(st["knobs"]["smb2_leases"]["value"], bool) and
                    st["knobs"]["signing"]["value"] in
                    ("disabled", "auto", "mandatory"), st["knobs"]))

    stats = guest_json(vm, "stats")
    expect("-j stats: connections as listed, queues with work done",
           lambda: (stats["connections"] == len(conns) and
                    sum(q["completed"] for q in stats["queues"]) > 0 and
                    stats["read"]["copied"] + stats["read"]["spliced"] > 0,
                    stats))

    lst = {x["name"]: x for x in guest_json(vm, "share list")}
    expect("-j share list: [demo] with its path, comment, tree connects",
           lambda: (lst.get("demo", {}).get("path") == "/srv/demo" and
                    lst["demo"]["comment"] == "Demo share" and
                    lst["demo"]["tree_connects"] == 3 and
                    lst["IPC$"]["path"] is None, lst))
    show = guest_json(vm, "share show hidden")
    expect("-j share show hidden: browseable = no, path",
           lambda: (show["parameters"].get("browseable") == "no" and
                    show["parameters"].get("path") == "/srv/hidden", show))
    pretty = guest(vm, "smbsrvctl -j -p status")[1]
    expect("-j -p status: indented, the same document",
           lambda: (pretty.startswith("{\n  \"") and
                    json.loads(pretty)["module_version"] ==
                    st["module_version"], pretty))
    expect("-j with a command that has no JSON (kill): usage error, exit 2",
           lambda: (guest(vm, "smbsrvctl -j kill session 0x1")[0] == 2,
                    guest(vm, "smbsrvctl -j kill session 0x1")))


def cifs_mount(vm, share, user, mnt, opts=""):
    return guest_ok(vm, "mkdir -p %s && mount -t cifs //127.0.0.1/%s %s -o "
                    "username=%s,password=%s,uid=%d,cache=none%s" %
                    (mnt, share, mnt, user, PW[user], UID[user], opts))


def cifs_refused(vm, share, user, mnt):
    """A cifs mount that must fail with EACCES (the logon is refused)."""
    rc, out = guest(vm, "mkdir -p %s && mount -t cifs //127.0.0.1/%s %s -o "
                    "username=%s,password=%s,uid=%d,cache=none 2>&1; "
                    "echo rc=$?; grep -c ' %s cifs ' /proc/mounts" %
                    (mnt, share, mnt, user, PW.get(user, "x"),
                     UID.get(user, 0), mnt))
    return ("Permission denied" in out and out.endswith("0") and
            "rc=0" not in out), out


def cifs_rw(vm, mnt, srvdir, user):
    """Through the mount: append a line and read it back, read a file the
    server side wrote; on the server: the line is there, owned by user."""
    return guest_ok(vm, """set -e
n=$(date +%%s%%N)
echo "cifs $n" >> %(m)s/cifs.txt
[ "$(tail -n 1 %(m)s/cifs.txt)" = "cifs $n" ]
[ "$(tail -n 1 %(s)s/cifs.txt)" = "cifs $n" ]
[ "$(stat -c %%U %(s)s/cifs.txt)" = %(u)s ]
echo "server $n" > %(s)s/server.txt
[ "$(cat %(m)s/server.txt)" = "server $n" ]
dd if=/dev/urandom of=/tmp/cifs.bin bs=64k count=16 2>/dev/null
cp /tmp/cifs.bin %(m)s/cifs.bin
cmp /tmp/cifs.bin %(s)s/cifs.bin
cmp /tmp/cifs.bin %(m)s/cifs.bin
""" % {"m": mnt, "s": srvdir, "u": user})


def main():
    port, vm = int(sys.argv[1]), sys.argv[2]

    # (impacket's 3.0.2 and 3.1.1 are not usable with NTLM: logon.py.)
    bob = Session(port, "bob", s3.SMB2_DIALECT_30, sign=True)
    alice = Session(port, "alice", s3.SMB2_DIALECT_21)
    expect("bob (3.0, signed) writes and reads", bob.roundtrip)
    expect("alice (2.1) writes and reads", alice.roundtrip)
    expect("cifs mount of [demo] as bob (3.1.1, sign)",
           lambda: cifs_mount(vm, "demo", "bob", "/mnt/bob",
                              ",vers=3.1.1,sign"))
    expect("bob's cifs mount writes and reads (files owned by bob)",
           lambda: cifs_rw(vm, "/mnt/bob", "/srv/demo", "bob"))

    # smbsrvctl sessions: one line per session with dialect and signing.
    rc, out = guest(vm, "smbsrvctl sessions")
    rows, cifs = {}, []
    for line in out.splitlines()[1:]:
        f = line.split()
        if len(f) >= 9:
            if f[2].rsplit(":", 1)[0] == "127.0.0.1":
                cifs.append(f)
            else:
                rows[f[1]] = f
    expect("sessions lists bob with dialect 3.0, signing yes, 1 tree, "
           "1 open", lambda: (rows.get("bob", [])[3:5] == ["3.0", "yes"] and
                              rows["bob"][6:8] == ["1", "1"], out))
    expect("sessions lists alice with dialect 2.1, signing no, "
           "encryption no", lambda: (rows.get("alice", [])[3:6] ==
                                     ["2.1", "no", "no"], out))
    client = rows.get("bob", ["", "", ""])[2].rsplit(":", 1)[0].strip("[]")
    expect("sessions lists the cifs mount: bob from 127.0.0.1, dialect "
           "3.1.1, signing yes, encryption no",
           lambda: ([f[1] for f in cifs] == ["bob"] and
                    cifs[0][3:6] == ["3.1.1", "yes", "no"], out))
    expect("sessions shows the client address", lambda: (
        re.fullmatch(r"[0-9.]+|[0-9a-f:]+", client) is not None, out))
    json_checks(vm, [f[0] for f in list(rows.values()) + cifs])

    # admin users = @family: bob (in family) works as root on [team],
    # whose root directory only root may write to.
    def admin_write():
        tid = bob.c.connectTree("team")
        fid = bob.c.createFile(tid, "by-admin.txt")
        bob.c.writeFile(tid, fid, b"admin\n", 0)
        bob.c.closeFile(tid, fid)
        bob.c.disconnectTree(tid)
        return guest_ok(vm, "test \"$(stat -c '%U %a' /srv/team)\" = 'root 755' "
                        "&& test \"$(stat -c %U /srv/team/by-admin.txt)\" = root")
    expect("admin users = @family: bob creates a file in root's directory, "
           "owned by root", admin_write)

    # A share added with smbsrvctl, used by the sessions already there.
    expect("[docs] is not there yet: BAD_NETWORK_NAME",
           status_is(lambda: bob.c.connectTree("docs"),
                     nt_errors.STATUS_BAD_NETWORK_NAME))
    n = reloads(vm)
    expect("smbsrvctl share add docs", lambda: guest_ok(
        vm, "mkdir -p /srv/docs && chmod 777 /srv/docs && "
        "smbsrvctl share add docs -o 'path = /srv/docs' "
        "-o 'comment = Documents' -o 'read only = no'"))
    expect("the daemon reloaded", lambda: reload_after(vm, n))

    def use_docs():
        tid = bob.c.connectTree("docs")
        fid = bob.c.createFile(tid, "new.txt")
        bob.c.writeFile(tid, fid, b"in docs\n", 0)
        bob.c.closeFile(tid, fid)
        bob.c.disconnectTree(tid)
        return guest_ok(vm, "test \"$(cat /srv/docs/new.txt)\" = 'in docs' "
                        "&& test \"$(stat -c %U /srv/docs/new.txt)\" = bob")
    expect("bob's existing session uses the new share (file there, "
           "owned by bob)", use_docs)
    expect("bob's open file on [demo] still works", bob.roundtrip)
    expect("a cifs mount of the new share as alice (no restart)",
           lambda: cifs_mount(vm, "docs", "alice", "/mnt/docs"))
    expect("alice's cifs mount of [docs] writes and reads (owned by alice)",
           lambda: cifs_rw(vm, "/mnt/docs", "/srv/docs", "alice"))
    expect("alice unmounts [docs]",
           lambda: guest_ok(vm, "umount /mnt/docs"))

    # A deleted user: the next logon is refused, other sessions go on.
    expect("smbsrvctl user del alice",
           lambda: guest_ok(vm, "smbsrvctl user del alice"))
    expect("alice's next logon is refused: LOGON_FAILURE",
           status_is(lambda: login(port, "alice"),
                     nt_errors.STATUS_LOGON_FAILURE))
    expect("bob's session keeps working", bob.roundtrip)
    expect("a new logon of bob works", lambda: login(port, "bob") is None)
    expect("a cifs mount as alice is refused (EACCES, nothing mounted)",
           lambda: cifs_refused(vm, "demo", "alice", "/mnt/alice"))
    expect("bob's open cifs mount keeps reading and writing",
           lambda: cifs_rw(vm, "/mnt/bob", "/srv/demo", "bob"))

    # A new password: the old one is refused at once, sessions go on.
    expect("smbsrvctl user passwd bob (password from stdin)",
           lambda: guest_ok(vm, "printf 'bob-new\\n' | smbsrvctl user passwd bob"))
    expect("bob's old password is refused at once: LOGON_FAILURE",
           status_is(lambda: login(port, "bob"),
                     nt_errors.STATUS_LOGON_FAILURE))
    PW["bob"] = "bob-new"
    expect("bob's new password works", lambda: login(port, "bob") is None)
    expect("bob's session keeps working after the change", bob.roundtrip)

    # hosts deny for the share: refused at tree connect, others unaffected.
    net = ".".join(client.split(".")[:3]) + ".0/24" if "." in client \
        else client
    n = reloads(vm)
    expect("smbsrvctl share update docs -o 'hosts deny = %s'" % net,
           lambda: guest_ok(vm, "smbsrvctl share update docs "
                            "-o 'hosts deny = %s'" % net))
    expect("the daemon reloaded", lambda: reload_after(vm, n))
    expect("hosts deny refuses the tree connect: ACCESS_DENIED",
           status_is(lambda: bob.c.connectTree("docs"),
                     nt_errors.STATUS_ACCESS_DENIED))
    expect("[demo] is still open to that host", bob.roundtrip)
    # A host name in hosts allow: resolved when the daemon loads the file
    # (here from the guest's /etc/hosts).
    n = reloads(vm)
    expect("smbsrvctl share update docs -o 'hosts allow = clienthost' "
           "-o 'hosts deny = ALL' (clienthost: %s in /etc/hosts)" % client,
           lambda: guest_ok(vm, "echo '%s clienthost' >> /etc/hosts && "
                            "smbsrvctl share update docs -o "
                            "'hosts allow = clienthost' -o 'hosts deny = ALL'"
                            % client))
    expect("the daemon reloaded", lambda: reload_after(vm, n))
    expect("hosts allow = clienthost lets the client in again",
           lambda: bob.c.disconnectTree(bob.c.connectTree("docs")) or True)
    expect("smbsrvd --check-config shows clienthost's address",
           lambda: guest_ok(vm, "smbsrvd --check-config 2>&1 | grep "
                            "'hosts allow = %s$'" % client))

    # kill -9 of the daemon: sessions live in the module.
    expect("kill -9 smbsrvd", lambda: guest_ok(
        vm, "kill -9 $(cat /run/smbsrvd.pid) && for i in $(seq 1 50); do "
        "smbsrvctl status | grep -q '^daemon: *not running' && exit 0; "
        "sleep 0.2; done; smbsrvctl status; exit 1"))
    expect("bob's session keeps reading and writing", bob.roundtrip)
    expect("bob's cifs mount keeps reading and writing without the daemon",
           lambda: cifs_rw(vm, "/mnt/bob", "/srv/demo", "bob"))
    expect("a new logon fails while no daemon answers",
           lambda: status_of(lambda: login(port, "bob")) != 0)
    expect("smbsrvd restarts", lambda: guest_ok(
        vm, "smbsrvd -F >> /tmp/smbsrvd.log 2>&1 & for i in $(seq 1 50); do "
        "smbsrvctl status | grep -q '^daemon: *running' && exit 0; "
        "sleep 0.2; done; exit 1"))
    expect("a new logon of bob works again",
           lambda: login(port, "bob") is None)
    expect("bob's old session still works", bob.roundtrip)
    expect("a new cifs mount works after the restart (bob, 3.0)",
           lambda: cifs_mount(vm, "demo", "bob", "/mnt/new", ",vers=3.0"))
    expect("the new cifs mount writes and reads",
           lambda: cifs_rw(vm, "/mnt/new", "/srv/demo", "bob"))
    expect("the cifs mount from before the kill still works",
           lambda: cifs_rw(vm, "/mnt/bob", "/srv/demo", "bob"))
    expect("alice is still refused after the restart",
           status_is(lambda: login(port, "alice"),
                     nt_errors.STATUS_LOGON_FAILURE))
    # hosts deny in [global]: new connections refused at accept.
    n = reloads(vm)
    expect("[global] hosts deny = %s, smbsrvctl reload" % client,
           lambda: guest_ok(vm, "sed -i 's/^\\[global\\]$/&\\n\\thosts deny = "
                            "%s/' /etc/smbsrv/smbsrv.conf && smbsrvctl reload"
                            % client))
    expect("the daemon reloaded", lambda: reload_after(vm, n))

    def refused_at_accept():
        try:
            SMBConnection("SMBSRV", "127.0.0.1", sess_port=port, timeout=30,
                          preferredDialect=s3.SMB2_DIALECT_21)
        except Exception:  # noqa: BLE001 - any failure to negotiate
            return guest_ok(vm, "dmesg | grep 'refused: hosts allow/deny'")
        return False, "NEGOTIATE was answered"
    expect("a new connection is closed at accept (module logs why)",
           refused_at_accept)
    expect("bob's established session keeps working", bob.roundtrip)
    expect("the cifs mounts (another address) keep working",
           lambda: cifs_rw(vm, "/mnt/bob", "/srv/demo", "bob"))
    n = reloads(vm)
    expect("hosts deny removed, smbsrvctl reload",
           lambda: guest_ok(vm, "sed -i '/^\\thosts deny = /d' "
                            "/etc/smbsrv/smbsrv.conf && smbsrvctl reload"))
    expect("the daemon reloaded", lambda: reload_after(vm, n))
    expect("new connections and logons work again",
           lambda: login(port, "bob") is None)
    expect("bob's old session closes its file and logs off cleanly",
           lambda: (bob.c.closeFile(bob.tid, bob.fid), bob.c.logoff()) and
           True)
    expect("the cifs mounts unmount",
           lambda: guest_ok(vm, "umount /mnt/bob && umount /mnt/new"))


if __name__ == "__main__":
    main()
