#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Samba's own client security code (gensec: NTLMSSP and GSS-SPNEGO, what
# smbclient runs) against smbsrv's Authenticator (auth-driver), without a
# kernel.  Prints TAP.  With --record DIR, each exchange is also written to
# DIR/NAME.txt for the unit tests to replay (tests/unit/test_auth.cpp).
#
#   tests/interop/samba-gensec.py AUTH-DRIVER [--record DIR]
import os
import subprocess
import sys

try:
    from samba import gensec, param
    from samba.credentials import Credentials, DONT_USE_KERBEROS
except ImportError as e:  # python3-samba is a test dependency
    print("1..1")
    print("not ok 1 - python3-samba is not importable: %s" % e)
    sys.exit(1)

SUCCESS = 0
MORE = 0xC0000016
LOGON_FAILURE = 0xC000006D

SEED = "0123456789abcdef"
TIME = 0x01DB3C1A2B3C4D5E
USERS = [("alice", "secret"), ("jürgen", "pässword€")]
ACCOUNTS = [("alice", 1001, 1001), ("jürgen", 1003, 1003),
            ("nobody", 65534, 65534)]

# name, mechanism, (user, password, domain) or None for anonymous,
# map to guest, expected status, flags, user
SCENARIOS = [
    ("spnego-alice", "spnego", ("alice", "secret", "WORKGROUP"), "never",
     SUCCESS, 0, "alice"),
    ("ntlmssp-alice", "ntlmssp", ("alice", "secret", "WORKGROUP"), "never",
     SUCCESS, 0, "alice"),
    ("spnego-upper-case-user", "spnego", ("ALICE", "secret", "workgroup"),
     "never", SUCCESS, 0, "alice"),
    ("spnego-unicode", "spnego", ("jürgen", "pässword€", "SMBSRV"), "never",
     SUCCESS, 0, "jürgen"),
    ("spnego-wrong-password", "spnego", ("alice", "Secret", "WORKGROUP"),
     "never", LOGON_FAILURE, 0, "-"),
    ("ntlmssp-wrong-password", "ntlmssp", ("alice", "wrong", "WORKGROUP"),
     "never", LOGON_FAILURE, 0, "-"),
    ("spnego-unknown-user", "spnego", ("mallory", "x", "WORKGROUP"),
     "never", LOGON_FAILURE, 0, "-"),
    ("spnego-unknown-user-guest", "spnego", ("mallory", "x", "WORKGROUP"),
     "bad user", SUCCESS, 1, "nobody"),
    ("spnego-wrong-password-guest", "spnego", ("alice", "x", "WORKGROUP"),
     "bad password", SUCCESS, 1, "nobody"),
    ("spnego-anonymous", "spnego", None, "never", SUCCESS, 2, "nobody"),
    ("ntlmssp-anonymous", "ntlmssp", None, "never", SUCCESS, 2, "nobody"),
]

n = 0
failed = 0


def ok(cond, desc, diag=""):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, desc))
    else:
        failed += 1
        print("not ok %d - %s" % (n, desc))
        for line in str(diag).splitlines():
            print("# " + line)


def client(mech, cred):
    lp = param.LoadParm()
    creds = Credentials()
    creds.guess(lp)
    if cred is None:
        creds.set_anonymous()
    else:
        creds.set_username(cred[0])
        creds.set_password(cred[1])
        creds.set_domain(cred[2])
        creds.set_workstation("CLIENT")
    creds.set_kerberos_state(DONT_USE_KERBEROS)
    c = gensec.Security.start_client({"lp_ctx": lp,
                                      "target_hostname": "smbsrv"})
    c.set_credentials(creds)
    c.want_feature(gensec.FEATURE_SESSION_KEY)
    if mech == "spnego":
        c.start_mech_by_sasl_name("GSS-SPNEGO")
    else:
        c.start_mech_by_name("ntlmssp")
    return c


def run(driver, scenario, record):
    name, mech, cred, mtg, want_status, want_flags, want_user = scenario
    args = [driver, "--seed", SEED, "--time", str(TIME),
            "--map-to-guest", mtg, "--netbios", "SMBSRV",
            "--workgroup", "WORKGROUP"]
    for u, p in USERS:
        args += ["--user", "%s:%s" % (u, p)]
    for a, uid, gid in ACCOUNTS:
        args += ["--account", "%s:%d:%d" % (a, uid, gid)]
    drv = subprocess.Popen(args, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    c = client(mech, cred)
    sid, addr = "0x4000000000001", "10.0.2.2"
    lines = ["seed " + SEED, "time %d" % TIME, "map-to-guest " + mtg]
    lines += ["user %s %s" % u for u in USERS]
    lines += ["account %s %d %d" % a for a in ACCOUNTS]
    lines += ["session %s %s" % (sid, addr)]
    err = ""
    status = None
    reply = []
    try:
        _, token = c.update(b"")
        for _ in range(6):
            tok = token.hex() if token else "-"
            drv.stdin.write("%s %s %s\n" % (sid, addr, tok))
            drv.stdin.flush()
            reply = drv.stdout.readline().split()
            lines += ["C " + tok, "S " + " ".join(reply)]
            status = int(reply[0], 16)
            if status != MORE:
                break
            _, token = c.update(bytes.fromhex(reply[1]))
        if status == SUCCESS and reply[1] != "-":
            # The client checks our final token (the mechListMIC).
            c.update(bytes.fromhex(reply[1]))
    except Exception as e:  # gensec raises on anything it dislikes
        err = "client: %r" % (e,)
    drv.stdin.close()
    drv.wait()

    desc = "%s: status %s" % (name, "%08x" % status if status is not None
                              else "none")
    ok(not err and status == want_status, desc, err or reply)
    if status == SUCCESS:
        ok(int(reply[3]) == want_flags and reply[5] == want_user,
           "%s: flags %s, user %s" % (name, reply[3], reply[5]), reply)
        if want_flags == 0:
            try:
                ckey = c.session_key().hex()
            except Exception as e:
                ckey = "client has no session key: %r" % (e,)
            ok(reply[2] == ckey, "%s: both sides hold the same session key"
               % name, "server %s\nclient %s" % (reply[2], ckey))
            lines.append("client-key " + ckey)
    if record:
        with open(os.path.join(record, name + ".txt"), "w") as f:
            f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) < 2:
        print("usage: samba-gensec.py AUTH-DRIVER [--record DIR]",
              file=sys.stderr)
        sys.exit(2)
    driver = sys.argv[1]
    record = sys.argv[3] if len(sys.argv) > 3 and \
        sys.argv[2] == "--record" else None
    for s in SCENARIOS:
        run(driver, s, record)
    print("1..%d" % n)
    sys.exit(1 if failed else 0)


main()
