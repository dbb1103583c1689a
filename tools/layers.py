#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The layers of kmod/ (Documentation/design.md, "Layers"), checked.
#
#   tools/layers.py [KMOD_DIR] [--graph]
#   tools/layers.py --self-test    (it finds what it must, on a made-up tree)
#
# Every module source belongs to one layer (LAYERS below; a new file must
# be placed there).  Two rules:
#
#  1. Includes go down or stay in the layer.  The one header of a higher
#     layer anything below may include is smb2/entry.h (module init/exit,
#     the received message, the teardown hooks).
#  2. Calls have no cycle.  The call graph is read from the sources: a .c
#     calls every function another .c defines (non-static, at column 0)
#     whose name appears in it.  smb2/ is one node (the dispatcher calls
#     the handlers through its table, they call its helpers); wire/ is
#     pure and calls nothing.  Calls into smb2/entry.h, the hooks in
#     HOOKS and the generated netlink ops table (which registers handlers)
#     are the sanctioned upward calls and are left out.  What is left
#     must be acyclic.
#
# Prints what breaks a rule and exits 1; --graph prints the call graph.

import os
import re
import sys

# Layer of each source, lowest first: (layer, name, path patterns).
LAYERS = [
    (0, "pure", [r"wire/.*", r"crypto(_test)?\.[ch]"]),
    (1, "base", [r"smbsrv\.h", r"knobs\.[ch]", r"hosts\.[ch]", r"upcall\.[ch]",
                 r"netlink-gen\.[ch]", r"trace\.[ch]", r"splice\.[ch]",
                 r"readstats\.[ch]", r"cmdstats\.[ch]", r"status\.[ch]"]),
    (2, "connection", [r"sched\.[ch]", r"transport\.[ch]", r"conn\.[ch]",
                       r"recv\.[ch]", r"send\.[ch]"]),
    (3, "objects", [r"session\.[ch]", r"fnode\.[ch]", r"file\.[ch]",
                    r"vfs\.[ch]", r"stream\.[ch]", r"brl\.[ch]", r"ea\.[ch]",
                    r"oplock\.[ch]", r"durable\.[ch]", r"acl\.[ch]",
                    r"fold\.[ch]", r"share\.[ch]", r"times\.[ch]",
                    r"wtime\.[ch]", r"sign\.[ch]", r"audit\.[ch]"]),
    (4, "smb2", [r"smb2/.*"]),
    (5, "control", [r"main\.c", r"netlink\.[ch]", r"admin\.c",
                    r"selftest\.[ch]"]),
]

ENTRY = "smb2/entry.h"

# Upward calls that are teardown hooks (documented in design.md, "Layers"):
# (calling file, called function): why.
HOOKS = {
    ("recv.c", "smbsrv_conn_close"):
        "the stream is unusable or ended: the connection goes",
    ("send.c", "smbsrv_conn_close"):
        "a short or failed write: the connection goes",
    ("fnode.c", "smbsrv_fnode_cache_init"):
        "an fnode's life is its caching state's (oplock.c): made with it",
    ("fnode.c", "smbsrv_fnode_cache_exit"):
        "an fnode's life is its caching state's (oplock.c): freed with it",
    ("oplock.c", "smbsrv_durable_expire_now"):
        "a handle-caching break a disconnected durable open cannot "
        "acknowledge ends that open",
}

# What still breaks a rule and is not a hook: to be moved (design.md,
# "Layers", lists the same).  Calls: (calling file, called function): why.
# Includes: (including file, included header): why.  An entry that no
# longer occurs is an error too, so the lists only shrink.
REMAINING_CALLS = {
}
REMAINING_INCLUDES = {
}

# Generated: the genl ops table names every doit/dumpit handler.
REGISTRATION = {"netlink-gen.c"}


def layer_of(rel):
    for layer, _, pats in LAYERS:
        if any(re.fullmatch(p, rel) for p in pats):
            return layer
    return None


def node_of(rel):
    if rel.startswith("smb2/"):
        return "smb2/"
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
    seen_inc, seen_call = set(), set()
    for rel in files:
        lay = layer_of(rel)
        for m in re.finditer(r'^#include "([^"]+)"', text[rel], re.M):
            tgt = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                m.group(1)))
            tl = layer_of(tgt)
            if lay is None or tl is None or tl <= lay or tgt == ENTRY:
                continue
            if (rel, tgt) in REMAINING_INCLUDES:
                seen_inc.add((rel, tgt))
                continue
            errors.append(f"{rel}: includes {tgt} (layer {tl} above "
                          f"{lay}); call up through {ENTRY} only")

    # Rule 2: calls.
    defs = {}
    entry_fns = set(re.findall(r"\b([a-z_][a-z0-9_]*)\(",
                               strip(text.get(ENTRY, ""))))
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
            if a == b or tok in entry_fns or (rel, tok) in HOOKS:
                continue
            if (rel, tok) in REMAINING_CALLS:
                seen_call.add((rel, tok))
                continue
            edges.setdefault(a, {}).setdefault(b, set()).add(tok)

    for rel, tgt in sorted(set(REMAINING_INCLUDES) - seen_inc):
        errors.append(f"{rel}: no longer includes {tgt}: drop it from "
                      "REMAINING_INCLUDES (and design.md)")
    for rel, fn in sorted(set(REMAINING_CALLS) - seen_call):
        errors.append(f"{rel}: no longer calls {fn}: drop it from "
                      "REMAINING_CALLS (and design.md)")

    if graph:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}: {' '.join(sorted(edges[a][b]))}")

    # Every strongly connected component of two or more files is a cycle.
    comps = scc(edges)
    for comp in comps:
        if len(comp) < 2:
            continue
        errors.append(f"call cycle of {len(comp)}: {' '.join(sorted(comp))}")
        for a in sorted(comp):
            for b in sorted(edges.get(a, {})):
                if b in comp:
                    errors.append(f"  {a} -> {b}: "
                                  f"{' '.join(sorted(edges[a][b]))}")
    return errors


