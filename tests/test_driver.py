"""miopen-driver, MIOpenDriver's command line: every sub-command end to end (exit status, the
verification lines), planted wrong results failing verification, usage errors (exit 2), the
MIOPEN_ENABLE_LOGGING_CMD round trip, --json, and `net resnet50` on a few layers. Most runs call
driver.main(argv) in process; a few run `python -m miopen_cy` in a subprocess outside the repo."""
import ast
import io
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import miopen_cy as mi
from miopen_cy import driver

OK_LINE = re.compile(r"Verifies OK on CPU reference \(([0-9.e+-]+) < ([0-9.e+-]+)\)")


def run_main(capsys, *argv):
    """driver.main in process: (exit status, stdout, stderr)."""
    argv = [str(a) for a in argv]
    code = driver.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def run_cli(tmp_path, *argv, env=None):
    """`python -m miopen_cy ...` in a subprocess whose cwd is outside the repository, so the
    installed package (not the source folder) is imported."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "miopen_cy"] + [str(a) for a in argv], cwd=tmp_path,
                          env=e, capture_output=True, text=True, timeout=120)


def verified(out, labels):
    for label in labels:
        m = re.search(re.escape(label) + r" Verifies OK on CPU reference \(([0-9.e+-]+) < ([0-9.e+-]+)\)", out)
        assert m, f"no '{label} Verifies OK' line in:\n{out}"
        assert float(m.group(1)) < float(m.group(2))


CONV_LABELS = {1: "Forward Convolution", 2: "Backward Convolution Data", 4: "Backward Convolution Weights"}


def needs(name):
    return pytest.mark.skipif(not hasattr(mi, name), reason=f"this build has no mi.{name} yet")


# ---- conv ---------------------------------------------------------------------------------------

def test_cli_main_job_runs_and_verifies(tmp_path):
    """The README's main-job command, smaller: the console entry point as a user runs it."""
    r = run_cli(tmp_path, "conv", "-n", 2, "-c", 16, "-H", 14, "-W", 14, "-k", 16, "-y", 3, "-x", 3,
                "-p", 1, "-q", 1, "-t", 1, "-i", 3)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert out.splitlines()[0].startswith("miopen-driver conv -n 2 -c 16")
    verified(out, CONV_LABELS.values())
    for label in ("Forward Conv.", "Backward Data Conv.", "Backward Weights Conv."):
        m = re.search(rf"MIOpen {re.escape(label)} Algorithm: (\d) \((\w+)\), Solution: (\w+)", out)
        assert m and m.group(3) != "UNKNOWN", out
        assert re.search(rf"CPU Kernel Time {re.escape(label)} Elapsed: [0-9.]+ ms \(average\)", out)
    assert "stats: name, n, c, ho, wo, x, y, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs" in out
    # 2 * n * c * k * y * x * ho * wo
    assert re.search(r"stats: fwd-conv3x3u1, 2, 16, 14, 14, 3, 3, 16,  %d, " % (2 * 2 * 16 * 16 * 9 * 14 * 14), out)
    assert "stats: bwdd-conv3x3u1" in out and "stats: bwdw-conv3x3u1" in out


CONV_CASES = {
    "groups-dilation": "-n 2 -c 8 -H 11 -W 9 -k 12 -y 3 -x 2 -p 1 -q 2 -u 2 -v 1 -l 1 -j 2 -g 2",
    "depthwise": "-n 2 -c 6 -H 9 -W 9 -k 6 -y 3 -x 3 -p 1 -q 1 -g 6",
    "1x1-stride2": "-n 2 -c 16 -H 13 -W 13 -k 8 -y 1 -x 1 -u 2 -v 2",
    "trans-outpad": "-m trans -n 2 -c 4 -H 7 -W 6 -k 6 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -Y 1 -X 1",
    "trans-groups": "-m trans -x 10 -y 5 -W 31 -H 15 -c 16 -n 1 -k 8 -p 0 -q 0 -u 2 -v 2 -l 1 -j 1 -g 4",
    "3d": "--spatial_dim 3 -n 2 -c 4 -! 5 -H 6 -W 4 -k 6 -@ 3 -y 2 -x 3 -$ 1 -p 0 -q 1 -# 2 -u 1 -v 1 -^ 1 -l 2 -j 1 -g 2",
    "3d-long-names": "-n 1 -c 2 --in_d 3 -H 4 -W 5 -k 2 --fil_d 2 -y 1 -x 2 --pad_d 0 -p 0 -q 0 "
                     "--conv_stride_d 1 -u 1 -v 1 --dilation_d 1 -l 1 -j 1 --spatial_dim 3 -m conv -g 1",
    "1d": "--spatial_dim 1 -n 2 -c 4 -W 21 -k 6 -x 5 -q 2 -v 2 -j 1",
    "nhwc": "-n 2 -c 8 -H 7 -W 7 -k 4 -p 1 -q 1 --in_layout NHWC --out_layout NHWC --fil_layout NHWC",
    "pad-same": "-n 1 -c 3 -H 10 -W 9 -k 4 -y 3 -x 3 -u 2 -v 2 -z same",
}


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_conv_problems_verify_in_every_direction(capsys, case):
    code, out, err = run_main(capsys, "conv", *CONV_CASES[case].split(), "-t", 1, "-i", 2)
    assert code == 0, out + err
    verified(out, CONV_LABELS.values())


@pytest.mark.parametrize("forw,expect", [(1, [1]), (2, [2]), (4, [4]), (3, [1, 2]), (6, [2, 4]), (0, [1, 2, 4])])
def test_conv_forw_bitmask_selects_directions(capsys, forw, expect):
    code, out, _ = run_main(capsys, "conv", "-n", 1, "-c", 3, "-H", 8, "-W", 8, "-k", 4, "-F", forw, "-i", 1)
    assert code == 0
    assert [b for b, label in CONV_LABELS.items() if f"{label} Verifies OK" in out] == expect


@pytest.mark.parametrize("flags", ["-F 0", "-F 1", "-F 4", "-m trans -u 2 -v 2 -F 0"])
def test_conv_bias(capsys, monkeypatch, flags):
    """-b 1: the bias is added after the forward convolution and its gradient computed after the
    backward ones, each verified; a wrong bias gradient fails."""
    argv = ["conv", "-n", 2, "-c", 4, "-H", 7, "-W", 6, "-k", 6, "-b", 1, "-i", 1, "-t", 1] + flags.split()
    code, out, err = run_main(capsys, *argv)
    assert code == 0, out + err
    forw = int(flags.split("-F ")[1])
    assert ("Forward Convolution Verifies OK" in out) == (forw in (0, 1))
    assert ("Backward Convolution Bias Verifies OK" in out) == (forw != 1)
    assert ("Forward Conv. Bias Elapsed" in out) == (forw in (0, 1))
    if forw != 1:
        monkeypatch.setattr(driver, "_corrupt_hook", lambda d, arr: arr * 1.01 if d == "bias" else arr)
        code, out, _ = run_main(capsys, *argv)
        assert code == 1 and "Backward Convolution Bias FAILED" in out and "Weights Verifies OK" in out


