"""miopen_cy: MIOpen, the deep-learning primitives library, as a Python package.

Every C function miopenXxxYyy of MIOpen's miopen.h is miopen_cy.xxxYyy (DESIGN.md's rule);
every enum is an IntEnum whose members are also module constants (miopen_cy.miopenFloat)."""
import os as _os

from miopen_cy._mirror import *  # noqa: F401,F403
from miopen_cy._mirror import ENUMS as _ENUMS
from miopen_cy import _mirror
from miopen_cy._config import show_config  # noqa: F401

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
