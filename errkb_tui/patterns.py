"""What a regex pattern says about itself: how specific it is, and the rules that use it."""

from __future__ import annotations

import re

#: A record's regex must have at least this many fixed characters to be valid at all:
#: with fewer (``.*``, ``(a+)+$``) it matches almost any text and would claim every error.
MIN_REGEX_LITERALS = 3
#: A regex with fewer fixed characters than this matches too much to be trusted: ``validate``
#: warns about it, and a match through it is never confident.
CONFIDENT_LITERALS = 8

#: A run of plain characters (no regex syntax), counted in one step.
_PLAIN_RUN = re.compile(r"[^\\\[\](){}|.^$*+?]+")


def literal_length(pattern: str) -> int:
    """How many characters every match of ``pattern`` must contain literally.

    Counts plain and escaped characters; classes, ``.``, anchors and optional parts count
    nothing; an alternation counts its weakest branch. A measure of specificity.
    """
    value, _ = _literals(pattern, 0)
    return value


def _literals(p: str, i: int) -> tuple[int, int]:
    branches = [0]
    n = len(p)
    while i < n:
        c = p[i]
        if c == ")":
            break
        if c == "|":
            branches.append(0)
            i += 1
            continue
        atom = 1
        run = _PLAIN_RUN.match(p, i)
        if run is not None and run.end() - i > 1:
            # All but the last character of a run are fixed; the last may carry a quantifier.
            branches[-1] += run.end() - i - 1
            i = run.end() - 1
            c = p[i]
        if c == "(":
            i += 1
            if p.startswith("?", i):
                close = p.find(")", i)
                colon = p.find(":", i)
                named = p.startswith("?P<", i) or p.startswith("?<", i)
                if named:
                    i = p.find(">", i) + 1
                elif colon != -1 and (close == -1 or colon < close):
                    i = colon + 1
                else:  # flags only, e.g. (?i)
                    i = close + 1 if close != -1 else n
                    continue
            atom, i = _literals(p, i)
            i += 1
        elif c == "[":
            atom = 0
            i += 1
            if p.startswith("^", i):
                i += 1
            if p.startswith("]", i):
                i += 1
            while i < n and p[i] != "]":
                i += 2 if p[i] == "\\" else 1
            i += 1
        elif c == "\\":
            nxt = p[i + 1] if i + 1 < n else ""
            i += 2
            if nxt.isalnum():
                atom = 0
                if nxt in "pPx" and p.startswith("{", i):
                    i = p.find("}", i) + 1 or n
                elif nxt in "pP":
                    i += 1
                elif nxt == "x":
                    i += 2
                    atom = 1
        elif c in ".^$":
            atom = 0
            i += 1
        else:
            i += 1
        if i < n and p[i] in "*?":
            atom = 0
            i += 1
        elif i < n and p[i] == "+":
            i += 1
        elif i < n and p[i] == "{":
            close = p.find("}", i)
            low = p[i + 1 : close].split(",")[0] if close != -1 else ""
            if low.strip().isdigit():
                atom *= min(int(low), 4)
            i = close + 1 if close != -1 else n
        if i < n and p[i] in "?+":  # lazy or possessive marker
            i += 1
        branches[-1] += atom
    return min(branches), i
