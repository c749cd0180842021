# SPDX-License-Identifier: MIT
"""gen-conf7.py's generators and pools for the later rounds' generators
(gen-conf9.py .. gen-conf12.py): its module-level code up to its main loop,
run with the given seed, as a dict of its names (g7["gc"], g7["rng"],
g7["gen_cfg"], g7["render_text"], ...)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(seed, count):
    src = open(os.path.join(HERE, "gen-conf7.py"), encoding="utf-8").read()
    src = src[:src.index("\npools = idn_pools()")]
    argv, sys.argv = sys.argv, ["gen-conf7.py", str(seed), str(count), "valid"]
    g7 = {"__file__": os.path.join(HERE, "gen-conf7.py"), "__name__": "g7"}
    try:
        exec(compile(src, "gen-conf7.py", "exec"), g7)
    finally:
        sys.argv = argv
    return g7


def case_writer(out, origin, tagged=False):
    """-> case(cid, text, syntax, ...): appends one case record to out, its
    origin `origin` (then ":" + the call's origin= when tagged)"""
    def case(cid, text, syntax, agent=None, session=None, subagent=False, files=None, category="resolution",
             **kw):
        o = f"{origin}:{kw.pop('origin', '')}" if tagged else origin
        if kw:
            raise TypeError(f"case(): unexpected {', '.join(kw)}")
        c = {"id": cid, "category": category, "origin": o, "syntax": syntax, "config_text": text,
             "agent": agent, "session": session, "subagent": subagent}
        if files:
            c["files"] = files
        out.append(c)
    return case
