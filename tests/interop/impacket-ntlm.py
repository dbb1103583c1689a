#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# impacket's NTLM client code (what its SMB client and the test tools built
# on it run) against smbsrv's Authenticator (auth-driver), without a
# kernel: raw NTLMSSP and impacket's SPNEGO wrapping, right and wrong
# passwords, an NT hash instead of a password, NTLMv1 (refused).  TAP.
#
#   tests/interop/impacket-ntlm.py AUTH-DRIVER
import subprocess
import sys

from impacket import ntlm
from impacket.spnego import SPNEGO_NegTokenInit, SPNEGO_NegTokenResp, TypesMech

SUCCESS = 0
MORE = 0xC0000016
LOGON_FAILURE = 0xC000006D

n = 0
failed = 0


def ok(cond, desc, diag=""):
    global n, failed
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, desc))
    if not cond:
        failed += 1
        for line in str(diag).splitlines():
            print("# " + line)


class Driver:
    def __init__(self, path):
        self.p = subprocess.Popen(
            [path, "--user", "alice:secret", "--account", "alice:1001:1001"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def leg(self, blob):
        self.p.stdin.write("7 10.0.2.2 %s\n" % (blob.hex() if blob else "-"))
        self.p.stdin.flush()
        f = self.p.stdout.readline().split()
        return int(f[0], 16), bytes.fromhex(f[1]) if f[1] != "-" else b"", f

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def raw(driver, password="secret", nthash="", v2=True):
    d = Driver(driver)
    t1 = ntlm.getNTLMSSPType1("CLIENT", "WORKGROUP", use_ntlmv2=v2)
    st, blob, _ = d.leg(t1.getData())
    if st != MORE:
        d.close()
        return st, None, None
    t3, key = ntlm.getNTLMSSPType3(t1, blob, "alice", password, "WORKGROUP",
                                   nthash=nthash, use_ntlmv2=v2)
    st, _, f = d.leg(t3.getData())
    d.close()
    return st, f, key


def spnego(driver, password="secret"):
    d = Driver(driver)
    t1 = ntlm.getNTLMSSPType1("CLIENT", "WORKGROUP")
    init = SPNEGO_NegTokenInit()
    init["MechTypes"] = [TypesMech["NTLMSSP - Microsoft NTLM Security Support Provider"]]
    init["MechToken"] = t1.getData()
    st, blob, _ = d.leg(init.getData())
    if st != MORE:
        d.close()
        return st, None, None
    resp = SPNEGO_NegTokenResp(blob)
    t3, key = ntlm.getNTLMSSPType3(t1, resp["ResponseToken"], "alice",
                                   password, "WORKGROUP")
    out = SPNEGO_NegTokenResp()
    out["ResponseToken"] = t3.getData()
    st, blob, f = d.leg(out.getData())
    d.close()
    if st == SUCCESS:
        fin = SPNEGO_NegTokenResp(blob)
        f.append("negState=%d" % fin["NegState"][0])
    return st, f, key


def main():
    driver = sys.argv[1]
    st, f, key = raw(driver)
    ok(st == SUCCESS, "raw NTLMSSP, right password: status %08x" % st, f)
    if st == SUCCESS:
        ok(f[2] == key.hex(), "raw NTLMSSP: both sides hold the same session key",
           "server %s client %s" % (f[2], key.hex()))
        ok(f[5] == "alice" and f[4] == "1001", "raw NTLMSSP: user alice, uid 1001", f)
    st, f, key = raw(driver, password="", nthash=ntlm.compute_nthash("secret"))
    ok(st == SUCCESS, "raw NTLMSSP, pass-the-hash: status %08x" % st, f)
    st, _, _ = raw(driver, password="wrong")
    ok(st == LOGON_FAILURE, "raw NTLMSSP, wrong password: status %08x" % st)
    st, _, _ = raw(driver, v2=False)
    ok(st == LOGON_FAILURE, "NTLMv1 is refused: status %08x" % st)
    st, f, key = spnego(driver)
    ok(st == SUCCESS, "SPNEGO, right password: status %08x" % st, f)
    if st == SUCCESS:
        ok(f[2] == key.hex(), "SPNEGO: both sides hold the same session key",
           "server %s client %s" % (f[2], key.hex()))
        ok(f[-1] == "negState=0", "SPNEGO: accept-completed", f)
    st, _, _ = spnego(driver, password="wrong")
    ok(st == LOGON_FAILURE, "SPNEGO, wrong password: status %08x" % st)
    print("1..%d" % n)
    sys.exit(1 if failed else 0)


main()
