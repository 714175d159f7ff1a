"""What the install says about itself: miopenCyGetConfig (cyGetConfig), miopenCyGetDbPaths
(cyGetDbPaths), miopen_cy.show_config() and `miopen-driver info` (text and --json)."""
import json
import os
import subprocess
import sys

import pytest

import miopen_cy as mi
from miopen_cy import driver

# The keys miopen.h documents for miopenCyGetConfig (GPU-device keys only when a GPU is present).
DOCUMENTED_KEYS = {"version", "api_version", "system", "compiler", "build_type", "native", "sanitize",
                   "gpu_backend", "gpu_archs", "gpu_toolkit", "gpu_count", "cpu_isa_compiled",
                   "cpu_isa_kernels", "cpu_isa_detected", "cpu_isa_used", "cpu_convert_fp16", "cpu_convert_bf16",
                   "cpu_convert_in_registers", "cpu_threads", "blas",
                   "blas_config", "blas_corename", "user_db_dir", "find_db_enabled", "perf_db_enabled"}
SECTIONS = ("miopen_cy", "build", "backends", "devices", "cpu_isa", "blas", "databases", "environment")


def _python(code, env=None):
    """Runs `code` in a fresh interpreter (for variables read when a library is loaded)."""
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run([sys.executable, "-c", code], env=e, cwd=os.path.dirname(os.path.abspath(os.sep)),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_get_config_has_every_documented_key_with_a_sane_value():
    c = mi.cyGetConfig()
    assert DOCUMENTED_KEYS <= set(c), DOCUMENTED_KEYS - set(c)
    assert c["version"] == mi.__version__
    assert c["api_version"] == "%d.%d.%d" % mi.getVersion()
    assert c["gpu_backend"] in ("off", "cuda", "hip")
    assert c["native"] in ("on", "off") and c["sanitize"] in ("on", "off")
    assert int(c["gpu_count"]) == mi.cyGetDeviceCount()
    assert int(c["cpu_threads"]) >= 1
    assert c["blas"] == "scipy-openblas32" and "OpenBLAS" in c["blas_config"]
    assert c["blas_corename"] and c["blas_corename"] in c["blas_config"]
    if c["gpu_backend"] == "off":
        assert c["gpu_archs"] == "" and c["gpu_count"] == "0"
        assert c["gpu_absent_reason"] == "built without a GPU backend"
    else:
        archs = c["gpu_archs"].split(",")
        assert archs and all(a.startswith("sm_" if c["gpu_backend"] == "cuda" else "gfx") for a in archs)
    for i in range(int(c["gpu_count"])):
        assert c[f"gpu_device_{i}_arch"] and c[f"gpu_device_{i}_name"]


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "AMD64"), reason="x86 instruction sets")
def test_cpu_instruction_sets_detected_compiled_and_used(monkeypatch):
    c = mi.cyGetConfig()
    detected = c["cpu_isa_detected"].split(",")
    assert c["cpu_isa_kernels"] == "avx512,avx2"
    assert "sse2" in c["cpu_isa_compiled"].split(",")
    expected = "avx512" if "avx512f" in detected else "avx2" if {"avx2", "fma"} <= set(detected) else "none"
    assert c["cpu_isa_used"] == expected
    assert c["cpu_convert_fp16"] in ("avx512f+f16c", "f16c", "portable")
    assert c["cpu_convert_bf16"] in ("avx512bf16", "avx512f", "avx2", "portable")
    # the element-wise engine's inline 16-bit blocks (compiled in every x86 build): wherever the
    # CPU has AVX2 and F16C, and never when the cap sends conversions to the portable path
    regs = "off" if c["cpu_convert_fp16"] == "portable" else "on"
    assert c["cpu_convert_in_registers"] == regs
    if {"avx2", "fma"} <= set(detected):      # every such CPU has F16C
        assert regs == "on"
    capped = json.loads(_python("import json, miopen_cy as mi; print(json.dumps(mi.cyGetConfig()))",
                                {"MIOPEN_CY_DEBUG_CPU_ISA": "none"}))
    assert capped["cpu_convert_in_registers"] == "off" and capped["cpu_convert_fp16"] == "portable"
    if c["native"] == "off":
        # A portable build's generic code assumes nothing past its target's baseline.
        assert "avx2" not in c["cpu_isa_compiled"].split(",")
    # The cap that tests and users set (MIOPEN_CY_DEBUG_CPU_ISA) shows, read at each call.
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", "none")
    assert mi.cyGetConfig()["cpu_isa_used"] == "none"
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", "sse9")
    assert mi.cyGetConfig()["cpu_isa_used"].startswith("error: MIOPEN_CY_DEBUG_CPU_ISA='sse9'")


def test_db_paths_follow_the_user_db_path(tmp_path, monkeypatch):
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path))
    find_db, perf_db = mi.cyGetDbPaths(mi.Handle(device="cpu"))
    assert os.path.dirname(find_db) == str(tmp_path) == os.path.dirname(perf_db)
    assert os.path.basename(find_db).startswith("cpu-") and find_db.endswith(".ufdb.txt")
    assert perf_db == find_db[:-len(".ufdb.txt")] + ".updb.txt"
    assert mi.cyGetConfig()["user_db_dir"] == str(tmp_path)
    with pytest.raises(TypeError):
        mi.cyGetDbPaths(None)


