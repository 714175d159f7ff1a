#!/usr/bin/env python3
"""Keeps the type stub of the compiled mirror, miopen_cy/_mirror.pyi, in step with the module.

    python tools/gen_stubs.py            add a stub for every public name of the installed
                                         miopen_cy._mirror that has none (appended at the end,
                                         under a marker, for review); report stubs of names that
                                         no longer exist. Hand edits to existing stubs are kept.
    python tools/gen_stubs.py --check    only report (exit 1 when something is missing or stale)
    python tools/gen_stubs.py --rewrite  write the whole stub afresh (loses hand edits)

Run it with the interpreter that has the package installed (the build's, e.g. your venv's
python), from anywhere. tests/api/test_stubs.py checks the installed stub against the module.

A stub comes from the runtime (inspect.signature: Cython 3 functions carry the C parameter
names; enum members and values; exception bases) and from the .pxi sources (constructors, whose
__cinit__ the runtime hides; properties; whether a def returns a value). Parameter types follow
the names: a data argument (x when xDesc is a parameter too, workSpace, ...) is `_Buffer`, an
alpha or beta `float`, a descriptor its class, an enum or count `int` (an IntEnum is an int).
Return types other than None are `Any` unless written by hand: refine the generated ones."""
import argparse
import ast
import enum
import importlib
import inspect
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "miopen_cy")
STUB = os.path.join(SRC, "_mirror.pyi")
INIT_STUB = os.path.join(SRC, "__init__.pyi")
MARKER = "# ---- added by tools/gen_stubs.py: review the types, then move each stub to its group ----"

HEADER = '''"""Type stubs of miopen_cy._mirror, the Cython mirror of miopen.h (one name per C function,
DESIGN.md's rule; parameters keep the C names and order). Kept in step with the module by
tools/gen_stubs.py; tests/api/test_stubs.py fails on a missing or mismatched name."""
import enum
from collections.abc import Sequence
from typing import Any, TypeAlias

# A data argument: a NumPy array, anything with __array_interface__, __cuda_array_interface__ or
# __dlpack__ (PyTorch tensors), a DLPack capsule, a DeviceBuffer, an int address, or None.
_Buffer: TypeAlias = Any
'''

DESCRIPTORS = {"handle": "Handle", "convDesc": "ConvolutionDescriptor", "operatorDesc": "ConvolutionDescriptor",
               "activDesc": "ActivationDescriptor", "poolDesc": "PoolingDescriptor", "lrnDesc": "LRNDescriptor",
               "problem": "ConvProblem", "options": "FindOptions", "solution": "Solution",
               "descriptor": "TensorDescriptor"}
FLOATS = {"alpha", "beta", "alpha1", "alpha2", "alphaDataDiff", "alphaParamDiff", "betaDataDiff",
          "betaParamDiff", "epsilon", "expAvgFactor", "activAlpha", "activBeta", "activGamma", "lrnAlpha",
          "lrnBeta", "lrnK", "value", "time"}
BOOLS = {"exhaustiveSearch", "do_backward", "enable", "transA", "transB", "sumBatch"}
BUFFERS = {"workSpace", "workspace", "bnScale", "bnBias", "resultRunningMean", "resultRunningVariance",
           "resultSaveMean", "resultSaveInvVariance", "savedMean", "savedInvVariance", "estimatedMean",
           "estimatedVariance", "resultBnScaleDiff", "resultBnBiasDiff", "buffer", "A", "B", "C"}
SEQUENCES = {"dimsA", "stridesA", "padA", "dilationA", "windowDimA", "lens", "adjA", "strideA"}
STRINGS = {"api", "what", "device"}
ADDRESSES = {"stream", "streamID", "allocator", "deallocator", "allocatorContext", "ptr", "dst", "src"}