@pytest.mark.parametrize("solution,solver", [("ConvDirectNaiveConvFwd", "ConvDirectNaiveConvFwd"), ("91", "GemmFwdRest")])
def test_conv_solution_flag_runs_that_solver(capsys, solution, solver):
    code, out, err = run_main(capsys, "conv", "-n", 1, "-c", 4, "-H", 8, "-W", 8, "-k", 4, "-F", 1, "-t", 1,
                              "-i", 1, "-S", solution)
    assert code == 0, out + err
    assert f"Solution: {solver}" in out
    verified(out, ["Forward Convolution"])
    assert "MIOPEN_DEBUG_FIND_ONLY_SOLVER" not in os.environ        # restored


def test_conv_time_0_prints_no_timing_but_verifies(capsys):
    code, out, _ = run_main(capsys, "conv", "-n", 1, "-c", 3, "-H", 8, "-W", 8, "-k", 4, "-F", 1)
    assert code == 0 and "stats:" not in out and "Elapsed" not in out
    verified(out, ["Forward Convolution"])


def test_conv_verify_0_skips_verification(capsys):
    code, out, _ = run_main(capsys, "conv", "-n", 1, "-c", 3, "-H", 8, "-W", 8, "-k", 4, "-V", 0, "-t", 1)
    assert code == 0 and "Verifies" not in out and "stats: fwd-conv" in out


def test_conv_reads_input_files_and_dumps_outputs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    x.tofile("x.bin")
    w.tofile("w.bin")
    code, out, _ = run_main(capsys, "conv", "-n", 1, "-c", 2, "-H", 5, "-W", 5, "-k", 3, "-F", 1,
                            "-d", "x.bin", "-e", "w.bin", "-o", 1)
    assert code == 0
    y = np.fromfile("dump_fwd_out_cpu.bin", dtype=np.float32).reshape(1, 3, 3, 3)
    windows = np.lib.stride_tricks.sliding_window_view(x.astype(np.float64), (3, 3), axis=(2, 3))
    assert np.allclose(y, np.einsum("nchwyx,kcyx->nkhw", windows, w.astype(np.float64)), rtol=1e-5, atol=1e-5)


# ---- MIOpenDriver command lines from MIOpen's test suite (shapes scaled down) ---------------------

SUITE = [
    "conv --forw 2 --in_layout NCHW --out_layout NCHW --fil_layout NCHW -n 4 -c 64 -H 14 -W 14 -k 16 "
    "-y 1 -x 1 -p 0 -q 0 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -t 1",
    "conv -W 23 -H 19 -c 4 -n 2 -k 1 --fil_w 3 --fil_h 3 --pad_w 6 --pad_h 4 -F 1",
    "conv -n 1 -c 1 --in_d 2 -H 1 -W 2 -k 2 --fil_d 2 -y 1 -x 2 --pad_d 0 -p 0 -q 0 --conv_stride_d 1 "
    "-u 1 -v 1 --dilation_d 1 -l 1 -j 1 --spatial_dim 3 -m conv -g 1 -F 1 -i 1 -t 1 -w 1",
    "conv -m trans -x 1 -y 7 -W 17 -H 17 -c 32 -n 2 -k 16 -p 3 -q 0 -u 1 -v 1 -l 1 -j 1 -g 2 -F 0 -V 1",
    "conv -m trans -x 3 -y 3 -W 18 -H 18 -c 3 -n 2 -k 16 -p 1 -q 1 -u 2 -v 2 -l 1 -j 1 -g 1 -F 0 -V 1",
]


@pytest.mark.parametrize("line", SUITE, ids=lambda l: l[:40])
def test_miopen_test_suite_lines(capsys, line):
    code, out, err = run_main(capsys, *shlex.split(line))
    assert code == 0, out + err
    assert OK_LINE.search(out)


# ---- planted wrong results fail ------------------------------------------------------------------

