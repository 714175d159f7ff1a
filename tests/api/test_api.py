"""Guard tests for the API surface: every C function has its Python name, enum values equal the
header's, every status maps to one exception class, objects live and die cleanly, the handle
calls work, and logging/env switches behave as MIOpen's do."""
import gc
import os
import pickle
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc

HEADER = os.path.join(mi.get_include(), "miopen", "miopen.h")


def _header_text():
    with open(HEADER) as f:
        return f.read()


def _c_functions():
    text = _header_text()
    return sorted(set(re.findall(r"MIOPEN_EXPORT\s+[\w\s\*]*?\b(miopen\w+)\s*\(", text)))


def _python_name(c_name):
    """DESIGN.md's rule: drop 'miopen', lower the first letter unless an acronym starts the name."""
    rest = c_name[len("miopen"):]
    if rest.startswith("Cy"):                       # miopen_cy's own extensions are not mirrored
        return None
    if re.match(r"[A-Z]{2}", rest) and not rest.startswith("Nd"):
        return rest                                  # miopenLRNForward -> LRNForward
    return rest[0].lower() + rest[1:]


def test_header_is_installed_and_declares_many_functions():
    assert len(_c_functions()) > 60


@pytest.mark.parametrize("c_name", _c_functions())
def test_every_c_function_has_its_python_name(c_name):
    py = _python_name(c_name)
    if py is None:
        pytest.skip("miopen_cy extension, used internally")
    assert callable(getattr(mi, py, None)), f"{c_name} has no Python mirror {py}"


def _header_enums():
    """{typedef name: {member: value}} parsed from the header."""
    out = {}
    for body, name in re.findall(r"typedef enum\s*\{(.*?)\}\s*(\w+);", _header_text(), re.S):
        body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
        members = dict((m, int(v)) for m, v in re.findall(r"(\w+)\s*=\s*(\d+)", body))
        out[name] = members
    return out


@pytest.mark.parametrize("c_enum", sorted(_header_enums()))
def test_enum_values_equal_the_header(c_enum):
    py_name = c_enum[len("miopen"):-len("_t")]
    cls = getattr(mi, py_name)
    expected = _header_enums()[c_enum]
    assert {m.name: m.value for m in cls} == expected
    for member, value in expected.items():
        assert getattr(mi, member) == value          # module constants


def test_known_enum_values_of_miopen_6():
    # Values from MIOpen's public miopen.h, independent of our header.
    assert mi.miopenStatusBadParm == 3 and mi.miopenStatusVersionMismatch == 10
    assert mi.miopenFloat == 1 and mi.miopenBFloat16 == 5 and mi.miopenDouble == 6
    assert mi.miopenTensorNDHWC == 8 and mi.miopenIndexUint64 == 3
    assert mi.miopenPoolingAverageInclusive == 2 and mi.miopenPoolingWorkspaceIndexImage == 1
    assert mi.miopenLRNCrossChannel == 1 and mi.miopenBNSpatial == 1
    assert mi.miopenActivationELU == 9 and mi.MIOPEN_SOFTMAX_LOG == 2
    assert mi.MIOPEN_SOFTMAX_MODE_CHANNEL == 1 and mi.miopenDepthwise == 3


def test_every_status_maps_to_one_exception_class():
    classes = set()
    for status in mi.Status:
        if status == mi.miopenStatusSuccess:
            continue
        cls = mi.ERROR_CLASSES[status]
        assert issubclass(cls, mi.MIOpenError)
        classes.add(cls)
        err = mi._mirror._make_error(int(status), "miopenX", f"miopenX: {status.name}: why")
        assert type(err) is cls and err.status == status and err.api == "miopenX"
        again = pickle.loads(pickle.dumps(err))
        assert type(again) is cls and str(again) == str(err) and again.status == status
    assert len(classes) == len(mi.Status) - 1
    assert issubclass(mi.BadParmError, ValueError)
    assert issubclass(mi.AllocFailedError, MemoryError)
    assert issubclass(mi.MIOpenNotImplementedError, NotImplementedError)


def test_error_string():
    assert mi.getErrorString(mi.miopenStatusBadParm) == "miopenStatusBadParm"
    assert mi.getErrorString(99) == "Unknown error status"


def test_error_message_names_the_call_and_parameter():
    d = mi.TensorDescriptor()
    with pytest.raises(mi.BadParmError) as info:
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 2, 0, 4)
    assert str(info.value) == ("miopenSet4dTensorDescriptor: miopenStatusBadParm: "
                               "h = 0; tensor lengths must be positive")
    assert info.value.api == "miopenSet4dTensorDescriptor"


# ---- handle ---------------------------------------------------------------------------------

def test_handle_defaults_to_the_cpu_here_and_mirrors_create():
    h = mi.create()
    assert isinstance(h, mi.Handle) and h.device in ("cpu", "gpu:0")
    assert mi.getVersion() == (6, 1, 0)


