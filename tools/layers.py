#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The layers of kmod/ (Documentation/design.md, "Layers"), checked.
#
#   tools/layers.py [KMOD_DIR] [--graph]
#   tools/layers.py --self-test    (it finds what it must, on a made-up tree)
#
# Every module source belongs to one layer (LAYERS below; a new file must
# be placed there).  kmod/test/ is not part of the module: the test
# modules call in through its SMBSRV_TEST exports and stand outside the
# layers, and no module source may include anything of theirs.  Three
# rules, with no exception list:
#
#  1. Includes go down or stay in the layer.
#  2. Calls go down or stay in the layer: a file calls no function that a
#     file of a higher layer defines.  A lower layer reaches a higher one
#     only through ops the higher one registers at its init (proto.h,
#     struct smbsrv_break_ops, struct smbsrv_fnode_ops, ...), which are
#     data, not calls.
#  3. Calls have no cycle, file by file (smb2/ included).
#
# The call graph is read from the sources: a .c calls every function
# another .c defines (non-static, at column 0) whose name appears in it.
# wire/ is pure and calls nothing.  Tables that name handlers to register
# them (the generated netlink ops, the SMB2 command table) are left out:
# naming a function is not calling it.
#
# Prints what breaks a rule and exits 1; --graph prints the call graph.

import os
import re
import sys

# Layer of each source, lowest first: (layer, name, path patterns).
LAYERS = [
    (0, "pure", [r"wire/.*", r"crypto\.[ch]"]),
    (1, "base", [r"smbsrv\.h", r"proto\.h", r"knobs\.[ch]", r"hosts\.[ch]",
                 r"upcall\.[ch]",
                 r"netlink-gen\.[ch]", r"trace\.[ch]", r"splice\.[ch]",
                 r"readstats\.[ch]", r"writestats\.[ch]", r"cmdstats\.[ch]",
                 r"status\.[ch]", r"budget\.[ch]", r"readdir\.[ch]"]),
    (2, "connection", [r"sched\.[ch]", r"transport\.[ch]", r"conn\.[ch]",
                       r"recv\.[ch]", r"rxpages\.[ch]", r"send\.[ch]"]),
    (3, "objects", [r"session\.[ch]", r"fnode\.[ch]", r"file\.[ch]",
                    r"vfs\.[ch]", r"stream\.[ch]", r"brl\.[ch]", r"ea\.[ch]",
                    r"cache\.[ch]", r"cache_wait\.c", r"brk\.[ch]",
                    r"klease\.[ch]", r"durable\.[ch]",
                    r"acl\.[ch]", r"snap\.[ch]",
                    r"fold\.[ch]", r"share\.[ch]", r"times\.[ch]",
                    r"wtime\.[ch]", r"sign\.[ch]", r"audit\.[ch]",
                    r"afp\.[ch]", r"fruit\.[ch]", r"cluster\.[ch]",
                    r"cluster_live\.c", r"cluster_dir\.c"]),
    (4, "smb2", [r"smb2/.*"]),
    (5, "control", [r"main\.c", r"netlink\.[ch]", r"admin\.c"]),
]

# Tables naming handlers to register them: the generated genl ops, the
# SMB2 command table.
REGISTRATION = {"netlink-gen.c", "smb2/table.c"}


def layer_of(rel):
    for layer, _, pats in LAYERS:
        if any(re.fullmatch(p, rel) for p in pats):
            return layer
    return None


def node_of(rel):
    if rel.startswith("wire/"):
        return "wire/"
    return re.sub(r"\.h$", ".c", rel)


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def sources(kmod):
    out = []
    for d in ("", "smb2", "wire"):
        for f in sorted(os.listdir(os.path.join(kmod, d or "."))):
            if not re.search(r"\.[ch]$", f) or f.endswith(".mod.c"):
                continue
            out.append(os.path.join(d, f) if d else f)
    return out


DEF = re.compile(r"^(?!static\b|extern\b|typedef\b|struct\s+\w+\s*\{)"
                 r"[A-Za-z_][\w \t\*]*?\b([a-z_][a-z0-9_]*)\(", re.M)


