"""miopen_cy: MIOpen, the deep-learning primitives library, as a Python package.

Every C function miopenXxxYyy of MIOpen's miopen.h is miopen_cy.xxxYyy (DESIGN.md's rule);
every enum is an IntEnum whose members are also module constants (miopen_cy.miopenFloat)."""
import os as _os


def _load_openblas():
    """Loads scipy-openblas32's library before the extension, whose libmiopen_cy.so needs it
    (DT_NEEDED libscipy_openblas.so, matched by name once loaded). Its RUNPATH finds the library
    next to site-packages/miopen_cy; loading it here by the package's own path covers any other
    layout (pip --target, PYTHONPATH). A wheel never carries a copy of it."""
    try:
        import ctypes
        import scipy_openblas32
        ctypes.CDLL(_os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(True)))
    except (ImportError, OSError, IndexError):  # the RUNPATH's turn, or a clear ImportError below
        pass


_load_openblas()

from miopen_cy._mirror import *  # noqa: F401,F403,E402
from miopen_cy._mirror import ENUMS as _ENUMS  # noqa: E402
from miopen_cy import _mirror  # noqa: E402
from miopen_cy._config import show_config  # noqa: F401,E402

for _enum_cls in _ENUMS:
    globals().update(_enum_cls.__members__)
del _enum_cls

__version__ = "0.1.0"


def get_include():
    """The folder holding miopen/miopen.h, for compiling C programs against miopen_cy."""
    return _os.path.join(_os.path.dirname(__file__), "include")


def get_library_dir():
    """The folder holding libmiopen_cy.so, for linking C programs (-L and -Wl,-rpath)."""
    return _os.path.join(_os.path.dirname(__file__), "lib")