def test_handle_device_choice(monkeypatch):
    assert mi.Handle(device="cpu").device == "cpu"
    with pytest.raises(mi.BadParmError, match="device = 'tpu'"):
        mi.Handle(device="tpu")
    monkeypatch.setenv("MIOPEN_CY_DEVICE", "bogus")
    with pytest.raises(mi.BadParmError, match="MIOPEN_CY_DEVICE = 'bogus'"):
        mi.Handle()
    monkeypatch.setenv("MIOPEN_CY_DEVICE", "cpu")
    assert mi.Handle().device == "cpu"


def test_stream_round_trip_and_profiling(handle):
    mi.setStream(handle, 0x1234)
    assert mi.getStream(handle) == 0x1234
    mi.setStream(handle, 0)          # a made-up stream must not reach a GPU launch
    h2 = mi.createWithStream(0x42)
    assert mi.getStream(h2) == 0x42
    mi.enableProfiling(handle, True)
    y = np.zeros((64, 1024), np.float32)
    mi.setTensor(handle, desc(y.shape), y, 3.0)
    t = mi.getKernelTime(handle)
    assert t > 0 and np.all(y == 3.0)
    mi.enableProfiling(handle, False)


def test_use_after_destroy_raises_and_gc_is_clean(handle):
    h = mi.Handle()
    mi.destroy(h)
    with pytest.raises(ValueError, match="destroyed"):
        mi.getStream(h)
    with pytest.raises(ValueError, match="destroyed"):
        mi.destroy(h)
    assert repr(h) == "Handle(destroyed)"
    for _ in range(2000):
        d = mi.TensorDescriptor()
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 2, 3, 4)
        mi.Handle()
    gc.collect()


def test_set_allocator_accepts_null_pair(handle):
    mi.setAllocator(handle, 0, 0, 0)
    with pytest.raises(mi.BadParmError, match="allocator and deallocator"):
        mi.setAllocator(handle, 0x1000, 0, 0)


def test_arguments_of_the_wrong_python_type_name_the_parameter(handle):
    with pytest.raises(TypeError, match="yDesc"):
        mi.setTensor(handle, "not a descriptor", np.zeros(4, np.float32), 1.0)
    with pytest.raises(TypeError, match="alpha must be a float"):
        mi.setTensor(handle, desc((4,)), np.zeros(4, np.float32), "x")
    with pytest.raises(TypeError, match="y must be a DeviceBuffer"):
        mi.setTensor(handle, desc((4,)), "buffer", 1.0)
    with pytest.raises(TypeError, match="handle"):
        mi.setTensor(None, desc((4,)), np.zeros(4, np.float32), 1.0)


def test_non_contiguous_numpy_array_is_rejected(handle):
    y = np.zeros((4, 8), np.float32)[:, ::2]
    with pytest.raises(mi.BadParmError, match="not C-contiguous"):
        mi.setTensor(handle, desc((4, 4)), y, 1.0)


# ---- DeviceBuffer ---------------------------------------------------------------------------

def test_device_buffer_round_trip(handle):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    buf = mi.DeviceBuffer.from_numpy(handle, a)
    assert buf.nbytes == a.nbytes
    mi.scaleTensor(handle, desc(a.shape), buf, 2.0)
    assert np.array_equal(buf.to_numpy(a.shape, np.float32), 2 * a)
    mi.scaleTensor(handle, desc(a.shape), buf.ptr, 0.5)       # an integer address
    assert np.array_equal(buf.to_numpy(a.shape, np.float32), a)
    small = mi.DeviceBuffer(handle, 8)
    with pytest.raises(mi.BadParmError, match="y: the buffer has 8 bytes"):
        mi.scaleTensor(handle, desc(a.shape), small, 2.0)
    with pytest.raises(ValueError, match="needs 96 bytes"):
        small.to_numpy(a.shape, np.float32)


# ---- logging and environment -----------------------------------------------------------------

def _run_python(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full, timeout=120, cwd=os.path.dirname(HEADER))


def test_enable_logging_prints_each_call_with_its_arguments():
    code = """
        import numpy as np, miopen_cy as mi
        h = mi.Handle()
        d = mi.TensorDescriptor(); mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 2, 3, 4)
        mi.setTensor(h, d, np.zeros(24, np.float32), 1.0)
    """
    quiet = _run_python(code)
    assert quiet.returncode == 0 and "miopenSetTensor" not in quiet.stderr
    loud = _run_python(code, MIOPEN_ENABLE_LOGGING="1")
    assert loud.returncode == 0, loud.stderr
    assert "miopenSet4dTensorDescriptor(" in loud.stderr and "n = 1, c = 2, h = 3, w = 4" in loud.stderr
    assert re.search(r"miopenSetTensor\(handle = 0x[0-9a-f]+, yDesc = 0x[0-9a-f]+ "
                     r"\{miopenFloat, lens=\(1, 2, 3, 4\)", loud.stderr)


def test_log_level_info_prints_failures():
    code = """
        import miopen_cy as mi
        try:
            mi.set4dTensorDescriptor(mi.TensorDescriptor(), mi.miopenFloat, 0, 1, 1, 1)
        except mi.BadParmError:
            pass
    """
    assert "n = 0" not in _run_python(code).stderr
    info = _run_python(code, MIOPEN_LOG_LEVEL="5")
    assert "Info [miopenSet4dTensorDescriptor]" in info.stderr and "n = 0" in info.stderr
