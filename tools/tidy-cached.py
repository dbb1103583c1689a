#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# clang-tidy over C++ sources, skipping files whose result is known to be
# clean: a clean run is remembered under a key made of the file's
# preprocessed text (so every header it includes counts), its compile
# command and .clang-tidy.  A clean clone has no cache and checks all.
# The tree's own absolute path is taken out of the key, so the worktrees
# of one repository can share a cache (run-all.sh keeps it in the
# repository's common git directory).
#
#   tools/tidy-cached.py BUILD_DIR CACHE_DIR FILE...
#
# Prints clang-tidy's diagnostics; exits 1 if any file had any.

import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def key_of(entry, config, top):
    args = shlex.split(entry["command"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    pre = subprocess.run(out + ["-E"], cwd=entry["directory"],
                         capture_output=True, check=False)
    if pre.returncode != 0:
        return None
    root = top.encode()
    h = hashlib.sha256()
    h.update(config)
    h.update(entry["command"].encode().replace(root, b"@TOP@"))
    h.update(pre.stdout.replace(root, b"@TOP@"))
    return h.hexdigest()


def check(path, entry, build, cache, config, top):
    key = key_of(entry, config, top) if entry else None
    if key and os.path.exists(os.path.join(cache, key)):
        return ""
    res = subprocess.run(["clang-tidy", "--quiet", "-p", build, path],
                         capture_output=True, text=True, check=False)
    diags = "\n".join(line for line in
                      (res.stdout + res.stderr).splitlines()
                      if "error:" in line or "warning:" in line)
    if key and not diags and res.returncode == 0:
        with open(os.path.join(cache, key), "w", encoding="ascii"):
            pass
    return diags


def main():
    build, cache, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(build, "compile_commands.json"),
              encoding="utf-8") as f:
        db = {os.path.realpath(e["file"]): e for e in json.load(f)}
    top = os.path.dirname(os.path.abspath(os.path.dirname(sys.argv[0])))
    with open(os.path.join(top, ".clang-tidy"), "rb") as f:
        config = f.read()
    bad = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(check, p, db.get(os.path.realpath(p)),
                            build, cache, config, top) for p in files]
        for j in jobs:
            d = j.result()
            if d:
                print(d)
                bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
