#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# impacket's DCE/RPC client and its srvsvc/wkssvc NDR code (an independent
# implementation) against smbsrv's RPC library (rpc-driver), without a
# kernel: binds, share enumeration at every level, share and server info,
# workstation info, fragmented requests and responses, and faults for bad
# input.  Prints TAP.  With --record DIR, some exchanges are written to
# DIR/NAME.txt ("> hex" written, "< hex" answered) for
# tests/unit/test_rpc.cpp to replay byte for byte.
#
#   tests/interop/impacket-rpc.py RPC-DRIVER CONFIG [--record DIR]
import os
import subprocess
import sys

try:
    from impacket.dcerpc.v5 import rpcrt, srvs, transport, wkst
    from impacket.dcerpc.v5.rpcrt import DCERPCException
    from impacket.uuid import uuidtup_to_bin
except ImportError as e:  # python3-impacket is a test dependency
    print("1..1")
    print("not ok 1 - impacket is not importable: %s" % e)
    sys.exit(1)

DRIVER, CONFIG = sys.argv[1], sys.argv[2]
RECORD = sys.argv[sys.argv.index("--record") + 1] if "--record" in sys.argv else None

n = 0
failed = 0


def check(desc, cond, detail=""):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, desc))
    else:
        failed += 1
        print("not ok %d - %s" % (n, desc))
        if detail:
            for line in str(detail).splitlines():
                print("# " + line)