def test_a_wrong_convolution_result_fails_verification(capsys, monkeypatch):
    real = mi.convolutionBackwardData

    def wrong(*args):
        real(*args)
        dx = args[10]
        dx.flat[dx.size // 2] += 1.0           # one wrong element is enough

    monkeypatch.setattr(mi, "convolutionBackwardData", wrong)
    code, out, _ = run_main(capsys, "conv", "-n", 2, "-c", 4, "-H", 9, "-W", 9, "-k", 4)
    assert code == 1
    assert "Forward Convolution Verifies OK" in out
    assert re.search(r"Backward Convolution Data FAILED: [0-9.e+-]+ > 1\.5e-0[56]", out)
    assert "Backward Convolution Weights Verifies OK" in out


def test_a_nan_output_fails_and_json_reports_it(capsys, monkeypatch):
    monkeypatch.setattr(driver, "_corrupt_hook", lambda d, out: np.where(out > 0, np.nan, out))
    code, out, _ = run_main(capsys, "conv", "-n", 1, "-c", 3, "-H", 6, "-W", 6, "-k", 2, "-F", 1, "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["ok"] is False and doc["exit_code"] == 1
    assert doc["results"][0]["verified"] is False and doc["results"][0]["error"] is None


OTHER_OPS = [
    ("poolingForward", "pool", "-n 2 -c 3 -H 9 -W 9 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -F 1"),
    ("LRNForward", "lrn", "-n 2 -c 5 -H 6 -W 6 -m cross -F 1"),
    ("activationForward", "activ", "-n 2 -c 3 -H 5 -W 5 -F 1"),
    ("softmaxForward_V2", "softmax", "-n 2 -c 4 -H 3 -W 3 -F 1"),
    ("batchNormalizationForwardTraining", "bnorm", "-n 4 -c 3 -H 5 -W 5 -m 1 -F 1"),
    ("opTensor", "tensorop", "-n 2 -c 3 -H 4 -W 4 -o 2"),
    ("executeFusionPlan", "CBAInfer", "-n 2 -c 4 -H 6 -W 6 -k 8 -p 1 -q 1 -F 0"),
    ("reduceTensor", "reduce", "-D 6,50,3 -R 1"),
    ("dropoutForward", "dropout", "-d 4,8,9 -F 0"),
    ("RNNForwardTraining", "rnn", "-m gru -k 3 -n 3,2 -W 5 -H 4 -l 2 -b 1"),
    ("CTCLoss", "ctc", "-n 3 -k 12,9 -l 4,2"),
]


@pytest.mark.parametrize("api,cmd,flags", OTHER_OPS, ids=[c for _, c, _ in OTHER_OPS])
def test_a_wrong_result_fails_every_subcommand(capsys, monkeypatch, api, cmd, flags):
    if not hasattr(mi, api):
        pytest.skip(f"this build has no mi.{api} yet")
    code, out, _ = run_main(capsys, cmd, *flags.split())
    assert code == 0 and "Verifies OK" in out and "FAILED" not in out

    def planted(direction, arr):
        arr = np.array(arr, dtype=np.float32)
        arr.flat[arr.size // 3] += 0.5 + abs(float(arr.flat[arr.size // 3]))
        return arr

    monkeypatch.setattr(driver, "_corrupt_hook", planted)
    code, out, _ = run_main(capsys, cmd, *flags.split())
    assert code == 1 and re.search(r"FAILED: [0-9.e+-]+ > ", out), out


# ---- the other sub-commands ---------------------------------------------------------------------

@needs("poolingForward")
@pytest.mark.parametrize("flags", [
    "-n 2 -c 3 -H 10 -W 9 -y 3 -x 2 -p 1 -q 1 -v 2 -u 3 -m max",
    "-n 2 -c 3 -H 10 -W 9 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -m avg",
    "-n 2 -c 3 -H 10 -W 9 -y 2 -x 3 -p 1 -q 0 -v 1 -u 2 -m avg_in -M 1",
    "-M 0 --input 1x4x6x7x8 -Z 3 -y 2 -x 3 -s 2 -v 1 -u 2 -o 1 -p 0 -q 1 -m max -I miopenIndexUint32",
    "-W 2x3x11x12,NCHW -y 3 -x 3 -v 2 -u 2 -m avg -I miopenIndexUint16",
    "-n 1 -c 2 -H 8 -W 8 -k 2 -y 2 -x 2 -v 2 -u 2 -z valid",
], ids=["max", "avg", "avg_in-image-index", "3d-input-tensor", "W-tensor", "old-k-flag"])
def test_pool(capsys, flags):
    code, out, err = run_main(capsys, "pool", *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    verified(out, ["Forward Pooling", "Backward Pooling"])


@needs("poolingForward")
def test_pool_swapped_strides_follow_miopendriver(capsys):
    """pool's -v is the vertical stride and -u the horizontal one (the reverse of conv)."""
    code, out, _ = run_main(capsys, "pool", "-n", 1, "-c", 1, "-H", 12, "-W", 12, "-y", 2, "-x", 2,
                            "-v", 3, "-u", 1, "-F", 1, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["problem"]["y"] == [1, 1, 4, 11] and doc["problem"]["strides"] == [3, 1]


@needs("LRNForward")
@pytest.mark.parametrize("flags", ["-m within -N 3", "-m cross -N 5", "-m cross -N 4 -A 0.01 -B 0.5 -K 2"])
def test_lrn(capsys, flags):
    code, out, err = run_main(capsys, "lrn", "-n", 2, "-c", 7, "-H", 6, "-W", 5, *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    verified(out, ["Forward LRN", "Backward LRN"])


@needs("dropoutForward")
@pytest.mark.parametrize("cmd,flags", [
    ("dropout", "-d 2,3,32,32"),
    ("dropout", "-d 1000 -p 0.9 -l 5 -m 7"),
    ("dropout", "-d 2,3,4,5,6 -e 1"),
    ("dropout", "-d 7 -p 0"),
    ("dropout", "-d 3,5 -p 1 -F 2"),
    ("dropoutfp16", "-d 16,33"),
    ("dropoutbfp16", "-d 16,33 -p 0.25"),
], ids=["4d", "seed-1d", "use-mask-5d", "p0", "p1-bwd", "fp16", "bf16"])
def test_dropout(capsys, cmd, flags):
    code, out, err = run_main(capsys, cmd, *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    labels = {"1": ["Forward Dropout"], "2": ["Backward Dropout"]}.get(
        flags.split("-F ")[1][0] if "-F " in flags else "0", ["Forward Dropout", "Backward Dropout"])
    verified(out, labels)


@needs("RNNForwardTraining")
@pytest.mark.parametrize("flags", [
    "-m tanh -k 4 -n 4,3,3,1 -W 6 -H 5",
    "-m relu -k 3 -n 2 -W 4 -H 4 -p 1 -b 1 -r 1",
    "-m lstm -k 5 -n 4,4,2 -W 3 -H 6 -l 3 -b 1 -r 1",
    "-m gru -k 3 -n 3,2,1 -W 5 -H 4 -l 2 -b 1 -U 1 -P 0.4 -L 3",
    "-m lstm -k 3 -n 3,3,1 -W 5 -H 4 -q 1 -r 1",
    "-m gru -k 3 -n 3,2 -W 5 -H 4 -F 1 -c 1",
    "-m lstm -k 3 -n 3,2 -W 5 -H 4 -F 4",
], ids=["tanh", "relu-skip-bi", "lstm-3layers", "gru-dropout", "lstm-padded", "gru-inference",
        "lstm-wrw"])
def test_rnn(capsys, flags):
    code, out, err = run_main(capsys, "rnn", *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    forw = flags.split("-F ")[1][0] if "-F " in flags else "0"
    labels = {"1": ["Forward RNN"], "4": ["Backward Weights RNN"]}.get(
        forw, ["Forward RNN", "Backward Data RNN", "Backward Weights RNN"])
    verified(out, labels)


@needs("RNNForwardTraining")
def test_rnn_json_and_bad_flags(capsys):
    code, out, _ = run_main(capsys, "rnn", "-m", "gru", "-k", 2, "-n", "3,2", "-W", 3, "-H", 4,
                            "--json")
    doc = json.loads(out)
    assert code == 0 and doc["problem"]["batches"] == [3, 2] and doc["problem"]["mode"] == "gru"
    assert [r["direction"] for r in doc["results"]] == ["fwd", "bwd", "wrw"]
    for flags, words in [("-m foo", "relu, tanh, lstm or gru"), ("-n 2,3", "must not increase"),
                         ("-p 1 -W 5 -H 4", "skip input"), ("-c 1", "add -F 1"),
                         ("-F 9", "a sum of them"), ("-U 1 -P 2", "dropout rate")]:
        code, _, err = run_main(capsys, "rnn", *flags.split())
        assert code == 2 and words in err, (flags, err)


@needs("dropoutForward")
def test_dropout_json_and_bad_flags(capsys):
    code, out, _ = run_main(capsys, "dropout", "-d", "4,5", "-p", 0.3, "-l", 9, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["problem"] == {"x": [4, 5], "type": "fp32", "dropout": 0.3, "seed": 9,
                                            "use_mask": False}
    assert all(r["mask_matches"] and r["verified"] for r in doc["results"])
    for flags, words in [("-d 1,2,3,4,5,6", "1 to 5 dims"), ("-p 1.5", "the dropout rate"),
                         ("-e 2", "use_mask is 0 or 1"), ("-d 4,a", "lengths look like")]:
        code, _, err = run_main(capsys, "dropout", *flags.split())
        assert code == 2 and words in err, err


@needs("CTCLoss")
@pytest.mark.parametrize("flags", [
    "",
    "-n 6 -k 30,25,12 -l 8,3,0,5 -c 20 -b 7 -m 0",
    "-n 2 -k 40 -l 39 -c 2 -b 1",
    "-n 3 -k 5,4,3 -l 2 -c 3 -b 3 -m 1 -a 0 -v 0",
], ids=["defaults", "logprobs-blank7", "longest-label", "blank-last"])
def test_ctc(capsys, flags):
    code, out, err = run_main(capsys, "ctc", *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    verified(out, ["CTC loss", "CTC gradient"])


@needs("CTCLoss")
def test_ctc_json_and_bad_flags(capsys):
    code, out, _ = run_main(capsys, "ctc", "-n", 3, "-k", "7,6", "-l", 2, "-b", 2, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["problem"] == {"time_steps": 7, "batch": 3, "classes": 10,
                                            "blank_label_id": 2, "apply_softmax_layer": True,
                                            "input_len": [7, 6, 6], "label_len": [2, 2, 2]}
    assert [r["output"] for r in doc["results"]] == ["losses", "gradients"]
    assert all(r["verified"] for r in doc["results"])
    for flags, words in [("-m 2", "apply_softmax_layer is 0 or 1"), ("-c 0", "besides the blank"),
                         ("-k 4,a", "lengths look like"), ("-o 1", "not supported")]:
        code, _, err = run_main(capsys, "ctc", *flags.split())
        assert code == 2 and words in err, err
    # refused by the library: a label longer than its input, a blank outside the classes
    for flags, words in [("-k 3 -l 4", "labelLengths[0] = 4"), ("-b 10", "blank_label_id = 10")]:
        code, _, err = run_main(capsys, "ctc", *flags.split())
        assert code == 3 and words in err, err


@needs("activationForward")
@pytest.mark.parametrize("mode", range(10), ids=driver.ACTIV_NAMES)
def test_activ_every_mode(capsys, mode):
    extra = {6: ["-A", 0.5, "-B", 2.0, "-G", 1.5], 7: ["-A", 0.6], 8: ["-A", 0.1], 9: ["-A", 0.8],
             2: ["-A", 0.7, "-B", 1.3]}.get(mode, [])
    code, out, err = run_main(capsys, "activ", "-n", 2, "-c", 3, "-H", 5, "-W", 7, "-m", mode, *extra, "-i", 2)
    assert code == 0, out + err
    verified(out, ["Forward Activation", "Backward Activation"])


@needs("activationForward")
def test_activ_nhwc_and_old_power_flag(capsys):
    code, out, err = run_main(capsys, "activ", "-n", 2, "-c", 3, "-H", 4, "-W", 4, "-L", "NHWC",
                              "-m", 6, "-A", 1, "-B", 1, "-P", 2)
    assert code == 0, out + err
    verified(out, ["Forward Activation", "Backward Activation"])


@needs("softmaxForward_V2")
@pytest.mark.parametrize("algo", [0, 1, 2])
@pytest.mark.parametrize("mode", [0, 1])
def test_softmax(capsys, algo, mode):
    code, out, err = run_main(capsys, "softmax", "-n", 2, "-c", 5, "-H", 3, "-W", 4, "-a", algo,
                              "-m", mode, "-i", 2)
    assert code == 0, out + err
    verified(out, ["Forward Softmax", "Backward Softmax"])


@needs("softmaxForward_V2")
def test_softmax_blends_with_alpha_beta(capsys):
    code, out, err = run_main(capsys, "softmax", "-n", 2, "-c", 5, "-H", 3, "-W", 4, "-A", 0.5, "-B", 0.25)
    assert code == 0, out + err
    verified(out, ["Forward Softmax", "Backward Softmax"])


@needs("batchNormalizationForwardTraining")
@pytest.mark.parametrize("flags", [
    "-m 1 -F 1 -s 1 -r 1", "-m 0 -F 1", "-m 1 -F 1 -i 3 -r 1", "-m 1 -F 2 -r 1", "-m 0 -F 2",
    "-m 1 -F 0 -b 1 -s 1", "-m 0 -b 1", "-m 1 -b 1 -s 0", "-m 1 -D 3 -F 1 -s 1 -r 1", "-m 1 -L NHWC -F 1 -r 1",
], ids=["spatial-train", "peract-train", "spatial-train-3iter", "spatial-infer", "peract-infer",
        "spatial-bwd-saved", "peract-bwd", "spatial-bwd-recompute", "3d-spatial-train", "nhwc-train"])
def test_bnorm(capsys, flags):
    code, out, err = run_main(capsys, "bnorm", "-n", 4, "-c", 3, "-H", 5, "-W", 6, *flags.split())
    assert code == 0, out + err
    assert re.search(r"(Forward|Backward) Batch Normalization Verifies OK", out), out


@pytest.mark.parametrize("op", range(6))
def test_tensorop(capsys, op):
    code, out, err = run_main(capsys, "tensorop", "-n", 2, "-c", 3, "-H", 5, "-W", 4, "-o", op,
                              "-A", 1.5, "-B", -0.5, "-G", 0.25, "-v", 3, "-t", 1, "-i", 2)
    assert code == 0, out + err
    verified(out, ["Tensor Op"])
    assert "stats: tensor op," in out


# ---- usage errors: a clear message and exit status 2 ----------------------------------------------

@pytest.mark.parametrize("argv,message", [
    ("conv --bogus 1", "unknown flag --bogus"),
    ("conv -Q 1", "unknown flag -Q"),
    ("conv -n", "-n (--batchsize) needs a value"),
    ("conv -n four", "invalid int value 'four'"),
    ("conv -! 4", "need --spatial_dim 3"),
    ("conv -m diagonal", "the convolution mode is conv or trans"),
    ("conv -F 8", "-F 8"),
    ("conv -c 6 -k 4 -g 4", "the group count must divide"),
    ("conv -X 1", "need -m trans"),
    ("conv --spatial_dim 1 -H 4", "given with --spatial_dim 1"),
    ("conv --device tpu", "invalid choice 'tpu'"),
    ("conv stray", "unexpected argument 'stray'"),
    ("convint8 -n 1", "data type int8 is not supported by conv: use 'conv' or 'convfp16' or 'convbfp16'"),
    ("poolint8", "not supported by pool: use 'pool' or 'poolfp16' or 'poolbfp16'"),
    ("gemm -n 1", "does not implement"),
    ("nosuchop", "unknown sub-command"),
    ("pool -m median", "the pooling mode is max, avg or avg_in"),
    ("pool -W 2x3x4", "4-d (NCHW) or 5-d"),
    ("activ -m 11", "activation modes are 0..9"),
    ("activ -P 2 -G 3", "contradict"),
    ("softmax -a 3", "logsoftmax (2)"),
    ("bnorm -m 2", "per-activation (0) or spatial (1)"),
    ("tensorop -o 9", "SetTensor"),
    ("net", "net needs a network name"),
    ("net resnet18", "unknown network"),
    ("net resnet50 --layers nothing*", "matches no layer"),
    ("net resnet50 --directions up", "--directions up"),
])
def test_usage_errors_exit_2_with_a_message(capsys, argv, message):
    code, out, err = run_main(capsys, *argv.split())
    assert code == 2
    assert message in err and "error:" in err
    assert "Verifies" not in out


def test_usage_error_from_the_command_line(tmp_path):
    r = run_cli(tmp_path, "conv", "--batch_size", 4)
    assert r.returncode == 2
    assert "unknown flag --batch_size" in r.stderr and "did you mean --batchsize" in r.stderr


def test_no_arguments_prints_usage_and_exits_2(capsys):
    code, _, err = run_main(capsys)
    assert code == 2 and "sub-commands: conv, pool" in err


def test_help_lists_the_flags(capsys):
    code, out, _ = run_main(capsys, "conv", "--help")
    assert code == 0
    assert "-F, --forw" in out and "-_, --spatial_dim" in out and "--device" in out


def _has_gpu():
    try:
        mi.Handle(device="gpu")
        return True
    except mi.MIOpenError:
        return False


@pytest.mark.skipif(_has_gpu(), reason="a GPU is present: --device gpu runs")
def test_device_gpu_without_a_gpu_says_so(capsys):
    code, _, err = run_main(capsys, "conv", "-n", 1, "-c", 1, "-H", 4, "-W", 4, "-k", 1, "--device", "gpu")
    assert code == 3 and "device" in err and "error:" in err


def test_library_errors_exit_3(capsys):
    code, _, err = run_main(capsys, "conv", "-n", 1, "-c", 1, "-H", 3, "-W", 3, "-k", 1, "-y", 5, "-x", 5)
    assert code == 3 and "miopenStatusBadParm" in err


# ---- the logged command runs unchanged and reproduces the call -----------------------------------

LOGGING_SCRIPT = textwrap.dedent("""
    import numpy as np, miopen_cy as mi

    def desc(shape):
        d = mi.TensorDescriptor()
        mi.setTensorDescriptor(d, mi.miopenFloat, len(shape), list(shape), None)
        return d

    h = mi.Handle()
    rng = np.random.default_rng(0)
    # (x, w, pads, strides, dilations, groups, transpose, output pads, direction)
    cases = [((2, 8, 9, 8), (6, 4, 3, 2), (1, 2), (2, 1), (1, 2), 2, False, None, "fwd"),
             ((2, 4, 5, 6), (4, 3, 3, 3), (1, 1), (2, 2), (1, 1), 1, True, (1, 0), "bwd"),
             ((1, 4, 5, 6, 4), (6, 2, 3, 2, 2), (1, 0, 1), (1, 2, 1), (1, 1, 2), 2, False, None, "wrw"),
             ((2, 3, 17), (5, 3, 3), (1,), (2,), (1,), 1, False, None, "fwd")]
    for xs, ws, pads, strides, dils, g, trans, adj, direction in cases:
        dims = len(xs) - 2
        cd = mi.ConvolutionDescriptor()
        mi.initConvolutionNdDescriptor(cd, dims, pads, strides, dils, mi.miopenTranspose if trans else mi.miopenConvolution)
        mi.setConvolutionGroupCount(cd, g)
        if adj:
            mi.setTransposeConvNdOutputPadding(cd, dims, adj)
        xd, wd = desc(xs), desc(ws)
        ys = mi.getConvolutionNdForwardOutputDim(cd, xd, wd)
        yd = desc(ys)
        x = rng.random(xs, dtype=np.float32); w = rng.random(ws, dtype=np.float32); y = rng.random(ys, dtype=np.float32)
        if direction == "fwd":
            mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 1, None, 0, False)
        elif direction == "bwd":
            mi.findConvolutionBackwardDataAlgorithm(h, yd, y, wd, w, cd, xd, x, 1, None, 0, False)
        else:
            mi.findConvolutionBackwardWeightsAlgorithm(h, yd, y, xd, x, cd, wd, w, 1, None, 0, False)
        print("PROBLEM", repr((xs, ws, pads, strides, dils, g, trans, adj or (0,) * dims, direction)), flush=True)
""")


def test_logged_commands_run_unchanged_and_describe_the_same_problem(tmp_path, capsys):
    r = subprocess.run([sys.executable, "-c", LOGGING_SCRIPT], cwd=tmp_path, capture_output=True, text=True,
                       env=dict(os.environ, MIOPEN_ENABLE_LOGGING_CMD="1"), timeout=120)
    assert r.returncode == 0, r.stderr
    lines = [l.split("] ", 1)[1] for l in r.stderr.splitlines() if "Command [LogCmdConvolution] " in l]
    problems = [l.split(" ", 1)[1] for l in r.stdout.splitlines() if l.startswith("PROBLEM")]
    assert len(lines) == len(problems) == 4, r.stderr
    for line, problem in zip(lines, problems):
        xs, ws, pads, strides, dils, g, trans, adj, direction = ast.literal_eval(problem)
        argv = shlex.split(line)
        assert argv[0] == "miopen-driver"
        code, out, err = run_main(capsys, *argv[1:], "--json")
        assert code == 0, line + out + err
        doc = json.loads(out)
        p = doc["problem"]
        assert (tuple(p["x"]), tuple(p["w"]), tuple(p["pads"]), tuple(p["strides"]), tuple(p["dilations"]),
                p["groups"], p["mode"] == "trans", tuple(p["output_pads"])) == \
               (xs, ws, pads, strides, dils, g, trans, adj), line
        assert [res["direction"] for res in doc["results"]] == [direction]
        assert doc["results"][0]["verified"] is True
    # And one exactly as logged, through the console entry point.
    r = run_cli(tmp_path, *shlex.split(lines[0])[1:])
    assert r.returncode == 0, r.stdout + r.stderr
    verified(r.stdout, ["Forward Convolution"])
    assert "MIOpen Forward Conv. Algorithm:" in r.stdout


# ---- --json ---------------------------------------------------------------------------------------

def test_json_output_parses(capsys):
    code, out, err = run_main(capsys, "conv", "-n", 1, "-c", 4, "-H", 7, "-W", 7, "-k", 4, "-p", 1, "-q", 1,
                              "-i", 3, "--json")
    assert code == 0, err
    doc = json.loads(out)                       # nothing else on stdout
    assert doc["ok"] is True and doc["exit_code"] == 0 and doc["subcommand"] == "conv"
    assert doc["device"] == "cpu" and doc["problem"]["y"] == [1, 4, 7, 7]
    assert [r["direction"] for r in doc["results"]] == ["fwd", "bwd", "wrw"]
    for r in doc["results"]:
        assert r["verified"] is True and r["error"] < r["tolerance"]
        assert r["iterations"] == 3 and r["time_ms"] > 0 and r["flop"] == 2 * 4 * 4 * 9 * 49
        assert r["solver"] and r["algorithm_name"] in ("GEMM", "Direct", "FFT", "Winograd", "ImplicitGEMM")


# ---- net ------------------------------------------------------------------------------------------

def test_resnet50_has_the_distinct_layers_of_v1_5():
    layers = driver.resnet50_layers(8)
    assert len(layers) == 23
    assert sum(count for _, _, count in layers) == 53          # every convolution of ResNet-50
    by_name = {n: c for n, c, _ in layers}
    s2 = by_name["layer2.0.conv2"]                              # v1.5: stride 2 in the 3x3
    assert (s2.c, s2.k, s2.spatial, s2.filt, s2.strides) == (128, 128, (56, 56), (3, 3), (2, 2))
    assert by_name["conv1"].n == 8


def test_net_resnet50_table_and_total(capsys, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    code = driver.main(["net", "resnet50", "--batch", "1", "--layers", "layer4.1.*,layer3.0.downsample",
                        "--iter", "2", "--commands", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = [l for l in out.splitlines() if re.match(r"(layer\S+)\s+\d+->\d+", l)]
    assert len(rows) == 3 * 3
    assert all(re.search(r"\s(fwd|bwd|wrw)\s+\w+ / [\w<>-]+\s+[0-9.]+\s+[0-9.]+\s+OK", r) for r in rows), out
    assert re.search(r"^total: [0-9.]+ ms, [0-9.]+ TFLOP/s; verification: 9/9 OK$", out, re.M)
    assert "miopen-driver conv -n 1 -c 2048 -H 7 -W 7 -k 512" in out
    assert "\r[" in tty.getvalue() and "Find" in tty.getvalue()      # the progress line


def test_net_json_and_directions(capsys):
    code, out, _ = run_main(capsys, "net", "resnet50", "--batch", 1, "--layers", "layer4.0.conv3",
                            "--directions", "fwd,wrw", "--iter", 1, "--json")
    assert code == 0
    doc = json.loads(out)
    assert [r["direction"] for r in doc["results"]] == ["fwd", "wrw"]
    assert doc["results"][0]["count"] == 3 and set(doc["totals"]) == {"fwd", "wrw"}
    assert all(r["verified"] for r in doc["results"])
    assert all(r["solver"] for r in doc["results"])             # asked of the library, never UNKNOWN


# ---- fp16 / bf16 sub-commands (MIOpenDriver's activfp16, softmaxfp16, ..., and ours: *bfp16) ----

try:
    import ml_dtypes  # noqa: F401  (bf16 host data)
    HAVE_BF16 = True
except ImportError:  # pragma: no cover - ml_dtypes is in the test extra
    HAVE_BF16 = False

TYPED_CASES = {
    "conv": "-n 2 -c 4 -H 7 -W 6 -k 6 -y 3 -x 3 -p 1 -q 1",
    "activ": "-n 2 -c 3 -H 5 -W 5 -m 3",
    "softmax": "-n 2 -c 5 -H 3 -W 4",
    "pool": "-n 2 -c 3 -H 9 -W 9 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2",
    "lrn": "-n 2 -c 5 -H 6 -W 6 -m cross",
    "tensorop": "-n 2 -c 3 -H 4 -W 4 -o 2",
    "bnorm": "-n 4 -c 3 -H 5 -W 5 -m 1 -F 1",
    "CBAInfer": "-n 2 -c 4 -H 6 -W 6 -k 8 -p 1 -q 1 -F 4",
    "dropout": "-d 4,7,9 -p 0.3",
    "rnn": "-m lstm -k 3 -n 3,2 -W 5 -H 4 -l 2 -r 1 -b 1",
}


def _typed(name):
    base, dt, _, _ = driver.VARIANTS[name]
    marks = [pytest.mark.skipif(dt is driver.dtypes.BF16 and not HAVE_BF16, reason="ml_dtypes not installed")]
    return pytest.param(name, base, marks=marks, id=name)


@pytest.mark.parametrize("name,base", [_typed(n) for n in driver.VARIANTS])
def test_typed_subcommands_run_and_verify(capsys, name, base):
    code, out, err = run_main(capsys, name, *TYPED_CASES[base].split(), "-i", 2, "--json")
    doc = json.loads(out)
    assert doc["problem"]["type"] == driver.VARIANTS[name][1].name
    assert code == 0, out + err
    assert all(r["verified"] for r in doc["results"]) and doc["results"]


def test_miopen_driver_names_and_ours():
    miopen = {n for n, v in driver.VARIANTS.items() if v[3]}
    assert miopen == {"convfp16", "convbfp16", "activfp16", "softmaxfp16", "poolfp16", "lrnfp16",
                      "tensoropfp16", "bnormfp16", "bnormfp16fp32", "bnormbfp16fp32", "CBAInferfp16",
                      "dropoutfp16", "rnnfp16"}
    assert {"activbfp16", "softmaxbfp16", "poolbfp16", "lrnbfp16", "tensoropbfp16"} <= set(driver.VARIANTS)
    assert set(driver.VARIANTS) <= set(driver.COMMANDS)


CONV_TYPED = ["convfp16", pytest.param("convbfp16", marks=pytest.mark.skipif(not HAVE_BF16,
                                                                           reason="ml_dtypes not installed"))]


@pytest.mark.parametrize("name", CONV_TYPED)
@pytest.mark.parametrize("flags", [
    "-n 2 -c 4 -H 7 -W 6 -k 6 -y 3 -x 3 -p 1 -q 1",
    "-n 2 -c 4 -H 7 -W 6 -k 6 -y 3 -x 3 -p 1 -q 1 --in_layout NHWC --fil_layout NHWC --out_layout NHWC",
    "-n 1 -c 4 -H 9 -W 8 -k 4 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -l 2 -j 2 -g 2 -I NHWC -f NHWC -O NHWC",
    "--spatial_dim 3 -n 1 -c 2 -! 4 -H 5 -W 6 -k 3 -@ 3 -y 3 -x 3 -$ 1 -p 1 -q 1",
    "--spatial_dim 3 -n 1 -c 2 -! 4 -H 5 -W 6 -k 3 -@ 1 -y 1 -x 1 -I NDHWC -f NDHWC -O NDHWC",
    "-n 2 -c 4 -H 5 -W 6 -k 6 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -m trans -Y 1 -X 0",
], ids=["nchw", "nhwc", "nhwc-grouped-strided-dilated", "ncdhw", "ndhwc", "trans"])
def test_conv_typed_layouts_verify_with_miopen_driver_tolerances(capsys, name, flags):
    code, out, err = run_main(capsys, name, *flags.split(), "-i", 2, "-t", 1)
    assert code == 0, out + err
    verified(out, ["Forward Convolution", "Backward Convolution Data", "Backward Convolution Weights"])
    # MIOpenDriver's (driver/conv_driver.hpp): 8.2e-3 in fp16, x8 in bf16; forward and backward
    # data x10 for implicit GEMM (algorithm 5); backward weights x2, x5 more for fp16 implicit GEMM.
    base = 8.2e-3 * (8 if name == "convbfp16" else 1)
    algos = [int(a) for a in re.findall(r"Conv\. Algorithm: (\d+)", out)]
    assert len(algos) == 3, out
    igemm = [a == 5 for a in algos]
    expect = [base * (10 if igemm[0] else 1), base * (10 if igemm[1] else 1),
              2 * base * (5 if igemm[2] and name == "convfp16" else 1)]
    tols = [float(t) for t in re.findall(r"Verifies OK on CPU reference \([0-9.e+-]+ < ([0-9.e+-]+)\)", out)]
    assert tols == pytest.approx(expect)


@pytest.mark.parametrize("name", CONV_TYPED)
def test_conv_typed_json_key_carries_type_and_layout(capsys, name):
    code, out, err = run_main(capsys, name, "-n", 1, "-c", 4, "-H", 5, "-W", 5, "-k", 4, "-y", 3, "-x", 3,
                              "-I", "NHWC", "-f", "NHWC", "-O", "NHWC", "-F", 1, "-i", 1, "--json")
    assert code == 0, out + err
    doc = json.loads(out)
    word = "FP16" if name == "convfp16" else "BF16"
    assert doc["results"][0]["key"].endswith(f"-NHWC-NHWC-NHWC-{word}-F")
    assert doc["results"][0]["bytes_written"] == 1 * 4 * 3 * 3 * 2


def test_conv_typed_a_wrong_result_fails(capsys, monkeypatch):
    def planted(direction, arr):
        arr = np.array(arr, dtype=np.float32)
        arr.flat[arr.size // 3] += 0.5 + abs(float(arr.flat[arr.size // 3]))
        return arr

    monkeypatch.setattr(driver, "_corrupt_hook", planted)
    code, out, _ = run_main(capsys, "convfp16", "-n", 1, "-c", 4, "-H", 5, "-W", 5, "-k", 4, "-F", 1)
    assert code == 1 and re.search(r"FAILED: [0-9.e+-]+ > ", out), out


@pytest.mark.parametrize("dtype,layout", [("fp16", "nhwc"), ("bf16", "nchw"), ("fp32", "nhwc")])
def test_net_dtype_and_layout(capsys, dtype, layout):
    if dtype == "bf16" and not HAVE_BF16:
        pytest.skip("ml_dtypes not installed")
    code, out, err = run_main(capsys, "net", "resnet50", "--batch", 1, "--layers", "layer4.1.conv1",
                              "--dtype", dtype, "--layout", layout, "--iter", 1, "--commands", 1, "--json")
    assert code == 0, out + err
    doc = json.loads(out)
    assert doc["dtype"] == dtype and doc["layout"] == layout
    assert all(r["verified"] for r in doc["results"]) and len(doc["results"]) == 3
    word = {"fp16": "FP16", "bf16": "BF16", "fp32": "FP32"}[dtype]
    lay = "NHWC-NHWC-NHWC" if layout == "nhwc" else "NCHW"
    assert all(r["key"].endswith(f"-{lay}-{word}-{r['key'][-1]}") for r in doc["results"])
    cmd = doc["results"][0]["command"]
    assert cmd.startswith("miopen-driver conv" + {"fp16": "fp16", "bf16": "bfp16", "fp32": ""}[dtype] + " ")
    assert ("--in_layout NHWC" in cmd) == (layout == "nhwc")


@pytest.mark.parametrize("name", ["softmaxfp16", pytest.param("softmaxbfp16", marks=pytest.mark.skipif(
    not HAVE_BF16, reason="ml_dtypes not installed"))])
@pytest.mark.parametrize("algo", [0, 1, 2])
@pytest.mark.parametrize("mode", [0, 1])
def test_softmax_typed(capsys, name, algo, mode):
    code, out, err = run_main(capsys, name, "-n", 2, "-c", 5, "-H", 3, "-W", 4, "-a", algo, "-m", mode,
                              "-i", 2, "-t", 1)
    assert code == 0, out + err
    verified(out, ["Forward Softmax", "Backward Softmax"])
    tol = float(OK_LINE.search(out).group(2))
    assert tol == (5e-2 if name == "softmaxfp16" else 0.4)      # MIOpenDriver's fp16 tolerance; x8 for bf16


@pytest.mark.parametrize("flags", ["-L NHWC -c 64", "-L NHWC -c 3 -A 0.5 -B 0.25", "-m 0 -c 1000 -H 1 -W 1"])
def test_softmaxfp16_layouts_and_blend(capsys, flags):
    code, out, err = run_main(capsys, "softmaxfp16", "-n", 2, "-H", 3, "-W", 4, *flags.split(), "-i", 2)
    assert code == 0, out + err
    verified(out, ["Forward Softmax", "Backward Softmax"])


def test_softmaxfp16_a_wrong_result_fails(capsys, monkeypatch):
    def planted(direction, arr):
        arr = np.array(arr, dtype=np.float32)
        arr.flat[arr.size // 3] += 0.5 + abs(float(arr.flat[arr.size // 3]))
        return arr

    monkeypatch.setattr(driver, "_corrupt_hook", planted)
    code, out, _ = run_main(capsys, "softmaxfp16", "-n", 2, "-c", 5, "-H", 3, "-W", 4)
    assert code == 1 and re.search(r"FAILED: [0-9.e+-]+ > ", out), out


@pytest.mark.parametrize("argv,message", [
    ("softmaxfp16 -a 3", "logsoftmax (2)"),
    ("activbfp16 -m 11", "activation modes are 0..9"),
    ("poolfp16 -m median", "the pooling mode is max, avg or avg_in"),
    ("lrnbfp16 -N 0", "the window must be >= 1"),
    ("bnormfp16fp32 -m 2", "per-activation (0) or spatial (1)"),
    ("tensoropfp16 -o 9", "SetTensor"),
    ("softmaxfp16 --bogus 1", "unknown flag --bogus for 'softmaxfp16'"),
    ("bnormbfp16fp32 -L NCDHW", "-L NCDHW"),
])
def test_typed_usage_errors_exit_2(capsys, argv, message):
    code, out, err = run_main(capsys, *argv.split())
    assert code == 2
    assert message in err and "error:" in err


def test_typed_help_lists_the_flags(capsys):
    code, out, _ = run_main(capsys, "bnormfp16fp32", "--help")
    assert code == 0 and "usage: miopen-driver bnormfp16fp32" in out and "-L, --layout" in out


# ---- the solver that ran, and `solvers` ----------------------------------------------------------

@pytest.mark.parametrize("env", [{}, {"MIOPEN_DEBUG_DISABLE_FIND_DB": "1"},
                                 {"MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK": "1"}],
                         ids=["find-db", "no-find-db", "forced-immediate-fallback"])
def test_conv_names_the_solver_that_ran(capsys, monkeypatch, env):
    """The name comes from the library (immediate mode's solution id, miopenCyGetSolverIdName),
    never from the find-db file; it is a registered solver of the algorithm Find picked."""
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    code, out, err = run_main(capsys, "conv", "-n", 1, "-c", 8, "-H", 10, "-W", 10, "-k", 8, "-t", 1,
                              "-i", 2, "--json")
    assert code == 0, out + err
    names = {name: algo for _, name, algo, _ in driver.solvers.registry()}
    for r in json.loads(out)["results"]:
        assert r["solver"] in names, r
        assert names[r["solver"]] == r["algorithm_name"], r


def test_solvers_without_a_problem_prints_the_registry_table(capsys):
    code, out, _ = run_main(capsys, "solvers")
    assert code == 0
    assert driver.registry_table() in out
    assert "| 85 | ConvDirectNaiveConvFwd | Direct | `MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD` |" in out


def test_solvers_conv_lists_every_solver_with_applicability_and_find_times(capsys, monkeypatch):
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM_FWD_REST", "0")
    code, out, err = run_main(capsys, "solvers", "conv", "-n", 1, "-c", 8, "-H", 10, "-W", 10, "-k", 8,
                              "-F", 1, "-t", 1)
    assert code == 0, out + err
    assert re.search(r"Forward Convolution on cpu: \d+ of \d+ solvers applicable", out)
    lines = {l.split()[1]: l for l in out.splitlines() if re.match(r"\s*\d+\s+\S+\s+\w+\s+MIOPEN_", l)}
    assert len(lines) == mi.cyGetSolverCount()
    rest = lines["GemmFwdRest"]
    assert " off " in rest and rest.endswith("no: disabled by MIOPEN_DEBUG_CONV_GEMM_FWD_REST=0")
    naive = lines["ConvDirectNaiveConvFwd"]
    assert re.search(r" on\s+0\s+[0-9.]+\s+yes$", naive), naive            # workspace, Find's time
    assert lines["ConvDirectNaiveConvBwd"].endswith("no: not applicable: backward data only")


def test_solvers_conv_json_covers_each_direction(capsys):
    code, out, _ = run_main(capsys, "solvers", "conv", "-n", 1, "-c", 4, "-H", 6, "-W", 6, "-k", 4,
                            "-F", 6, "--json")
    assert code == 0
    rows = json.loads(out)["results"]
    assert [r["direction"] for r in rows] == ["bwd"] * mi.cyGetSolverCount() + ["wrw"] * mi.cyGetSolverCount()
    for r in rows:
        assert r["applicable"] == (r["reason"] == "")
        assert r["find_time_ms"] is None                                        # no -t 1: no Find
    assert any(r["applicable"] for r in rows if r["direction"] == "bwd")
    assert any(r["applicable"] for r in rows if r["direction"] == "wrw")


def test_solvers_usage_errors(capsys):
    code, _, err = run_main(capsys, "solvers", "pool")
    assert code == 2 and "solvers conv <conv flags>" in err
    code, _, err = run_main(capsys, "solvers", "conv", "--nonsense", 1)
    assert code == 2 and "unknown flag --nonsense" in err


# ---- CBAInfer: MIOpenDriver's fusion sub-command ------------------------------------------------

@needs("executeFusionPlan")
@pytest.mark.parametrize("mode", range(7))
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_cbainfer_every_fusion_mode(capsys, mode, layout):
    code, out, err = run_main(capsys, "CBAInfer", "-n", 2, "-c", 4, "-H", 6, "-W", 6, "-k", 4, "-p", 1,
                              "-q", 1, "-M", 1, "-m", 8, "-F", mode, "-L", layout, "--json")
    doc = json.loads(out)
    assert code == 0, out + err
    assert doc["problem"]["fusion_mode"] == mode and doc["results"][0]["verified"]


@needs("executeFusionPlan")
@pytest.mark.parametrize("flags, message", [
    ("-F 7", "fusion modes are 0..6"),
    ("-M 2", "per-activation"),
    ("-z same", "padding"),
    ("-g 3", "-g 3"),
])
def test_cbainfer_usage_errors(capsys, flags, message):
    code, _, err = run_main(capsys, "CBAInfer", "-n", 1, "-c", 4, "-H", 4, "-W", 4, "-k", 4, *flags.split())
    assert code == 2 and message in err


# ---- reduce -------------------------------------------------------------------------------------

@needs("reduceTensor")
@pytest.mark.parametrize("cmd", ["reduce", "reducefp16", "reducefp64"])
@pytest.mark.parametrize("flags", [
    "",                                                   # MIOpenDriver's defaults: 100,60,16,240 over 0,2
    "-D 64,3000 -R 1 -O 3 -I 1",
    "-D 3000,64 -R 0 -O 2 -I 1 -N 1",
    "-D 2,3,4,5,6 -R 0,2,4 -O 7 -A 0.5 -B 2",
    "-D 200000 -R 0 -O 5",
    "-D 7,9,11 -R 0,1,2 -O 4 -I 1",
    "-D 5,6 -R 1 -O 1 -C 6",
])
def test_reduce_verifies(capsys, cmd, flags):
    code, out, err = run_main(capsys, cmd, *flags.split(), "--json")
    assert code == 0, out + err
    doc = json.loads(out)
    assert doc["results"][0]["verified"] and doc["subcommand"] == cmd
    if "-I 1" in flags:
        assert doc["problem"]["indices"] == 1


@needs("reduceTensor")
def test_reduce_wrong_index_fails(capsys, monkeypatch):
    import miopen_cy.driver.reduce as red
    real = red.reduce_ref.reduce

    def shifted(*args, **kw):
        v, i = real(*args, **kw)
        return v, i + 1
    monkeypatch.setattr(red.reduce_ref, "reduce", shifted)
    code, out, _ = run_main(capsys, "reduce", "-D", "4,30", "-R", "1", "-O", "3", "-I", "1")
    assert code == 1 and "indices (wrong count) FAILED" in out


@needs("reduceTensor")
@pytest.mark.parametrize("flags, message", [
    ("-D 4,5 -R 2", "-R 2: dims in 0..1"),
    ("-D 4,x", "-D '4,x'"),
    ("-O 9", "-O 9"),
    ("-D 1,2,3,4,5,6,7 -R 0", "1 to 6 lengths"),
])
def test_reduce_usage_errors(capsys, flags, message):
    code, _, err = run_main(capsys, "reduce", *flags.split())
    assert code == 2 and message in err
