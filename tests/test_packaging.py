"""An installed, non-editable package works on its own: ``jacquet serve`` builds its demo
archive from the samples the wheel installs, and the viewer's templates and static files,
the XML schema and every sample record travel with it.

The wheel is built from the checkout and installed, without its dependencies, into a bare
virtual environment that borrows the test environment's site-packages for them (as a plain
path, so the editable install of this checkout is not picked up); everything runs from a
folder outside the checkout.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from webviewer.demo import build_demo

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
                            str(ROOT)], capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("jacquet-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A virtual environment with the wheel installed; returns its python."""
    env = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", str(wheel)], check=True, capture_output=True, timeout=600)
    asked = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(subprocess.run([str(python), "-c", asked],
                                  check=True, capture_output=True, text=True).stdout.strip())
    ours = [sysconfig.get_path("purelib"), *site.getsitepackages()]
    (purelib / "borrowed-dependencies.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    return python


def test_the_wheel_carries_every_sample_the_schema_and_the_viewers_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    samples = {p.relative_to(ROOT / "samples").as_posix() for p in (ROOT / "samples").rglob("*.jqn")}
    carried = {n.split("/share/jacquet/samples/", 1)[1] for n in names if "/share/jacquet/samples/" in n}
    assert samples and samples <= carried
    assert any(n.startswith("notation/formats/schema/") and n.endswith(".xsd") for n in names)
    for folder in ("templates", "static"):
        shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "webviewer" / folder).rglob("*")
                   if p.is_file()}
        assert shipped and shipped <= names, shipped - names


def test_the_installed_package_builds_the_demo_archive_outside_the_checkout(installed, tmp_path):
    script = ("import notation, webviewer.demo as demo\n"
              "s = demo.build_demo('demo.db')\n"
              "print(notation.__file__)\n"
              "print(s.imported, s.kept_invalid, s.turns, s.refused, len(s.unreadable))\n")
    ran = subprocess.run([str(installed), "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600, env={**os.environ, "PYTHONPATH": ""}, check=False)
    assert ran.returncode == 0, ran.stderr
    module, counts = ran.stdout.splitlines()[:2]
    assert not Path(module).is_relative_to(ROOT)
    from_checkout = build_demo(tmp_path / "checkout.db")
    assert counts.split() == [str(n) for n in (from_checkout.imported, from_checkout.kept_invalid,
                                               from_checkout.turns, 0, 0)]
    assert from_checkout.imported > 0
