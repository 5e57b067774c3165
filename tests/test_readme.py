"""The README's first screen works as written, in a fresh virtual environment (issue 17).

Line 1 makes a venv, installs awrscope and diagnoses the bundled example; line 2 installs the test extra
and runs the tests. Here both run in a new venv of their own (downloads come from pip's cache after the
first run), line 2 with a small test module in place of the whole suite (the suite is what is running).
.ci/run executes the same two lines, read from README.md, for the real run.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"^```bash\n(.*?)^```$", text, re.S | re.M)
    assert block, "README.md has no bash block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_first_screen_has_two_commands_within_the_first_screen():
    text = (ROOT / "README.md").read_text()
    assert text.index("```bash") < 1200  # on the first screen, not below the fold
    install, tests = readme_commands()
    assert "pip install ." in install and "awrscope analyze examples/" in install and "venv" in install
    assert "pip install -e '.[test]'" in tests and tests.endswith("python3 -m pytest")
    assert (ROOT / install.split("awrscope analyze ")[1].split()[0]).is_file()


def test_readme_commands_in_a_fresh_venv(tmp_path):
    install, tests = readme_commands()
    venv = tmp_path / "venv"
    install = install.replace(".venv", str(venv))
    tests = tests.replace("python3 -m pytest", "python3 -m pytest -rA -p no:cacheprovider tests/test_numbers.py")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    script = f"set -e\n{install}\n{tests}\n"
    p = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "ault_fig4_awr_disk.txt" in p.stdout and "load:" in p.stdout  # the example's analysis was printed
    assert re.search(r"PASSED tests/test_numbers.py", p.stdout) and "FAILED" not in p.stdout, p.stdout[-2000:]
    assert (venv / "bin" / "awrscope").exists()  # installed into the new venv, not into the running one
