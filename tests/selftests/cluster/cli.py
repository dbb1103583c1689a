# SPDX-License-Identifier: GPL-2.0-or-later
"""The cluster checkers' command line: `CHECKER.py NAME ARGS...` runs one
of their commands, anything else their main()."""

import sys


def run(commands, main):
    """commands: NAME -> (function, type of each argument, ...).  Exits
    with what the function (or main) returns."""
    if len(sys.argv) > 1 and sys.argv[1] in commands:
        fn, *types = commands[sys.argv[1]]
        args = sys.argv[2:]
        if len(args) != len(types):
            sys.exit("%s %s: %d arguments, not %d"
                     % (sys.argv[0], sys.argv[1], len(types), len(args)))
        sys.exit(fn(*(t(a) for t, a in zip(types, args))))
    sys.exit(main())
