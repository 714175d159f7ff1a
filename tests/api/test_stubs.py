"""The type stubs shipped with the package (miopen_cy/_mirror.pyi, miopen_cy/__init__.pyi,
py.typed) agree with the module: every public name has a stub, every stub a name, functions the
same parameters (the C names, in order), enums the same members and values, exceptions the same
bases, classes the same public members. A failure names the name and says how to fix it
(tools/gen_stubs.py adds a skeleton for every name without a stub). The installed stubs are read,
so a wheel that lost them fails here too. With mypy installed, mypy also checks a program against
them (the stub parses, and a wrong call is an error)."""
import ast
import enum
import inspect
import os
import sys
import textwrap

import pytest

import miopen_cy as mi
from miopen_cy import _mirror

PACKAGE = os.path.dirname(mi.__file__)
STUB = os.path.join(PACKAGE, "_mirror.pyi")
INIT_STUB = os.path.join(PACKAGE, "__init__.pyi")
FIX = "run `python tools/gen_stubs.py` with the installed package (it adds a skeleton) and check its types"


def _parse(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def _stub_defs(path):
    """{name: ast node} of a stub's top-level functions, classes and annotated names."""
    out = {}
    for node in _parse(path).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


STUBS = _stub_defs(STUB) if os.path.exists(STUB) else {}
PUBLIC = sorted(n for n in dir(_mirror) if not n.startswith("_"))


def _stub_params(node):
    a = node.args
    names = [p.arg for p in a.posonlyargs + a.args]
    names += ["*" + a.vararg.arg] if a.vararg else []
    names += [p.arg for p in a.kwonlyargs]
    names += ["**" + a.kwarg.arg] if a.kwarg else []
    defaults = len(a.defaults) + sum(d is not None for d in a.kw_defaults)
    return names, defaults


def _runtime_params(obj):
    sig = inspect.signature(obj)
    names, defaults = [], 0
    for p in sig.parameters.values():
        prefix = "*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else ""
        names.append(prefix + p.name)
        defaults += p.default is not p.empty
    return names, defaults


def _class_body(node):
    names = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.ClassDef)):
            names.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
        elif isinstance(item, ast.Assign):
            names.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return names


def test_the_stubs_and_py_typed_are_installed():
    for path in (STUB, INIT_STUB, os.path.join(PACKAGE, "py.typed")):
        assert os.path.isfile(path), f"{path} is not installed: check wheel.packages / wheel.exclude in pyproject.toml"


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_a_stub_that_matches(name):
    obj = getattr(_mirror, name)
    node = STUBS.get(name)
    assert node is not None, f"miopen_cy._mirror.{name} has no stub in miopen_cy/_mirror.pyi: {FIX}"
    where = f"miopen_cy/_mirror.pyi: {name}"
    if inspect.isclass(obj):
        assert isinstance(node, ast.ClassDef), f"{where} is stubbed as a {type(node).__name__}, but is a class"
        stub_bases = [ast.unparse(b) for b in node.bases]
        if issubclass(obj, enum.Enum):
            assert stub_bases == ["enum.IntEnum"], f"{where}: bases {stub_bases}, expected ['enum.IntEnum']"
            members = {}
            for item in node.body:
                if isinstance(item, ast.Assign):
                    members[item.targets[0].id] = ast.literal_eval(item.value)
            expected = {m.name: m.value for m in obj}
            assert members == expected, (f"{where}: members differ: missing {sorted(set(expected) - set(members))}, "
                                         f"extra {sorted(set(members) - set(expected))}, or values differ")
            return
        assert stub_bases == [b.__name__ for b in obj.__bases__ if b is not object], \
            f"{where}: bases {stub_bases}, module has {[b.__name__ for b in obj.__bases__]}"
        if issubclass(obj, BaseException):
            return
        body = _class_body(node)
        # Methods, properties and (the Python classes' __slots__) attributes.
        runtime = {k for k in vars(obj) if not k.startswith("_")}
        missing = sorted(runtime - body)
        extra = sorted(k for k in body - runtime if not k.startswith("_"))
        assert not missing, f"{where}: class members without a stub: {missing}: {FIX}"
        assert not extra, f"{where}: stubbed members that the class lacks: {extra}"
        return
    if callable(obj):
        assert isinstance(node, ast.FunctionDef), f"{where} is stubbed as a {type(node).__name__}, but is a function"
        stub_names, stub_defaults = _stub_params(node)
        names, defaults = _runtime_params(obj)
        assert stub_names == names, f"{where}: parameters {stub_names} in the stub, {names} in the module"
        assert stub_defaults == defaults, f"{where}: {stub_defaults} defaults in the stub, {defaults} in the module"
        assert node.returns is not None, f"{where}: no return annotation"
        return
    assert isinstance(node, ast.AnnAssign), f"{where} should be an annotated name"