class DriverTransport(transport.DCERPCTransport):
    """A pipe of rpc-driver: each send is one write to the pipe."""

    def __init__(self, pipe, admin=False, record=None):
        transport.DCERPCTransport.__init__(self, "smbsrv", 0)
        args = [DRIVER, CONFIG, pipe] + (["--admin"] if admin else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.buf = b""
        self.log = [] if record else None
        self.record = record

    def connect(self):
        return 1

    def disconnect(self):
        self.proc.stdin.close()
        self.proc.wait()
        if self.record and RECORD:
            with open(os.path.join(RECORD, self.record + ".txt"), "w") as f:
                f.write("\n".join(self.log) + "\n")

    def write(self, data):
        self.proc.stdin.write(data.hex() + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline().strip()
        answer = b"" if out == "-" else bytes.fromhex(out)
        if self.log is not None:
            self.log.append("> " + data.hex())
            self.log.append("< " + (answer.hex() or "-"))
        self.buf += answer
        return answer

    def send(self, data, forceWriteAndx=0, forceRecv=0):
        self.write(data)

    def recv(self, forceRecv=0, count=0):
        if count == 0 or count > len(self.buf):
            count = len(self.buf)
        out, self.buf = self.buf[:count], self.buf[count:]
        return out


def session(pipe, iface, admin=False, record=None, **bind):
    t = DriverTransport(pipe, admin, record)
    dce = t.get_dce_rpc()
    dce.connect()
    dce.bind(iface, **bind)
    return t, dce


def error_code(fn):
    """The Win32 error a call returned, or the name of the fault."""
    try:
        fn()
    except DCERPCException as e:
        code = e.get_error_code()
        return code if code is not None else str(e)
    return None


# 1. NetShareEnumAll, as smbclient -L and Windows ask (level 1).
t, dce = session("srvsvc", srvs.MSRPC_UUID_SRVS, record="share-enum-1")
r = srvs.hNetrShareEnum(dce, 1)
shares = [(s["shi1_netname"][:-1], s["shi1_type"], s["shi1_remark"][:-1])
          for s in r["InfoStruct"]["ShareInfo"]["Level1"]["Buffer"]]
check("level 1 lists the browseable shares with type and comment, in order",
      shares == [("demo", 0, "Demo share"), ("Daten", 0, "Dateien für alle"),
                 ("IPC$", 0x80000003, "IPC share")], shares)
check("level 1 TotalEntries", r["TotalEntries"] == 3, r["TotalEntries"])
dce.disconnect()
t.disconnect()

t, dce = session("\\PIPE\\srvsvc", srvs.MSRPC_UUID_SRVS)
r = srvs.hNetrShareEnum(dce, 0)
names = [s["shi0_netname"][:-1] for s in r["InfoStruct"]["ShareInfo"]["Level0"]["Buffer"]]
check("level 0 lists the names", names == ["demo", "Daten", "IPC$"], names)
r = srvs.hNetrShareEnum(dce, 501)
l501 = [(s["shi501_netname"][:-1], s["shi501_flags"])
        for s in r["InfoStruct"]["ShareInfo"]["Level501"]["Buffer"]]
check("level 501 lists names and flags", l501 == [("demo", 0), ("Daten", 0), ("IPC$", 0)], l501)
code = error_code(lambda: srvs.hNetrShareEnum(dce, 2))
check("level 2 is for administrators: ERROR_ACCESS_DENIED", code == 5, code)
code = error_code(lambda: srvs.hNetrShareEnum(dce, 502))
check("level 502: ERROR_INVALID_LEVEL", code == 124, code)

# 2. NetShareGetInfo.
r = srvs.hNetrShareGetInfo(dce, "DEMO\x00", 1)
i = r["InfoStruct"]["ShareInfo1"]
check("NetShareGetInfo level 1, any case",
      (i["shi1_netname"][:-1], i["shi1_remark"][:-1]) == ("demo", "Demo share"), i)
r = srvs.hNetrShareGetInfo(dce, "hidden\x00", 0)
check("a share that is not browseable is still found by name",
      r["InfoStruct"]["ShareInfo0"]["shi0_netname"][:-1] == "hidden")
code = error_code(lambda: srvs.hNetrShareGetInfo(dce, "nosuch\x00", 1))
check("unknown share: NERR_NetNameNotFound", code == 2310, code)
code = error_code(lambda: srvs.hNetrShareGetInfo(dce, "demo\x00", 7))
check("NetShareGetInfo level 7: ERROR_INVALID_LEVEL", code == 124, code)
r = srvs.hNetrShareGetInfo(dce, "demo\x00", 1005)
check("NetShareGetInfo level 1005 (client-side caching flags)",
      r["InfoStruct"]["ShareInfo1005"]["shi1005_flags"] == 0)

# 3. NetServerGetInfo.
r = srvs.hNetrServerGetInfo(dce, 101)
i = r["InfoStruct"]["ServerInfo101"]
check("NetServerGetInfo level 101",
      (i["sv101_platform_id"], i["sv101_name"][:-1], i["sv101_comment"][:-1],
       i["sv101_version_major"]) == (500, "SMBSRV-TEST", "smbsrv RPC test", 6), i)
check("server type: workstation, server, NT server",
      i["sv101_type"] & 0x8003 == 0x8003, hex(i["sv101_type"]))
r = srvs.hNetrServerGetInfo(dce, 102)
check("NetServerGetInfo level 102",
      r["InfoStruct"]["ServerInfo102"]["sv102_userpath"][:-1] == "C:\\")
code = error_code(lambda: srvs.hNetrServerGetInfo(dce, 103))
check("NetServerGetInfo level 103: ERROR_INVALID_LEVEL", code == 124, code)
dce.disconnect()
t.disconnect()

# 4. Administrators see paths.
t, dce = session("srvsvc", srvs.MSRPC_UUID_SRVS, admin=True, record="share-enum-2-admin")
r = srvs.hNetrShareEnum(dce, 2)
l2 = [(s["shi2_netname"][:-1], s["shi2_path"][:-1], s["shi2_max_uses"])
      for s in r["InfoStruct"]["ShareInfo"]["Level2"]["Buffer"]]
check("level 2 for an administrator: paths as C:\\...",
      l2 == [("demo", "C:\\srv\\demo", 0xFFFFFFFF),
             ("Daten", "C:\\srv\\daten", 0xFFFFFFFF),
             ("IPC$", "C:", 0xFFFFFFFF)], l2)
dce.disconnect()
t.disconnect()

# 5. wkssvc.
t, dce = session("wkssvc", wkst.MSRPC_UUID_WKST, record="wksta-100")
r = wkst.hNetrWkstaGetInfo(dce, 100)
i = r["WkstaInfo"]["WkstaInfo100"]
check("NetWkstaGetInfo level 100",
      (i["wki100_computername"][:-1], i["wki100_langroup"][:-1]) == ("SMBSRV-TEST", "TESTGROUP"), i)
r = wkst.hNetrWkstaGetInfo(dce, 101)
check("NetWkstaGetInfo level 101",
      r["WkstaInfo"]["WkstaInfo101"]["wki101_lanroot"][:-1] == "C:\\")
code = error_code(lambda: wkst.hNetrWkstaGetInfo(dce, 502))
check("NetWkstaGetInfo level 502: ERROR_INVALID_LEVEL", code == 124, code)
dce.disconnect()
t.disconnect()

# 6. Binds that must not succeed.
t = DriverTransport("srvsvc")
dce = t.get_dce_rpc()
dce.connect()
try:
    dce.bind(wkst.MSRPC_UUID_WKST)
    check("binding wkssvc on the srvsvc pipe is refused", False)
except DCERPCException as e:
    check("binding wkssvc on the srvsvc pipe is refused",
          "abstract_syntax_not_supported" in str(e), e)
try:
    dce.bind(srvs.MSRPC_UUID_SRVS,
             transfer_syntax=("71710533-BEBA-4937-8319-B5DBEF9CCC36", "1.0"))
    check("NDR64 alone is declined", False)
except DCERPCException as e:
    check("NDR64 alone is declined", "proposed_transfer_syntaxes_not_supported" in str(e), e)
t.disconnect()
t = DriverTransport("lsarpc")
check("a pipe smbsrv does not serve does not exist",
      t.proc.stdout.readline().strip() == "NO-SUCH-PIPE")
t.disconnect()

# 7. Faults: unknown opnum, bad stub data, requests on unknown contexts.
t, dce = session("srvsvc", srvs.MSRPC_UUID_SRVS)
dce.call(99, b"")
code = error_code(lambda: dce.recv())
check("unknown opnum: fault nca_s_op_rng_error", code == "nca_s_op_rng_error", code)
# ServerName NULL, level 1, switch 2, container NULL, max length, no resume
dce.call(15, bytes.fromhex("00000000" "01000000" "02000000" "00000000" "ffffffff" "00000000"))
code = error_code(lambda: dce.recv())
check("mismatched union switch: fault RPC_X_BAD_STUB_DATA", code == "rpc_x_bad_stub_data", code)
dce.call(16, b"\x00\x00\x00\x00\xff\xff\xff\x7f\x00\x00\x00\x00\xff\xff\xff\x7f")
code = error_code(lambda: dce.recv())
check("a string count beyond the data: fault RPC_X_BAD_STUB_DATA", code == "rpc_x_bad_stub_data", code)
r = srvs.hNetrShareEnum(dce, 1)
check("the pipe works after faults", r["TotalEntries"] == 3)

# 8. Fragmentation both ways: a request in 16-byte fragments, and a long
# answer in several response fragments.
dce.set_max_fragment_size(16)
r = srvs.hNetrShareGetInfo(dce, "Daten\x00", 1)
check("a request sent in 16-byte fragments is reassembled",
      r["InfoStruct"]["ShareInfo1"]["shi1_remark"][:-1] == "Dateien für alle")
dce.disconnect()
t.disconnect()

many = CONFIG + ".many"
with open(CONFIG) as f, open(many, "w") as g:
    g.write(f.read())
    for i in range(120):
        g.write("[share%03d]\n\tpath = /srv/s%d\n\tcomment = %s\n" % (i, i, "c" * 40))
CONFIG = many
t, dce = session("srvsvc", srvs.MSRPC_UUID_SRVS)
r = srvs.hNetrShareEnum(dce, 1)
got = [s["shi1_netname"][:-1] for s in r["InfoStruct"]["ShareInfo"]["Level1"]["Buffer"]]
check("a long share list comes back whole across response fragments",
      len(got) == 123 and got[-2] == "share119", len(got))
resp = t.log
dce.disconnect()
t.disconnect()
os.unlink(many)

print("1..%d" % n)
sys.exit(1 if failed else 0)
