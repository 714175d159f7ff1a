"""info: what this install was built with and what it finds here (miopen_cy.show_config()).

`miopen-driver info` prints show_config()'s text; `--json` prints its dicts as one JSON object.
Not a MIOpenDriver sub-command: miopen_cy's own, in the spirit of torch.utils.collect_env."""
import json

from miopen_cy._config import format_config, get_config
from .flags import PROG, UsageError
from .report import EXIT_OK

USAGE = f"""usage: {PROG} info [--json]
Prints the version, the backends built and present, the GPU architectures compiled, the devices,
the CPU instruction sets detected and used, the BLAS and its kernel set, the find-db and perf-db
files and the MIOPEN_* variables set (miopen_cy.show_config()).
  --json   one JSON object on stdout (show_config(mode="dicts"))"""


def cmd_info(args):
    """Runs `miopen-driver info`; returns the exit status (UsageError for unknown flags)."""
    unknown = [a for a in args if a not in ("--json", "-h", "--help", "-?")]
    if unknown:
        raise UsageError(f"unknown argument {unknown[0]!r} (info takes only --json)")
    if any(a in ("-h", "--help", "-?") for a in args):
        print(USAGE)
        return EXIT_OK
    config = get_config()
    print(json.dumps(config, indent=1) if "--json" in args else format_config(config))
    return EXIT_OK