def param_type(name, params):
    """The annotation of parameter `name` of a function whose parameters are `params`."""
    if name in DESCRIPTORS:
        return DESCRIPTORS[name]
    if name.endswith("Desc"):
        return "TensorDescriptor"
    if name == "tensors":
        return "Sequence[TensorArgument]"
    if name in FLOATS:
        return "float"
    if name in BOOLS:
        return "bool"
    if name in STRINGS:
        return "str"
    if name in ADDRESSES:
        return "int | None"
    if name in BUFFERS or name + "Desc" in params:
        return "_Buffer"
    if name in SEQUENCES and "lda" not in params:          # miopenCySgemm's strideA is an int
        return "Sequence[int]"
    return "int"


# ---- the sources: constructors, properties and returns the runtime does not show ----------------

def source_files():
    with open(os.path.join(SRC, "_mirror.pyx")) as f:
        includes = re.findall(r'^include "(\w+\.pxi)"', f.read(), re.M)
    return [os.path.join(SRC, name) for name in includes]


def read_sources():
    """{name: info} for top-level defs and classes of the .pxi files, in source order: for a def
    its signature text and whether it returns a value; for a class its constructor's parameters,
    properties, readonly attributes, static methods and methods."""
    out = {}
    for path in source_files():
        with open(path) as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            m = re.match(r"(?:cdef )?class (\w+)", line) or re.match(r"def (\w+)\(", line)
            if not m:
                i += 1
                continue
            name = m.group(1)
            j = i + 1
            while j < len(lines) and (not lines[j] or lines[j][0] in " #)"):
                j += 1
            body = lines[i:j]
            out[name] = {"file": os.path.basename(path), "lines": body}
            i = j
    return out


def returns_value(body):
    """Whether a def's body (its own lines, nested defs skipped) returns a value."""
    text = "\n".join(body)
    text = re.sub(r"\n(    )+def [^\n]*(\n\1    [^\n]*|\n\s*)*", "\n", text)   # nested defs
    return re.search(r"^\s+return\s+\S", text, re.M) is not None and "yield" not in text


def class_members(body):
    """(constructor params text or None, properties, readonly attrs {name: type}, staticmethods,
    methods {name: params text}) of a class body."""
    ctor, props, readonly, static, methods = None, [], {}, [], {}
    decorator = None
    cdef_class = body[0].startswith("cdef ")
    for k, line in enumerate(body):
        m = re.match(r"        self\.(\w+) = ", line)
        if m and not cdef_class and not m.group(1).startswith("_") and m.group(1) not in readonly:
            readonly[m.group(1)] = "Any"
            continue
        m = re.match(r"    cdef readonly (\w+) (\w+)", line)
        if m:
            readonly[m.group(2)] = {"size_t": "int", "str": "str", "int": "int", "double": "float",
                                    "bint": "bool"}.get(m.group(1), m.group(1))
            continue
        m = re.match(r"    @(\w+)", line)
        if m:
            decorator = m.group(1)
            continue
        m = re.match(r"    def (\w+)\((.*)", line)
        if m:
            name, rest = m.group(1), m.group(2)
            sig = rest
            n = k
            while sig.count("(") + 1 > sig.count(")") and n + 1 < len(body):
                n += 1
                sig += " " + body[n].strip()
            sig = sig[:sig.rindex(")")]
            if name in ("__cinit__", "__init__"):
                ctor = sig
            elif decorator == "property":
                props.append(name)
            elif decorator == "staticmethod":
                static.append((name, sig))
            elif not name.startswith("__") or name in ("__iter__", "__dlpack__", "__dlpack_device__"):
                methods[name] = sig
            decorator = None
    return ctor, props, readonly, static, methods


