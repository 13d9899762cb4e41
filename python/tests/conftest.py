"""Shared helpers: the `quads` command line the package is checked against."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs `quads ARGS` (the build's binary, or $QUADS_CLI) and returns its stdout."""
    path = os.environ.get("QUADS_CLI", str(ROOT / "target" / "release" / "quads"))
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: build it with `cargo build --release`, or set QUADS_CLI")

    def run(*args):
        out = subprocess.run([path, *args], capture_output=True, text=True)
        return out

    return run


@pytest.fixture(scope="session")
def release():
    """The folder of the build's binaries (quads, quads-bot, quads-jail): $QUADS_CLI's."""
    path = pathlib.Path(os.environ.get("QUADS_CLI", str(ROOT / "target" / "release" / "quads")))
    return path.parent
