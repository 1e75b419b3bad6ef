"""The conda environment, pyproject.toml and the pinned constraints describe the same packages."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def pyproject_packages() -> set[str]:
    """Every package pyproject.toml names: core dependencies and all extras.

    An extra may include another by naming the project itself (``dev`` has
    ``apples[notebooks]``); that is not a package to install, its packages are
    counted with the extra it names.
    """
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(meta["dependencies"])
    for extra in meta.get("optional-dependencies", {}).values():
        reqs += extra
    return {_name(r) for r in reqs} - {_name(meta["name"])}


def environment_packages() -> dict[str, str]:
    """name -> pinned version from environment.yml (conda `name=1.2` and pip `name==1.2.3` lines)."""
    out = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.fullmatch(r"-\s+([A-Za-z0-9_.\-]+)\s*==?\s*([0-9][0-9.]*)", line)
        if m and m.group(1) not in ("python",):
            out[m.group(1).lower()] = m.group(2)
    return out


def constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def test_environment_yml_and_pyproject_list_the_same_packages():
    assert set(environment_packages()) == pyproject_packages()


def test_environment_yml_pins_match_constraints_to_the_minor_version():
    pins = constraints()
    for name, version in environment_packages().items():
        assert name in pins, f"{name} is in environment.yml but not pinned in constraints.txt"
        minor = ".".join(pins[name].split(".")[: len(version.split("."))])
        assert version == minor, f"{name}: environment.yml has {version}, constraints.txt has {pins[name]}"


def test_every_pyproject_package_is_pinned():
    assert pyproject_packages() <= set(constraints())


def test_environment_yml_has_no_prefix_and_installs_apples():
    text = (ROOT / "environment.yml").read_text()
    assert not re.search(r"^prefix:", text, re.M)
    assert re.search(r"^\s+- -e \.\s", text, re.M)