def check(kmod, graph=False):
    errors = []
    files = sources(kmod)
    text = {}
    for rel in files:
        with open(os.path.join(kmod, rel), encoding="utf-8") as fh:
            text[rel] = fh.read()
        if layer_of(rel) is None:
            errors.append(f"{rel}: in no layer (place it in tools/layers.py)")

    # Rule 1: includes.
    for rel in files:
        lay = layer_of(rel)
        for m in re.finditer(r'^#include "([^"]+)"', text[rel], re.M):
            tgt = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                m.group(1)))
            tl = layer_of(tgt)
            if tgt.startswith("test/"):
                errors.append(f"{rel}: includes {tgt}: test code stays in "
                              "the test modules")
                continue
            if lay is None or tl is None or tl <= lay:
                continue
            errors.append(f"{rel}: includes {tgt} (layer {tl} above "
                          f"{lay}); reach it through ops it registers")

    # Rules 2 and 3: calls.
    defs = {}
    for rel in files:
        if rel.endswith(".c") and not rel.startswith("wire/"):
            body = strip(text[rel])
            for m in DEF.finditer(body):
                line = body[m.start():].split("\n", 1)[0]
                if not line.rstrip().endswith(";"):
                    defs[m.group(1)] = rel
    edges = {}
    for rel in files:
        if not rel.endswith(".c") or rel.startswith("wire/") or \
           rel in REGISTRATION:
            continue
        a = node_of(rel)
        for tok in set(re.findall(r"\b[a-z_][a-z0-9_]*\b", strip(text[rel]))):
            if tok not in defs:
                continue
            b = node_of(defs[tok])
            if a == b:
                continue
            edges.setdefault(a, {}).setdefault(b, set()).add(tok)
            la, lb = layer_of(rel), layer_of(defs[tok])
            if la is not None and lb is not None and lb > la:
                errors.append(f"{rel}: calls {tok} of {defs[tok]} (layer "
                              f"{lb} above {la}); reach it through ops it "
                              "registers")

    if graph:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}: {' '.join(sorted(edges[a][b]))}")

    # Every strongly connected component of two or more files is a cycle.
    for comp in scc(edges):
        if len(comp) < 2:
            continue
        errors.append(f"call cycle of {len(comp)}: {' '.join(sorted(comp))}")
        for a in sorted(comp):
            for b in sorted(edges.get(a, {})):
                if b in comp:
                    errors.append(f"  {a} -> {b}: "
                                  f"{' '.join(sorted(edges[a][b]))}")
    return errors


def scc(edges):
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return comps


def self_test():
    import tempfile
    cases = {
        # A clean tree: a handler calls down; the receiver reaches the
        # protocol layer through an ops table it registered (data).
        "clean": ({
            "conn.h": "void smbsrv_conn_close(void);\n",
            "conn.c": '#include "conn.h"\nvoid smbsrv_conn_close(void)\n{\n}\n',
            "recv.c": '#include "conn.h"\n#include "proto.h"\n'
                      "static void r(void)\n{\n"
                      "\tsmbsrv_server.proto->msg_queue();\n"
                      "\tsmbsrv_conn_close();\n}\n",
            "proto.h": "struct smbsrv_proto_ops;\n",
            "smb2/dispatch.c": '#include "../conn.h"\n'
                               "void smbsrv_msg_queue(void)\n{\n"
                               "\tsmbsrv_conn_close();\n}\n",
            "smb2/table.c": "void smbsrv_table(void)\n{\n"
                            "\tsmbsrv_msg_queue();\n}\n",
        }, []),
        "upward include": ({
            "smb2/smb2.h": "struct smbsrv_req;\n",
            "file.c": '#include "smb2/smb2.h"\n',
        }, ["file.c: includes smb2/smb2.h"]),
        "upward call": ({
            "smb2/dispatch.c": "void smbsrv_msg_queue(void)\n{\n}\n",
            "recv.c": "static void r(void)\n{\n\tsmbsrv_msg_queue();\n}\n",
        }, ["recv.c: calls smbsrv_msg_queue of smb2/dispatch.c"]),
        "unplaced file": ({"new.c": ""}, ["new.c: in no layer"]),
        "test code included": ({
            "main.c": '#include "test/kunit-lite.h"\n',
        }, ["main.c: includes test/kunit-lite.h"]),
        "call cycle": ({
            "file.c": "void smbsrv_file_a(void)\n{\n\tsmbsrv_vfs_b();\n}\n",
            "vfs.c": "void smbsrv_vfs_b(void)\n{\n\tsmbsrv_file_a();\n}\n",
        }, ["call cycle of 2: file.c vfs.c"]),
        # smb2/ is checked file by file.
        "cycle inside smb2/": ({
            "smb2/query.c": "void smbsrv_q(void)\n{\n\tsmbsrv_s();\n}\n",
            "smb2/security.c": "void smbsrv_s(void)\n{\n\tsmbsrv_q();\n}\n",
        }, ["call cycle of 2: smb2/query.c smb2/security.c"]),
    }
    bad = 0
    for name, (tree, want) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            for sub in ("smb2", "wire"):
                os.makedirs(os.path.join(d, sub))
            for rel, body in tree.items():
                with open(os.path.join(d, rel), "w", encoding="utf-8") as fh:
                    fh.write(body)
            got = check(d)
        ok = all(any(g.startswith(w) for g in got) for w in want) and \
            (want or not got)
        print(f"{'ok' if ok else 'FAILED'}: {name}: {got}")
        bad += not ok
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    kmod = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "kmod")
    errors = check(kmod, "--graph" in sys.argv)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