def test_show_config_dicts(tmp_path, monkeypatch):
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path))
    monkeypatch.setenv("MIOPEN_FIND_MODE", "NORMAL")
    c = mi.show_config(mode="dicts")
    assert tuple(c) == SECTIONS
    assert c["miopen_cy"]["version"] == mi.__version__ == c["miopen_cy"]["library_version"]
    assert os.path.samefile(c["miopen_cy"]["library"], os.path.join(mi.get_library_dir(), "libmiopen_cy.so"))
    assert c["backends"]["cpu"] == {"built": True, "present": True}
    gpu = c["backends"]["gpu"]
    assert gpu["devices"] == mi.cyGetDeviceCount() and gpu["present"] == (gpu["devices"] > 0)
    assert [d["name"] for d in c["devices"]] == ["cpu"] + [f"gpu:{i}" for i in range(gpu["devices"])]
    # The BLAS actually loaded is scipy-openblas32's (or a copy inside the wheel), never NumPy's.
    assert c["blas"]["library"] and os.path.basename(c["blas"]["library"]).startswith("libscipy_openblas")
    assert "openblas64_" not in os.path.basename(c["blas"]["library"])
    assert c["databases"]["user_db_dir"] == str(tmp_path)
    assert set(c["databases"]["files"]) == {d["name"] for d in c["devices"]}
    cpu_files = c["databases"]["files"]["cpu"]
    assert cpu_files["find_db"]["path"].startswith(str(tmp_path)) and not cpu_files["find_db"]["exists"]
    assert c["environment"]["MIOPEN_FIND_MODE"] == "NORMAL"
    assert all(k.startswith("MIOPEN") or k in ("OMP_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_VERBOSE",
                                                 "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                                                 "ROCR_VISIBLE_DEVICES") for k in c["environment"])
    json.dumps(c)                                   # plain data
    with pytest.raises(ValueError, match="mode"):
        mi.show_config(mode="yaml")


def test_show_config_counts_the_find_db_records(tmp_path, monkeypatch):
    import numpy as np
    from support.buffers import desc
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path))
    h = mi.Handle(device="cpu")
    xd, wd, yd = desc((1, 2, 5, 5)), desc((3, 2, 3, 3)), desc((1, 3, 3, 3))
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 0, 0, 1, 1, 1, 1)
    x, w, y = (np.ones(n, np.float32) for n in (50, 54, 27))
    # with the workspace Find needs (short of it, Find stores no record: MIOpen's
    # MIOPEN_FIND_CONV_INSUFFICIENT_WORKSPACE_ALLOW_FINDDB_UPDATE)
    ws_size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
    ws = np.zeros(max(ws_size, 1), np.uint8)
    mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 1, ws, ws_size, False)
    files = mi.show_config(mode="dicts")["databases"]["files"]["cpu"]
    assert files["find_db"]["exists"] and files["find_db"]["records"] == 1


def test_show_config_prints_every_section(capsys, monkeypatch):
    monkeypatch.setenv("MIOPEN_LOG_LEVEL", "3")
    assert mi.show_config() is None
    out = capsys.readouterr().out
    assert out.startswith(f"miopen_cy {mi.__version__} (MIOpen API ")
    for heading in ("Build:", "Backends:", "Devices:", "CPU instruction sets:", "BLAS:", "Databases:",
                    "Environment:"):
        assert f"\n{heading}\n" in out
    assert "  MIOPEN_LOG_LEVEL=3" in out and "kernel set: " in out and "cpu find-db: " in out


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="an x86 OpenBLAS kernel set")
def test_openblas_coretype_is_reported():
    # OpenBLAS reads OPENBLAS_CORETYPE when it is loaded: a fresh interpreter. Haswell's kernels
    # need AVX2, which every machine that runs the AVX2 kernels has.
    c = mi.cyGetConfig()
    if "avx2" not in c["cpu_isa_detected"].split(","):
        pytest.skip("this CPU has no AVX2")
    out = _python("import json, miopen_cy as mi; print(json.dumps(mi.show_config(mode='dicts')['blas']))",
                  env={"OPENBLAS_CORETYPE": "Haswell"})
    blas = json.loads(out)
    assert blas["corename"].lower() == "haswell" and blas["OPENBLAS_CORETYPE"] == "Haswell"


def test_driver_info_text_json_and_usage(capsys):
    assert driver.main(["info"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"miopen_cy {mi.__version__}") and "\nBackends:\n" in out
    assert driver.main(["info", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert tuple(c) == SECTIONS and c["miopen_cy"]["version"] == mi.__version__
    assert driver.main(["info", "--help"]) == 0
    assert "--json" in capsys.readouterr().out
    assert driver.main(["info", "-n", "4"]) == 2
    assert "info takes only --json" in capsys.readouterr().err
    assert driver.main(["--help"]) == 0
    assert "info (the build and this machine)" in capsys.readouterr().out


def test_driver_info_from_the_command_line():
    out = _python("import sys; from miopen_cy.driver import main; sys.exit(main(['info']))")
    assert "CPU instruction sets:" in out
