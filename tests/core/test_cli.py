from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faithguard.cli import main


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "faithguard", *args], input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["check", "-q", "", "-r", "x"], "query is empty"),
        (["check", "-q", "@/no/such/file", "-r", "x"], "no such file"),
        (["inspect", "-q", "hi", "-d", "/no/such/doc"], "no such file"),
    ],
)
def test_bad_input_one_line_reason(argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert reason in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_binary_and_undecodable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bin").write_bytes(b"\x00\x01\x02")
    (tmp_path / "latin").write_bytes("caf\xe9".encode("latin-1"))
    assert main(["check", "-q", "hi", "-r", f"@{tmp_path / 'bin'}"]) == 2
    assert "binary" in capsys.readouterr().err
    assert main(["check", "-q", f"@{tmp_path / 'latin'}", "-r", "x"]) == 2
    assert "UTF-8" in capsys.readouterr().err
    assert main(["check", "-q", "hi", "-r", f"@{tmp_path}"]) == 2
    assert "directory" in capsys.readouterr().err


def test_too_long_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from faithguard.calls import MAX_INPUT_CHARS

    big = tmp_path / "big.txt"
    big.write_text("a" * (MAX_INPUT_CHARS + 1))
    assert main(["check", "-q", f"@{big}", "-r", "x"]) == 2
    assert "limit" in capsys.readouterr().err


def test_check_json_and_stdin() -> None:
    proc = run(
        "check", "-q", "List three rivers in Spain.", "-r", "-", "--format", "json", stdin=b"The Ebro and the Tagus."
    )
    assert proc.returncode == 0, proc.stderr.decode()
    data = json.loads(proc.stdout)
    assert {"constraint_score", "band", "perfect", "constraints", "verdicts", "judged", "total"} <= set(data)
    quantity = [c for c in data["constraints"] if c["category"] == "quantity"]
    assert quantity and quantity[0]["status"] == "violated"


def test_table_output_and_plugins() -> None:
    proc = run("check", "-q", "List three rivers in Spain.", "-r", "1. Ebro\n2. Tagus\n3. Douro")
    assert proc.returncode == 0, proc.stderr.decode()
    assert "Constraint Score" in proc.stdout.decode()
    plugins = run("plugins", "--format", "json")
    assert plugins.returncode == 0
    names = {p["name"] for p in json.loads(plugins.stdout)["plugins"]}
    assert "faithguard.engine.plugin" in names


def test_stdin_only_once(capsys: pytest.CaptureFixture[str]) -> None:
    proc = run("check", "-q", "-", "-r", "-", stdin=b"hello")
    assert proc.returncode == 2 and b"only once" in proc.stderr


_SHOW_BLAS = (
    "import os, sys; from faithguard.cli import console; sys.argv = ['faithguard', '--version']; console(); "
    "print(os.environ.get('OMP_NUM_THREADS'), os.environ.get('OPENBLAS_NUM_THREADS'))"
)
_HOST_CALL = "import os; from faithguard.cli import main; main(['--version']); print(os.environ.get('OMP_NUM_THREADS'))"


@pytest.mark.parametrize(("given", "expected"), [(None, "1 1"), ("3", "3 None")])
def test_the_cli_runs_blas_single_threaded_unless_told(given: str | None, expected: str) -> None:
    import os

    env = {
        k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    if given is not None:
        env["OMP_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", _SHOW_BLAS], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == expected


def test_a_host_calling_main_keeps_its_environment() -> None:
    import os

    env = {
        k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    out = subprocess.run([sys.executable, "-c", _HOST_CALL], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "None"


def test_a_file_argument_that_never_ends_is_refused_not_read_forever(capsys: pytest.CaptureFixture[str]) -> None:
    # a character device reports size 0: the read itself is bounded (helper 92: @/dev/zero ran out of memory)
    assert main(["check", "-q", "@/dev/zero", "-r", "x"]) == 2
    err = capsys.readouterr().err
    assert "limit" in err or "binary" in err


def test_a_reader_that_goes_away_gets_no_traceback(tmp_path: Path) -> None:
    # "faithguard eval ... --json | head": the pipe closes before the output is written
    titles = tmp_path / "titles.txt"
    titles.write_text("Alley-oop\nPump fake\n", encoding="utf-8")
    command = ["kb", "build", str(titles), "--out", str(tmp_path / "kb.idx")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "faithguard", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the interpreter has even imported faithguard
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
