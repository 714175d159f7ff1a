"""miopen-driver: MIOpenDriver's command line over miopen_cy.

`miopen-driver <sub-command> [flags]` (also `python -m miopen_cy ...`) sets up one layer from
MIOpenDriver's flags, runs it through the public Python mirror of the C API (Find for
convolution), times it (average over -i iterations, excluding the first) and verifies the result
against an independent float64 NumPy reference (miopen_cy.reference) that shares no code with
the library. Sub-commands: conv, pool, lrn, activ, softmax, bnorm, tensorop, dropout, rnn, ctc (MIOpenDriver's), their
fp16/bf16 forms (dtypes.VARIANTS: activfp16, bnormfp16fp32, ... and ours such as poolbfp16),
`net resnet50`, which runs every distinct convolution of ResNet-50 v1.5 and prints one table,
`solvers [conv <conv flags>]`, the convolution solvers (and for a problem which apply, why the
others do not, and Find's times), and `info`, what this install was built with and finds on this
machine (miopen_cy.show_config()).

The lines that MIOPEN_ENABLE_LOGGING_CMD=1 prints run here unchanged. Exit status: 0 when every
verification passed, 1 when one failed, 2 for a usage error (unknown or contradictory flags),
3 when the library refused the problem.

Modules: flags (every sub-command's flag table and the parser), buffers (host tensors, the
device), timing, report (output, exit statuses, verification), one module per sub-command (conv,
pool, lrn, activ, softmax, bnorm, tensorop, dropout, rnn, ctc), net, solvers and info.
"""
import functools
import shlex
import sys

import miopen_cy as mi
from .activ import ACTIV_NAMES, cmd_activ
from .bnorm import BN_EPS, BN_TOL, BnParam, cmd_bnorm
from .cbainfer import CBA_FLAGS, cmd_cbainfer
from .buffers import Device, HostTensor, LibraryMissing, layout_strides
from .dtypes import VARIANTS, DataTypeMissing
from .conv import (ALGO_NAMES, CONV_TOL, DIRECTIONS, ConvCase, ConvRunner, cmd_conv, solver_that_ran,
                   stats_lines)
from .flags import (ACTIV_FLAGS, BNORM_FLAGS, COMMON_FLAGS, CONV_FLAGS, LAYOUTS, LRN_FLAGS, NET_FLAGS,
                    POOL_FLAGS, PROG, SOFTMAX_FLAGS, TENSOROP_FLAGS, Flag, HelpRequested, UsageError,
                    parse_flags)
from .ctc import cmd_ctc
from .dropout import cmd_dropout
from .rnn import cmd_rnn
from .info import cmd_info
from .lrn import cmd_lrn
from .net import NETWORKS, Progress, cmd_net, resnet50_layers
from .pool import cmd_pool
from .report import EXIT_LIBRARY, EXIT_OK, EXIT_USAGE, EXIT_VERIFY_FAILED, Report, rms_range
from .softmax import cmd_softmax
from .solvers import cmd_solvers, registry_table
from .reduce import cmd_reduce
from .tensorop import cmd_tensorop
from .timing import average_excluding_first, timed_calls

# A hook for tests: None, or f(direction, output array) -> array, applied to every device result
# before verification (a planted wrong result must fail). report.corrupt_hook() reads it here.
_corrupt_hook = None

COMMANDS = {"conv": cmd_conv, "pool": cmd_pool, "lrn": cmd_lrn, "activ": cmd_activ,
            "softmax": cmd_softmax, "bnorm": cmd_bnorm, "tensorop": cmd_tensorop, "net": cmd_net,
            "solvers": cmd_solvers, "CBAInfer": cmd_cbainfer, "reduce": cmd_reduce,
            "dropout": cmd_dropout, "rnn": cmd_rnn,
            "ctc": cmd_ctc}