def params_text(sig, self_first):
    """A Cython parameter list as a stub's: types dropped from the text and given by name."""
    parts = [p.strip() for p in re.split(r",(?![^\[]*\])", sig) if p.strip()]
    names, out = [], []
    for p in parts:
        if p in ("*", "/"):
            out.append(p)
            continue
        p = p.replace(" not None", "")
        default = None
        if "=" in p:
            p, default = (s.strip() for s in p.split("=", 1))
        name = p.split()[-1]
        names.append(name)
        out.append((name, default))
    text = []
    for item in out:
        if isinstance(item, str):
            text.append(item)
            continue
        name, default = item
        if name == "self":
            text.append("self")
            continue
        ann = param_type(name, names)
        if default is not None:
            ann = ann if "None" in ann or default != "None" else ann + " | None"
            text.append(f"{name}: {ann} = ...")
        else:
            text.append(f"{name}: {ann}")
    return ", ".join(text)


# ---- one name's stub ----------------------------------------------------------------------------

def function_stub(name, obj, src):
    sig = inspect.signature(obj)
    names = list(sig.parameters)
    parts, star_done = [], False
    for p in sig.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        ann = param_type(p.name, names)
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}: Any")
        elif p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}: Any")
        elif p.default is not p.empty:
            if p.default is None and "None" not in ann:
                ann += " | None"
            parts.append(f"{p.name}: {ann} = ...")
        else:
            parts.append(f"{p.name}: {ann}")
    ret = "Any" if src is None or returns_value(src["lines"]) else "None"
    if ret == "Any":
        ret = return_type(name)
    return f"def {name}({', '.join(parts)}) -> {ret}: ...\n"


def return_type(name):
    """A value-returning def's type where its name says it; else Any (refine by hand)."""
    if name in ("create", "createWithStream"):
        return "Handle"
    if name.startswith("create") and name[len("create"):] in CLASSES:
        return name[len("create"):]
    if name == "getVersion":
        return "tuple[int, int, int]"
    if name == "getErrorString":
        return "str"
    if re.search(r"(WorkSpaceSize|WorkspaceSize|SolutionCount|DeviceCount|PointerDevice)$", name) \
            or name in ("cyDeviceAlloc", "getStream", "getSolutionSolverId"):
        return "int"
    if name == "getKernelTime":
        return "float"
    return "Any"


CLASSES = {"TensorDescriptor", "ActivationDescriptor", "PoolingDescriptor", "LRNDescriptor",
           "ConvolutionDescriptor", "ConvProblem", "FindOptions"}


def enum_stub(name, cls):
    lines = [f"class {name}(enum.IntEnum):"]
    lines += [f"    {m.name} = {m.value}" for m in cls]
    return "\n".join(lines) + "\n"


def exception_stub(name, cls):
    bases = ", ".join(b.__name__ for b in cls.__bases__)
    if name == "MIOpenError":
        return (f"class {name}({bases}):\n    status: Status\n    api: str\n"
                f"    def __init__(self, status: int, api: str, message: str) -> None: ...\n")
    return f"class {name}({bases}): ...\n"


def class_stub(name, cls, src):
    lines = [f"class {name}:"]
    if src is None:
        lines.append("    def __init__(self, *args: Any, **kwargs: Any) -> None: ...")
        return "\n".join(lines) + "\n"
    ctor, props, readonly, static, methods = class_members(src["lines"])
    for attr, typ in readonly.items():
        if typ == "Any":                                  # a plain attribute of a Python class
            lines.append(f"    {attr}: Any")
        else:
            lines.append(f"    @property\n    def {attr}(self) -> {typ}: ...")
    if ctor is not None:
        lines.append(f"    def __init__({params_text(ctor, True)}) -> None: ...")
    for p in props:
        if p not in readonly:
            lines.append(f"    @property\n    def {p}(self) -> Any: ...")
    for s, sig in static:
        lines.append(f"    @staticmethod\n    def {s}({params_text(sig, False)}) -> Any: ...")
    for meth, sig in methods.items():
        lines.append(f"    def {meth}({params_text(sig, True)}) -> Any: ...")
    return "\n".join(lines) + "\n"


def value_stub(name, obj):
    known = {"ENUMS": "tuple[type[enum.IntEnum], ...]", "ERROR_CLASSES": "dict[Status, type[MIOpenError]]"}
    return f"{name}: {known.get(name, type(obj).__name__)}\n"


