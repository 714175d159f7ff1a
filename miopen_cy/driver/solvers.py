"""solvers: the library's convolution solvers, as the library reports them (miopenCyGetSolverInfo,
miopenCyGetSolverApplicability, Find 2.0 for the times).

`miopen-driver solvers` prints the registry (id, name, algorithm, switch) as the Markdown table
README.md carries; `miopen-driver solvers conv <conv flags>` prints one row per solver for that
problem in each direction of -F: id, name, algorithm, its switch and whether its switches leave it
on, applicable or the reason not, workspace, and with -t 1 the time Find measured (Find 2.0)."""
import miopen_cy as mi
from .buffers import Device, HostTensor
from .conv import conv_case_of
from .flags import CONV_FLAGS, PROG, UsageError, parse_flags
from .report import EXIT_OK

ALGORITHMS = {0: "GEMM", 1: "Direct", 2: "FFT", 3: "Winograd", 5: "ImplicitGEMM"}
PROBLEM_DIRECTIONS = {"fwd": mi.miopenProblemDirectionForward, "bwd": mi.miopenProblemDirectionBackward,
                      "wrw": mi.miopenProblemDirectionBackwardWeights}


def registry():
    """Every solver in the library's priority order: (id, name, algorithm name, switch)."""
    rows = []
    for i in range(mi.cyGetSolverCount()):
        sid, name, algo, switch = mi.cyGetSolverInfo(i)
        rows.append((sid, name, ALGORITHMS.get(int(algo), str(int(algo))), switch))
    return rows


def registry_table():
    """README's solver table (Markdown), in registry order."""
    lines = ["| Id | Solver | Algorithm | Switch (`=0` turns it off) |", "|---|---|---|---|"]
    lines += [f"| {sid} | {name} | {algo} | `{switch}` |" for sid, name, algo, switch in registry()]
    return "\n".join(lines)


def survey(handle, case, direction, time):
    """One row (a dict) per solver for `case` in `direction` on `handle`."""
    lay_x, lay_w, lay_y = (lay or None for lay in case.layouts)
    xd = HostTensor(case.xlens, layout=lay_x, fill=0.0).desc()
    wd = HostTensor(case.wlens, layout=lay_w, fill=0.0).desc()
    cd = case.conv_desc()
    yd = HostTensor(mi.getConvolutionNdForwardOutputDim(cd, xd, wd), layout=lay_y, fill=0.0).desc()
    problem = mi.ConvProblem(cd, PROBLEM_DIRECTIONS[direction])
    mi.setProblemTensorDescriptor(problem, mi.miopenTensorConvolutionX, xd)
    mi.setProblemTensorDescriptor(problem, mi.miopenTensorConvolutionW, wd)
    mi.setProblemTensorDescriptor(problem, mi.miopenTensorConvolutionY, yd)
    times = {}
    if time:
        # Find 2.0 keeps every solver it measured (legacy Find keeps one per algorithm); solvers
        # it skipped as hopeless have no time.
        options = mi.FindOptions()
        for s in mi.findSolutions(handle, problem, options, mi.cyGetSolverCount()):
            times[mi.getSolutionSolverId(s)] = mi.getSolutionTime(s)
    rows = []
    for sid, name, algo, switch in registry():
        on, ok, ws, why = mi.cyGetSolverApplicability(handle, problem, sid)
        rows.append({"direction": direction, "id": sid, "name": name, "algorithm": algo, "switch": switch,
                     "switched_on": on, "applicable": ok, "reason": why, "workspace_bytes": ws,
                     "find_time_ms": times.get(sid)})
    return rows


def _table(rows, time):
    # The reason, the long column, goes last so that it needs no padding.
    head = ["id", "solver", "algorithm", "switch", "on", "workspace"] + (["find ms"] if time else [])
    head.append("applicable")
    body = []
    for r in rows:
        row = [str(r["id"]), r["name"], r["algorithm"], r["switch"], "on" if r["switched_on"] else "off",
               str(r["workspace_bytes"])]
        if time:
            row.append("-" if r["find_time_ms"] is None else f"{r['find_time_ms']:.4f}")
        row.append("yes" if r["applicable"] else f"no: {r['reason']}")
        body.append(row)
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    right = {0, 5, 6} if time else {0, 5}
    fmt = lambda row: "  ".join(c.rjust(wd) if i in right else c.ljust(wd)
                                for i, (c, wd) in enumerate(zip(row, widths))).rstrip()
    return [fmt(head), "  ".join("-" * wd for wd in widths[:-1]) + "  " + "-" * len(head[-1])] + \
        [fmt(r) for r in body]


def cmd_solvers(args, report):
    if not args:
        for line in registry_table().splitlines():
            report.say(line)
        report.results.extend({"id": s, "name": n, "algorithm": a, "switch": w} for s, n, a, w in registry())
        return EXIT_OK
    if args[0] in ("-h", "--help", "-?"):
        report.say(__doc__)
        return EXIT_OK
    if args[0] != "conv":
        raise UsageError(f"'{args[0]}': {PROG} solvers lists convolution solvers: "
                         f"'{PROG} solvers' (the registry) or '{PROG} solvers conv <conv flags>'")
    o, given = parse_flags("solvers conv", CONV_FLAGS, args[1:])
    case, directions = conv_case_of(o, given)
    device = Device(o["device"])
    report.record.update(subcommand="solvers", device=device.handle.device)
    report.say(f"Convolution: {case.describe()}")
    for _, dname, label, _, _ in directions:
        rows = survey(device.handle, case, dname, bool(o["time"]))
        usable = sum(r["applicable"] for r in rows)
        report.say("")
        report.say(f"{label} on {device.handle.device}: {usable} of {len(rows)} solvers applicable")
        for line in _table(rows, bool(o["time"])):
            report.say(line)
        report.results.extend(rows)
    return EXIT_OK