# The fp16/bf16 sub-commands (MIOpenDriver's names and ours in the same naming): the base command
# with its data type (and batch norm's parameter type).
COMMANDS.update({name: functools.partial(COMMANDS[base], dtype=dt, name=name,
                                         **({"ptype": pt} if pt is not None else {}))
                 for name, (base, dt, pt, _) in VARIANTS.items()})
COMMANDS.update({name: functools.partial(cmd_reduce, name=name) for name in ("reducefp16", "reducefp64")})
# MIOpenDriver's other base arguments: data-type variants and operations this driver lacks.
OTHER_TYPES = {"fp16": "fp16 (miopenHalf)", "bfp16": "bfloat16", "int8": "int8", "fp64": "fp64",
               "fp8": "fp8", "bfp8": "bfp8"}
OTHER_OPS = ("gemm", "gemmfp16")


def usage_text():
    return (f"usage: {PROG} <sub-command> [flags]   ({PROG} <sub-command> --help lists the flags)\n"
            f"sub-commands: {', '.join(c for c in COMMANDS if c not in ('net', 'solvers') and c not in VARIANTS)} "
            f"(MIOpenDriver's), their fp16/bf16 forms ({', '.join(VARIANTS)}), "
            f"net resnet50 (every convolution of ResNet-50), solvers [conv <conv flags>] (the "
            f"convolution solvers, and which apply to a problem), info (the build and this machine)\n"
            f"miopen_cy flags: --device cpu|gpu (default cpu), --json")


def _usage_error(cmd, message):
    where = f"{PROG} {cmd}" if cmd else PROG
    usage = f"{where} [flags]" if cmd else f"{PROG} <sub-command> [flags]"
    print(f"usage: {usage}   (see {where} --help)\n{where}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv=None):
    """Runs one miopen-driver command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "-?", "help"):
        print(usage_text(), file=sys.stdout if argv else sys.stderr)
        return EXIT_OK if argv else EXIT_USAGE
    if argv[0] == "--version":
        major, minor, patch = mi.getVersion()
        print(f"MIOpen (version: {major}.{minor}.{patch}), miopen_cy {mi.__version__}")
        return EXIT_OK
    cmd, args = argv[0], argv[1:]
    if cmd == "info":                            # miopen_cy's own: no layer, no echo, no report
        try:
            return cmd_info(args)
        except UsageError as e:
            return _usage_error(cmd, str(e))
    if cmd not in COMMANDS:
        if cmd in OTHER_OPS:
            return _usage_error(None, f"'{cmd}' is a MIOpenDriver sub-command this driver does not implement "
                                      f"(available: {', '.join(COMMANDS)}, info)")
        for base in COMMANDS:
            if cmd.startswith(base) and cmd[len(base):] in OTHER_TYPES:
                forms = [base] + [v for v, (b, *_) in VARIANTS.items() if b == base]
                return _usage_error(None, f"'{cmd}': data type {OTHER_TYPES[cmd[len(base):]]} is not supported "
                                          f"by {base}: use {' or '.join(repr(f) for f in forms)}")
        return _usage_error(None, f"unknown sub-command {cmd!r} (choose from {', '.join(COMMANDS)}, info)")
    as_json = "--json" in args
    report = Report(as_json)
    report.record.update(command=" ".join([PROG] + [shlex.quote(a) for a in argv]))
    try:
        report.say(" ".join([PROG] + argv))      # MIOpenDriver echoes its command
        code = COMMANDS[cmd](args, report)
    except HelpRequested as h:
        print(h.text())
        return EXIT_OK
    except UsageError as e:
        return _usage_error(cmd, str(e))
    except (LibraryMissing, DataTypeMissing) as e:
        print(f"{PROG} {cmd}: error: {e}", file=sys.stderr)
        return report.finish(EXIT_LIBRARY) if as_json else EXIT_LIBRARY
    except mi.MIOpenError as e:
        print(f"{PROG} {cmd}: error: {e}", file=sys.stderr)
        report.record["error"] = str(e)
        return report.finish(EXIT_LIBRARY) if as_json else EXIT_LIBRARY
    return report.finish(code)