def raw_cycle(kmod, hooks=True):
    """The largest include/call cycle counting every file and every edge
    (hooks, entry.h and remaining edges too; a header stands for its .c):
    the size issue 13 measured, printed for design.md's record.  With
    @hooks False, smb2/entry.h and the calls of HOOKS are left out (what
    is left is not a documented hook)."""
    files = sources(kmod)
    text = {rel: strip(open(os.path.join(kmod, rel), encoding="utf-8").read())
            for rel in files}

    def unit(rel):
        c = re.sub(r"\.h$", ".c", rel)
        return c if c in text else rel

    defs = {}
    for rel in files:
        if rel.endswith(".c") and not rel.startswith("wire/"):
            for m in DEF.finditer(text[rel]):
                line = text[rel][m.start():].split("\n", 1)[0]
                if not line.rstrip().endswith(";"):
                    defs[m.group(1)] = rel
    entry_fns = set() if hooks else \
        set(re.findall(r"\b([a-z_][a-z0-9_]*)\(", text.get(ENTRY, "")))
    edges = {}
    for rel in files:
        a = unit(rel)
        for m in re.finditer(r'^#include "([^"]+)"', text[rel], re.M):
            tgt = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                m.group(1)))
            if tgt == ENTRY and not hooks:
                continue
            if tgt in text and unit(tgt) != a:
                edges.setdefault(a, set()).add(unit(tgt))
        if rel.endswith(".c") and rel not in REGISTRATION:
            for tok in set(re.findall(r"\b[a-z_][a-z0-9_]*\b", text[rel])):
                if not hooks and (tok in entry_fns or (rel, tok) in HOOKS):
                    continue
                if tok in defs and defs[tok] != a:
                    edges.setdefault(a, set()).add(defs[tok])
    best = []
    for comp in scc(edges):
        if len(comp) > len(best):
            best = sorted(comp)
    return best


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
        # A clean tree: a handler calls down, the receiver calls up
        # through the entry header, a teardown hook calls back.
        "clean": ({
            "conn.h": "void smbsrv_conn_close(void);\n",
            "conn.c": '#include "conn.h"\nvoid smbsrv_conn_close(void)\n{\n}\n',
            "recv.c": '#include "conn.h"\n#include "smb2/entry.h"\n'
                      "static void r(void)\n{\n\tsmbsrv_msg_queue();\n"
                      "\tsmbsrv_conn_close();\n}\n",
            "smb2/entry.h": "void smbsrv_msg_queue(void);\n",
            "smb2/dispatch.c": '#include "../conn.h"\n#include "entry.h"\n'
                               "void smbsrv_msg_queue(void)\n{\n"
                               "\tsmbsrv_conn_close();\n}\n",
        }, []),
        "upward include": ({
            "smb2/smb2.h": "struct smbsrv_req;\n",
            "file.c": '#include "smb2/smb2.h"\n',
        }, ["file.c: includes smb2/smb2.h"]),
        "unplaced file": ({"new.c": ""}, ["new.c: in no layer"]),
        "call cycle": ({
            "file.c": "void smbsrv_file_a(void)\n{\n\tsmbsrv_vfs_b();\n}\n",
            "vfs.c": "void smbsrv_vfs_b(void)\n{\n\tsmbsrv_file_a();\n}\n",
        }, ["call cycle of 2: file.c vfs.c"]),
    }
    # A remaining edge is left out of the graph; one that went is stale.
    cycle = cases["call cycle"][0]
    cases["remaining edge"] = (cycle, [], {("vfs.c", "smbsrv_file_a")})
    cases["stale remaining edge"] = (cases["clean"][0], [
        "vfs.c: no longer calls smbsrv_file_a"], {("vfs.c", "smbsrv_file_a")})
    saved = dict(REMAINING_CALLS), dict(REMAINING_INCLUDES)
    REMAINING_INCLUDES.clear()
    bad = 0
    for name, case in cases.items():
        tree, want = case[0], case[1]
        REMAINING_CALLS.clear()
        REMAINING_CALLS.update({e: "test" for e in
                                (case[2] if len(case) > 2 else ())})
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
    REMAINING_CALLS.clear()
    REMAINING_CALLS.update(saved[0])
    REMAINING_INCLUDES.update(saved[1])
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    if "--raw-cycle" in sys.argv:
        args = [a for a in sys.argv[1:] if not a.startswith("--")]
        kmod = args[0] if args else os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "kmod")
        comp = raw_cycle(kmod)
        print(f"every edge: {len(comp)} files: {' '.join(comp)}")
        comp = raw_cycle(kmod, hooks=False)
        print(f"hooks left out: {len(comp)} files: {' '.join(comp)}")
        return 0
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    kmod = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "kmod")
    errors = check(kmod, "--graph" in sys.argv)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
