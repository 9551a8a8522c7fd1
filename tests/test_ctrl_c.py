"""Ctrl-C wherever it lands: inside a compiled kernel's hand-back numba raises a
``SystemError`` caused by the ``KeyboardInterrupt`` (analysis.ctrl_c). A rollout still gives
the games completed, an archive's analysis still keeps what it stored, any other command
says "Aborted!"; a ``SystemError`` that is no Ctrl-C is not swallowed. The long run sends
real SIGINTs to ``jacquet rollout``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from analysis import rollout as rollout_module
from analysis.ctrl_c import ctrl_c_held, is_ctrl_c
from analysis.network import Network
from jacquet_cli import main
from notation.messages import say


def numba_ctrl_c() -> SystemError:
    """The error numba raises when a Ctrl-C lands in its unpickling of a kernel's result."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("CPUDispatcher(<function _many>) returned a result with an "
                              "exception set") from interrupt
    except SystemError as error:
        return error


def test_a_ctrl_c_is_told_from_other_errors():
    assert is_ctrl_c(KeyboardInterrupt()) and is_ctrl_c(numba_ctrl_c())
    assert not is_ctrl_c(SystemError("a real fault")) and not is_ctrl_c(ValueError())
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemError("raised while handling it") from None  # context only, suppressed
    except SystemError as error:
        assert is_ctrl_c(error)  # the context still says what happened


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("nets") / "backgammon.npz"
    Network.create("backgammon", 8, seed=1).save(path)
    return str(path)


@pytest.mark.parametrize("stop", [KeyboardInterrupt, numba_ctrl_c])
def test_a_rollout_stopped_in_a_kernel_gives_the_games_completed(net_file, monkeypatch, stop):
    real = rollout_module.Rollout.games

    def stopping(self, numbers):
        if 3 in numbers:  # side by side, three games a chunk
            raise stop()
        return real(self, numbers)

    monkeypatch.setattr(rollout_module.Rollout, "games", stopping)
    result = CliRunner().invoke(main, ["rollout", "--variant", "backgammon", "--dice", "31", "--play", "8/5 6/5",
                                       "--games", "10", "--truncate", "2", "--jobs", "1", "--net", net_file])
    assert result.exit_code == 130, result.output
    assert "INTERRUPTED: 3 of 10 games" in result.output


@pytest.mark.parametrize("presses, completed", [(1, 6), (2, 3)])
def test_a_ctrl_c_is_held_to_the_end_of_the_games_under_way_and_a_second_stops_at_once(
        net_file, monkeypatch, python_ctrl_c, presses, completed):
    real = rollout_module.Rollout.games

    def pressed_during(self, numbers):
        if 3 in numbers:  # the second chunk of three games
            for _ in range(presses):
                os.kill(os.getpid(), signal.SIGINT)
        return real(self, numbers)

    monkeypatch.setattr(rollout_module.Rollout, "games", pressed_during)
    result = CliRunner().invoke(main, ["rollout", "--variant", "backgammon", "--dice", "31", "--play", "8/5 6/5",
                                       "--games", "10", "--truncate", "2", "--jobs", "1", "--net", net_file])
    assert result.exit_code == 130, result.output
    assert f"INTERRUPTED: {completed} of 10 games" in result.output
    assert say("cli.ctrl-c.held") in result.output


def test_a_ctrl_c_that_python_does_not_raise_is_left_alone():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a pool's worker
    try:
        with ctrl_c_held() as held:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            held.check()  # nothing pressed: goes on
    finally:
        signal.signal(signal.SIGINT, previous)


def test_another_command_stopped_in_a_kernel_says_aborted_and_a_real_fault_is_not_hidden(monkeypatch):
    from analysis import analyse_jobs

    sample = "samples/jacquet/annotated-game.jqn"
    monkeypatch.setattr(analyse_jobs, "analyse_all", lambda *args: (_ for _ in ()).throw(numba_ctrl_c()))
    stopped = CliRunner().invoke(main, ["analyse", sample, "--jobs", "1"])
    assert stopped.exit_code == 1 and "Aborted!" in stopped.output and stopped.exception is not None
    assert not isinstance(stopped.exception, SystemError)
    monkeypatch.setattr(analyse_jobs, "analyse_all", lambda *args: (_ for _ in ()).throw(SystemError("a fault")))
    failed = CliRunner().invoke(main, ["analyse", sample, "--jobs", "1"])
    assert isinstance(failed.exception, SystemError) and "Aborted!" not in failed.output


AS_FROM_A_TERMINAL = """
import runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever the test runner left
sys.argv = ["jacquet", "rollout", "--variant", "backgammon", "--dice", "31", "--games", "1000000",
            "--jobs", "1"]
runpy.run_module("jacquet_cli", run_name="__main__")
"""
"""``jacquet rollout`` with Ctrl-C raising KeyboardInterrupt, as Python starts it from a
terminal (a test runner's worker may ignore SIGINT, which its children inherit)."""


@pytest.mark.long
@pytest.mark.parametrize("cache", ["warm", "cold"])
def test_real_ctrl_c_during_jacquet_rollout_always_gives_the_figures(tmp_path, cache):
    """SIGINTs at different moments: twenty with the kernels compiled before (before they
    were held, one in four to one in ten came out of a kernel as a traceback, or as
    "Aborted!", and no figures; once in CI the process died, SIGSEGV), and one while they
    compile, in an empty cache (before: a RuntimeError from numba, one in twelve)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path)) if cache == "cold" else None
    for attempt in range(20 if cache == "warm" else 1):
        process = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        first = process.stderr.read(1)  # the progress bar's first character: the rollout has begun
        assert first, "jacquet rollout printed nothing"
        time.sleep(0.2 + 0.1 * attempt)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=600)
        err = first + err
        assert process.returncode == 130 and "Traceback" not in err, err[-800:]
        assert out.startswith("rollout of backgammon") and "interrupted" in err.lower()
        assert "Ctrl-C" in err  # the note that it is held