def test_no_stub_without_a_name():
    stale = sorted(n for n in STUBS if not n.startswith("_") and not hasattr(_mirror, n))
    assert not stale, f"stubs in miopen_cy/_mirror.pyi for names the module lacks (delete them): {stale}"


def test_the_package_stub_covers_the_package():
    """__init__.pyi re-exports the mirror and declares every enum constant and the package's own
    functions (tools/gen_stubs.py writes it)."""
    stub = _stub_defs(INIT_STUB)
    star = any(isinstance(n, ast.ImportFrom) and n.module == "miopen_cy._mirror" and n.names[0].name == "*"
               for n in _parse(INIT_STUB).body)
    assert star, "miopen_cy/__init__.pyi must re-export miopen_cy._mirror with `from miopen_cy._mirror import *`"
    modules = {"driver", "reference"}                   # subpackages: typed by their own sources
    missing = sorted(n for n in dir(mi) if not n.startswith("_") and n not in modules
                     and not inspect.ismodule(getattr(mi, n)) and n not in STUBS and n not in stub)
    assert not missing, f"public names of miopen_cy without a stub in miopen_cy/__init__.pyi: {missing}: {FIX}"
    for name in ("get_include", "get_library_dir", "show_config"):
        names, _ = _runtime_params(getattr(mi, name))
        assert _stub_params(stub[name])[0] == names, f"miopen_cy/__init__.pyi: {name} parameters differ"


def test_mypy_checks_a_program_against_the_stubs(tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install '.[test]' installs it)")
    good = tmp_path / "good.py"
    good.write_text(textwrap.dedent("""\
        import miopen_cy as mi

        h: mi.Handle = mi.Handle(device="cpu")
        d: mi.TensorDescriptor = mi.TensorDescriptor()
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 2, 3, 4)
        buf = mi.DeviceBuffer(h, 96)
        ad = mi.ActivationDescriptor()
        mi.setActivationDescriptor(ad, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
        mi.activationForward(h, ad, 1.0, d, buf, 0.0, d, buf)
        version: tuple[int, int, int] = mi.getVersion()
        status: mi.Status = mi.miopenStatusBadParm
        try:
            mi.destroy(h)
        except mi.BadParmError as e:
            print(e.status, e.api)
        mi.show_config()
        """))
    bad = tmp_path / "bad.py"
    bad.write_text(textwrap.dedent("""\
        import miopen_cy as mi
        d = mi.TensorDescriptor()
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 2, 3)
        mi.activationForward(mi.Handle(), d, 1.0, d, None, 0.0, d, None)
        mi.noSuchFunction()
        """))
    # One run over both files (mypy's start-up is most of the time): errors only in bad.py.
    out, err, status = api.run(["--cache-dir", str(tmp_path / "cache"), "--python-executable", sys.executable,
                                "--no-error-summary", "--hide-error-context", str(good), str(bad)])
    assert status == 1, out + err
    assert "good.py" not in out, out
    for expected in ('Missing positional argument "w" in call to "set4dTensorDescriptor"',
                     'Argument 2 to "activationForward" has incompatible type "TensorDescriptor"; '
                     'expected "ActivationDescriptor"',
                     'Module has no attribute "noSuchFunction"'):
        assert expected in out, out
