#!/usr/bin/env python3
"""Check a command's JSON output against the shape documented for it.

usage: json-shape.py DOC NAME FILE

DOC is docs/json.md; its ```json-shape NAME blocks give each key with the
type of its value ("string", "integer", "number", "boolean", "object",
"null", alternatives joined by "|"), a list as one element standing for
every element, "*" for keys named by the data, and "|null": true in an
object that may be null.  Every documented key must be there; a key that
is not documented is an error too, so the documentation stays whole.
Prints what differs and exits 1, or exits 0.
"""
import json
import re
import sys

TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and
    not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def shapes(doc):
    """The json-shape blocks of doc, by name."""
    text = open(doc, encoding="utf-8").read()
    found = {}
    for m in re.finditer(r"^```json-shape (\S+)\n(.*?)^```", text,
                         re.S | re.M):
        found[m.group(1)] = json.loads(m.group(2))
    return found


def check(shape, value, path, errors):
    """Append to errors where value does not have shape."""
    if isinstance(shape, str):
        if not any(TYPES[t](value) for t in shape.split("|")):
            errors.append("%s: %r is not %s" % (path, value, shape))
    elif isinstance(shape, list):
        if not isinstance(value, list):
            errors.append("%s: %r is not a list" % (path, value))
            return
        for i, item in enumerate(value):
            check(shape[0], item, "%s[%d]" % (path, i), errors)
    else:
        if value is None and shape.get("|null"):
            return
        if not isinstance(value, dict):
            errors.append("%s: %r is not an object" % (path, value))
            return
        keys = [k for k in shape if k != "|null"]
        if keys == ["*"]:
            for k, v in value.items():
                check(shape["*"], v, "%s.%s" % (path, k), errors)
            return
        for k in keys:
            if k not in value:
                errors.append("%s: no key %s" % (path, k))
            else:
                check(shape[k], value[k], "%s.%s" % (path, k), errors)
        for k in value:
            if k not in keys:
                errors.append("%s: key %s is not documented" % (path, k))


def main():
    doc, name, path = sys.argv[1:4]
    found = shapes(doc)
    if name not in found:
        print("%s: no json-shape block for %s" % (doc, name))
        return 1
    try:
        value = json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        print("%s: not JSON: %s" % (path, e))
        return 1
    errors = []
    check(found[name], value, name, errors)
    if value.get("command") != name:
        errors.append("%s: command is %r" % (name, value.get("command")))
    for e in errors[:20]:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
