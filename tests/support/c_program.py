"""How a C program compiles and links against the installed library: the header folder, the
library, and OpenBLAS (scipy-openblas32), which libmiopen_cy.so needs and finds through a RUNPATH
relative to its own folder. The program links OpenBLAS itself (with its folder as rpath), so a
library installed elsewhere (the sanitizer job's --target folder) still links and runs: a
library's RUNPATH is not searched for by the program's, but a library the program already loaded
satisfies it."""
import scipy_openblas32

import miopen_cy as mi


def cc_command(source, exe):
    """cc arguments that compile `source` into `exe` against miopen_cy."""
    lib = mi.get_library_dir()
    blas = scipy_openblas32.get_lib_dir()
    return ["cc", "-std=c99", "-Wall", "-Werror", str(source), f"-I{mi.get_include()}", f"-L{lib}",
            f"-Wl,-rpath,{lib}", f"-L{blas}", f"-Wl,-rpath,{blas}", "-lmiopen_cy",
            "-Wl,--no-as-needed", f"-l{scipy_openblas32.get_library()}", "-Wl,--as-needed", "-lm",
            "-o", str(exe)]
