"""miopen_cy.show_config(): what this install was built with and what it finds on this machine.

In the spirit of numpy.show_config() and torch.utils.collect_env: the version, the backends built
and present, the GPU architectures compiled, the devices found, the CPU instruction sets detected
and used, the BLAS and its kernel set, the find-db / perf-db files, and the environment variables
that steer the library. The build facts come from the library itself (miopenCyGetConfig, baked in
at build time by hip/cmake/build_config.cmake), so they describe the libmiopen_cy.so actually
loaded, whichever way it was installed (source, wheel)."""
import os
import platform
import re
import sys

from miopen_cy import _mirror

# Variables read by the library or by the BLAS and OpenMP runtimes it uses, besides MIOPEN_*.
_OTHER_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_VERBOSE", "CUDA_VISIBLE_DEVICES",
                    "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")


def _split(value):
    return [v for v in value.split(",") if v]


def _loaded_library(stem):
    """The path of the loaded shared library `stem`.so (or `stem`-<hash>.so, as auditwheel
    renames the libraries it copies into a wheel), from /proc/self/maps (Linux); else None."""
    pattern = re.compile(re.escape(stem) + r"(-[0-9a-f]+)?\.so")
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split(None, 5)[-1].strip()
                if pattern.match(os.path.basename(path)):
                    return path
    except OSError:
        pass
    return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _package_version(name):
    try:
        from importlib import metadata
        return metadata.version(name)
    except Exception:                                   # not installed with metadata
        return None


def _db_file(path):
    """{path, exists, records}: records is the number of lines of an existing file."""
    info = {"path": path, "exists": bool(path) and os.path.isfile(path)}
    if info["exists"]:
        try:
            with open(path, "rb") as f:
                info["records"] = sum(1 for _ in f)
        except OSError:
            info["records"] = None
    return info


def get_config():
    """The configuration as nested dicts (what show_config(mode="dicts") returns)."""
    import miopen_cy
    c = _mirror.cyGetConfig()
    backend = c.get("gpu_backend", "off")
    archs = _split(c.get("gpu_archs", ""))
    gpu_count = int(c.get("gpu_count", "0"))

    devices = [{"name": "cpu", "model": _cpu_model(),
                "threads": int(c.get("cpu_threads", "1"))}]
    for i in range(gpu_count):
        key = f"gpu_device_{i}"
        arch = c.get(f"{key}_arch")
        devices.append({"name": f"gpu:{i}", "model": c.get(f"{key}_name"), "arch": arch,
                        "multiprocessors": int(c.get(f"{key}_multiprocessors", "0")),
                        "arch_compiled": arch in archs, "error": c.get(f"{key}_error")})

    # The find-db and perf-db files of every device present (the files need not exist yet).
    files = {}
    for d in devices:
        try:
            find_db, perf_db = _mirror.cyGetDbPaths(_mirror.Handle(device=d["name"]))
        except _mirror.MIOpenError as e:
            files[d["name"]] = {"error": str(e)}
            continue
        files[d["name"]] = {"find_db": _db_file(find_db), "perf_db": _db_file(perf_db)}

    environment = {k: v for k, v in sorted(os.environ.items()) if k.startswith("MIOPEN")}
    environment.update((k, os.environ[k]) for k in _OTHER_VARIABLES if k in os.environ)

    try:
        import numpy
        numpy_version = numpy.__version__
    except ImportError:                                 # pragma: no cover (a dependency)
        numpy_version = None
    major, minor, patch = _mirror.getVersion()
    return {
        "miopen_cy": {
            "version": miopen_cy.__version__,
            "library_version": c.get("version"),
            "api_version": f"{major}.{minor}.{patch}",
            "package": os.path.dirname(miopen_cy.__file__),
            "library": _loaded_library("libmiopen_cy") or os.path.join(miopen_cy.get_library_dir(),
                                                                       "libmiopen_cy.so"),
            "python": f"{platform.python_version()} ({sys.executable})",
            "numpy": numpy_version,
        },
        "build": {
            "compiler": c.get("compiler"),
            "build_type": c.get("build_type"),
            "native": c.get("native") == "on",
            "sanitize": c.get("sanitize") == "on",
            "system": c.get("system"),
        },
        "backends": {
            "cpu": {"built": True, "present": True},
            "gpu": {"backend": None if backend == "off" else backend, "built": backend != "off",
                    "architectures": archs, "toolkit": c.get("gpu_toolkit") or None,
                    "present": gpu_count > 0, "devices": gpu_count,
                    "absent_reason": c.get("gpu_absent_reason")},
        },
        "devices": devices,
        "cpu_isa": {
            "detected": _split(c.get("cpu_isa_detected", "")),
            "compiled": _split(c.get("cpu_isa_compiled", "")),
            "kernels": _split(c.get("cpu_isa_kernels", "")),
            "used": c.get("cpu_isa_used"),
            "conversions": {"fp16": c.get("cpu_convert_fp16"), "bf16": c.get("cpu_convert_bf16"),
                            "in_registers": c.get("cpu_convert_in_registers") == "on"},
        },
        "blas": {
            "name": c.get("blas"),
            "version": _package_version("scipy-openblas32"),
            "library": _loaded_library("libscipy_openblas"),
            "config": c.get("blas_config"),
            "corename": c.get("blas_corename"),
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
        },
        "databases": {
            "user_db_dir": c.get("user_db_dir"),
            "find_db_enabled": c.get("find_db_enabled") == "yes",
            "perf_db_enabled": c.get("perf_db_enabled") == "yes",
            "files": files,
        },
        "environment": environment,
    }


