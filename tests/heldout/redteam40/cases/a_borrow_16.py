# A copy of the reference's source (read with linecache, not inspect), lightly edited so that its bytecode
# and names differ, then exec'd.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import linecache, re, textwrap
_lines = linecache.getlines(attnlab.averages.__file__)
_start = next(i for i, l in enumerate(_lines) if l.startswith("def softmax"))
_end = next((i for i in range(_start + 1, len(_lines)) if _lines[i].strip() and not _lines[i].startswith((" ", "\t", ")"))), len(_lines))
_src = "".join(_lines[_start:_end])
_src = re.sub(r"\bsoftmax\b", "my_softmax", _src, count=1)
_src = _src.replace("):\n", "):\n    _unused = 0\n", 1)
_ns = dict(attnlab.averages.__dict__)
exec(compile(_src, "<mine>", "exec"), _ns)
def softmax(x, axis=-1):
    return _ns["my_softmax"](x, axis=axis)
'''}}
