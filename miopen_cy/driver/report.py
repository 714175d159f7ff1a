"""What a run prints (text in MIOpenDriver's shape, or one JSON object with --json), the exit
statuses, and the verification: MIOpen's error metric against a float64 reference
(miopen_cy.reference) and the tests' hook that plants wrong results."""
import json
import math
import sys

import numpy as np

EXIT_OK, EXIT_VERIFY_FAILED, EXIT_USAGE, EXIT_LIBRARY = 0, 1, 2, 3


class Report:
    """Collects what a run prints; in --json mode the text is kept out of stdout."""

    def __init__(self, as_json, stream=None):
        self.as_json = as_json
        self.stream = stream if stream is not None else sys.stdout
        self.record = {}
        self.results = []
        self.failed = False

    def say(self, line=""):
        if not self.as_json:
            print(line, file=self.stream, flush=True)

    def verdict(self, label, err, tol, result):
        """MIOpenDriver's verification line; marks the run failed when err > tol or not finite."""
        ok = bool(np.isfinite(err) and err <= tol)
        result.update(verified=ok, error=finite_or_none(err), tolerance=tol)
        if ok:
            self.say(f"{label} Verifies OK on CPU reference ({err:g} < {tol:g})")
        else:
            self.failed = True
            self.say(f"{label} FAILED: {err:g} > {tol:g}")
        return ok

    def finish(self, code):
        if self.as_json:
            self.record["results"] = self.results
            self.record["ok"] = code == EXIT_OK
            self.record["exit_code"] = code
            print(json.dumps(self.record, indent=2, default=_json_default), file=self.stream, flush=True)
        return code


def finite_or_none(v):
    return float(v) if v is not None and np.isfinite(v) else None


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, tuple):
        return list(o)
    return str(o)


def rms_range(ref, out):
    """MIOpen's verification metric (test/verify.hpp rms_range): the RMS difference divided by the
    largest magnitude of either range. Not finite when `out` holds a NaN or Inf."""
    r = np.asarray(ref, dtype=np.float64).ravel()
    o = np.asarray(out, dtype=np.float64).ravel()
    if r.size != o.size:
        return math.inf
    if r.size == 0:
        return 0.0
    if not np.all(np.isfinite(o)):
        return math.inf
    mag = max(float(np.max(np.abs(r))), float(np.max(np.abs(o))), np.finfo(np.float64).tiny)
    return float(np.sqrt(np.sum((r - o) ** 2)) / (math.sqrt(r.size) * mag))


# ================================================================================================
# Tensors and the device


def corrupt_hook():
    """The package's _corrupt_hook (tests set it on miopen_cy.driver): None, or
    f(direction, output array) -> array, applied to every device result before verification."""
    return getattr(sys.modules[__package__], "_corrupt_hook", None)


def apply_corrupt(direction, out):
    hook = corrupt_hook()
    return hook(direction, out) if hook is not None else out