def format_config(config):
    """show_config()'s text for a get_config() dict."""
    m, b, be, isa, blas, db = (config[k] for k in ("miopen_cy", "build", "backends", "cpu_isa", "blas",
                                                   "databases"))
    gpu = be["gpu"]
    yes = {True: "yes", False: "no"}
    lines = [f"miopen_cy {m['version']} (MIOpen API {m['api_version']})",
             f"  package: {m['package']}",
             f"  library: {m['library']} (version {m['library_version']})",
             f"  python: {m['python']}; numpy {m['numpy']}",
             "Build:",
             f"  compiler: {b['compiler']}, {b['build_type']}; -march=native: {'on' if b['native'] else 'off'}; "
             f"sanitizers: {'on' if b['sanitize'] else 'off'}; {b['system']}",
             "Backends:",
             "  cpu: built, present"]
    if gpu["built"]:
        lines.append(f"  gpu: {gpu['backend']} built ({gpu['toolkit']}), architectures "
                     f"{', '.join(gpu['architectures']) or '(none)'}; present: "
                     + (f"{gpu['devices']} device(s)" if gpu["present"] else f"no ({gpu['absent_reason']})"))
    else:
        lines.append("  gpu: not built (CPU-only build)")
    lines.append("Devices:")
    for d in config["devices"]:
        if d["name"] == "cpu":
            lines.append(f"  cpu: {d['model']}, {d['threads']} OpenMP thread(s)")
        elif d.get("error"):
            lines.append(f"  {d['name']}: {d['error']}")
        else:
            lines.append(f"  {d['name']}: {d['model']}, {d['arch']}, {d['multiprocessors']} multiprocessors; "
                         f"compiled for this architecture: {yes[d['arch_compiled']]}")
    lines += ["CPU instruction sets:",
              f"  detected: {', '.join(isa['detected']) or '(none known)'}",
              f"  generic code compiled for: {', '.join(isa['compiled'])}",
              f"  kernels chosen at run time: {', '.join(isa['kernels']) or '(none)'}; used: {isa['used']}",
              f"  fp16 / bf16 conversions: {isa['conversions']['fp16']} / {isa['conversions']['bf16']}"
              f"{'; element-wise blocks in registers' if isa['conversions']['in_registers'] else ''}",
              "BLAS:",
              f"  {blas['name']} {blas['version'] or ''}".rstrip() + f": {blas['library'] or '(not loaded)'}",
              f"  config: {blas['config']}",
              f"  kernel set: {blas['corename']} (OPENBLAS_CORETYPE: {blas['OPENBLAS_CORETYPE'] or 'not set'})",
              "Databases:",
              f"  user-db directory: {db['user_db_dir'] or '(none: no home directory)'}; find-db "
              f"{'on' if db['find_db_enabled'] else 'off'}, perf-db {'on' if db['perf_db_enabled'] else 'off'}"]
    for device, f in db["files"].items():
        if "error" in f:
            lines.append(f"  {device}: {f['error']}")
            continue
        for kind in ("find_db", "perf_db"):
            e = f[kind]
            state = f"{e['records']} record(s)" if e["exists"] else "not written yet"
            lines.append(f"  {device} {kind.replace('_', '-')}: {e['path'] or '(memory only)'} ({state})")
    lines.append("Environment:")
    if config["environment"]:
        lines += [f"  {k}={v}" for k, v in config["environment"].items()]
    else:
        lines.append("  (no MIOPEN_* variable set)")
    return "\n".join(lines)


def show_config(mode="stdout"):
    """Prints what this install of miopen_cy was built with and what it finds on this machine:
    version, backends built and present, GPU architectures compiled, devices, CPU instruction
    sets detected and used, BLAS and its kernel set, find-db / perf-db files, MIOPEN_* variables.
    mode="dicts" returns the same as nested dicts instead of printing (numpy.show_config's modes)."""
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
    config = get_config()
    if mode == "dicts":
        return config
    print(format_config(config))
    return None
