"""The GitHub workflows are valid and run the same commands as the README and
.ci/run: `make test` for CI, `make build` for the Pages deployment, which
happens from main only."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
CI = WORKFLOWS / "ci.yml"
PAGES = WORKFLOWS / "pages.yml"
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"

SHELL_FENCE = re.compile(
    r"^(?P<fence>```|~~~)[ \t]*(?:sh|bash|shell|console|shell-session|zsh)\b[^\n]*\n"
    r"(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


def load_yaml(path: Path) -> dict:
    from ruamel.yaml import YAML  # a dependency of check-jsonschema

    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def normalise(command: str) -> str:
    command = command.strip()
    command = re.sub(r"^\$\s+", "", command)  # console prompt
    return re.sub(r"\s+", " ", command)


def readme_commands() -> list[str]:
    """Every command line of the README's fenced shell blocks."""
    if not README.is_file():
        pytest.fail(f"{README.relative_to(ROOT)} does not exist: it must document the build and "
                    "test commands (make build, make test) in fenced shell blocks")
    text = README.read_text(encoding="utf-8")
    commands = []
    for match in SHELL_FENCE.finditer(text):
        for line in match.group("body").splitlines():
            line = line.split(" #", 1)[0]
            if line.strip() and not line.lstrip().startswith("#"):
                commands.append(normalise(line))
    return commands


def run_commands(workflow: dict) -> list[str]:
    """Every command line of every `run:` step of the workflow."""
    commands = []
    for job in workflow["jobs"].values():
        for step in job.get("steps", []):
            for line in str(step.get("run", "")).splitlines():
                if line.strip():
                    commands.append(normalise(line))
    return commands


def runs(commands: list[str], wanted: str) -> bool:
    """True if one of *commands* is *wanted*, possibly with VAR=value
    arguments after it (``make build BUILD_ARGS=...``)."""
    rx = re.compile(r"^(?:\w+=\S+ )*" + re.escape(wanted) + r"(?: \w+=.*)?$")
    return any(rx.match(c) for c in commands)


def triggers(workflow: dict) -> dict:
    # YAML 1.1 parsers read the key `on` as True; ruamel's safe loader (1.2) keeps "on".
    on = workflow.get("on", workflow.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {k: None for k in on}
    return on


def test_workflows_are_valid_github_workflows():
    exe = shutil.which("check-jsonschema")
    cmd = [exe] if exe else [sys.executable, "-m", "check_jsonschema"]
    proc = subprocess.run(
        [*cmd, "--builtin-schema", "vendor.github-workflows", str(CI), str(PAGES)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_readme_documents_make_test_and_make_build():
    commands = readme_commands()
    for wanted in ("make test", "make build"):
        assert runs(commands, wanted), (
            f"README.md has no `{wanted}` in a fenced shell block; its commands: {commands}")


def test_ci_runs_the_readme_test_command():
    readme = readme_commands()
    ci = run_commands(load_yaml(CI))
    assert runs(readme, "make test") and runs(ci, "make test"), (readme, ci)
    assert set(triggers(load_yaml(CI))) >= {"push", "pull_request"}


def test_ci_run_script_runs_the_readme_test_command():
    lines = [normalise(line) for line in CI_RUN.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert runs(readme_commands(), "make test")
    assert lines[-1] == "make test", "the last command of .ci/run must be the README's `make test`"
    assert "set -euo pipefail" in lines


def test_pages_builds_with_the_readme_build_command():
    pages = load_yaml(PAGES)
    assert runs(readme_commands(), "make build")
    assert runs(run_commands(pages), "make build"), run_commands(pages)
    uses = [step.get("uses", "") for job in pages["jobs"].values() for step in job["steps"]]
    for action in ("actions/configure-pages@", "actions/upload-pages-artifact@",
                   "actions/deploy-pages@"):
        assert any(u.startswith(action) for u in uses), f"{action} missing from pages.yml"
    upload = next(s for job in pages["jobs"].values() for s in job["steps"]
                  if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "dist"


def test_pages_deploys_from_main_only():
    pages = load_yaml(PAGES)
    on = triggers(pages)
    assert set(on) <= {"push", "workflow_dispatch"}, on
    assert on["push"]["branches"] == ["main"], on["push"]
    for name, job in pages["jobs"].items():
        # workflow_dispatch can be started on any branch: every job checks the ref.
        assert job.get("if") == "github.ref == 'refs/heads/main'", f"job {name} lacks the main guard"
    assert pages["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert pages["concurrency"]["cancel-in-progress"] is False
    deploy = [job for job in pages["jobs"].values()
              if any(s.get("uses", "").startswith("actions/deploy-pages@") for s in job["steps"])]
    assert len(deploy) == 1 and deploy[0]["environment"]["name"] == "github-pages"