def stub_of(name, obj, sources):
    src = sources.get(name)
    if inspect.isclass(obj):
        if issubclass(obj, enum.Enum):
            return enum_stub(name, obj)
        if issubclass(obj, BaseException):
            return exception_stub(name, obj)
        if issubclass(obj, Warning):
            return f"class {name}({obj.__bases__[0].__name__}): ...\n"
        return class_stub(name, obj, src)
    if callable(obj):
        return function_stub(name, obj, src)
    return value_stub(name, obj)


def public_names(module):
    return [n for n in dir(module) if not n.startswith("_")]


def ordered(module, sources):
    """Public names in stub order: enums, exceptions, values, then the sources' order."""
    names = public_names(module)
    order = {n: i for i, n in enumerate(sources)}

    def key(n):
        obj = getattr(module, n)
        if inspect.isclass(obj) and issubclass(obj, enum.Enum):
            group = 0
        elif inspect.isclass(obj) and issubclass(obj, BaseException):
            group = 1
        elif not callable(obj):
            group = 2
        else:
            group = 3
        return (group, order.get(n, len(order)), n)
    return sorted(names, key=key)


INIT_HEADER = '''"""Type stubs of the miopen_cy package: the mirror (_mirror.pyi), every enum member as a module
constant, and the package's own functions. Generated by tools/gen_stubs.py (do not edit: edit the
generator, or _mirror.pyi for the mirror's names)."""
from typing import Any, Literal

from miopen_cy._mirror import *  # noqa: F401,F403
from miopen_cy._mirror import {enums}

__version__: str


def get_include() -> str: ...
def get_library_dir() -> str: ...
def show_config(mode: Literal["stdout", "dicts"] = ...) -> dict[str, Any] | None: ...

'''


def write_init_stub(module):
    """miopen_cy/__init__.pyi: wholly generated (the enum constants follow the enums)."""
    enums = [e for e in module.ENUMS]
    text = INIT_HEADER.format(enums=", ".join(e.__name__ for e in enums))
    for e in enums:
        text += f"\n# {e.__name__}\n"
        text += "".join(f"{m.name}: {e.__name__}\n" for m in e)
    with open(INIT_STUB, "w") as f:
        f.write(text)


def stub_names(path):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {n for n in names if not n.startswith("_")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report only; exit 1 on a missing or stale stub")
    ap.add_argument("--rewrite", action="store_true", help="write the whole stub afresh")
    args = ap.parse_args(argv)
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != ROOT]   # the installed package
    module = importlib.import_module("miopen_cy._mirror")
    sources = read_sources()
    if not args.check:
        write_init_stub(module)
    if args.rewrite:
        text = HEADER
        for name in ordered(module, sources):
            text += "\n\n" + stub_of(name, getattr(module, name), sources)
        with open(STUB, "w") as f:
            f.write(text)
        print(f"wrote {STUB}: {len(public_names(module))} names")
        return 0
    have = stub_names(STUB) if os.path.exists(STUB) else set()
    missing = [n for n in ordered(module, sources) if n not in have]
    stale = sorted(have - set(public_names(module)))
    for n in stale:
        print(f"stale: {n} is in {os.path.relpath(STUB, ROOT)} but not in miopen_cy._mirror: delete its stub")
    if args.check:
        for n in missing:
            print(f"missing: miopen_cy._mirror.{n} has no stub in {os.path.relpath(STUB, ROOT)}")
        return 1 if missing or stale else 0
    if missing:
        with open(STUB) as f:
            text = f.read()
        if MARKER not in text:
            text = text.rstrip("\n") + "\n\n\n" + MARKER + "\n"
        for n in missing:
            text += "\n" + stub_of(n, getattr(module, n), sources)
            print(f"added: {n}")
        with open(STUB, "w") as f:
            f.write(text)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
