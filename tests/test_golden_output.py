"""The default text output of one report of each kind, compared line by line with a reviewed golden file
(tests/golden/). A change in wording or order shows here as a diff to review, not as a silently new output:
regenerate with AWRSCOPE_UPDATE_GOLDEN=1 only after reading the diff. The corpus path is written <corpus>."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from _corpus import corpus_file
from click.testing import CliRunner

from awrscope.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden"
REPORTS = ["awr_txt_11204_rbogusze_remik_18_19.txt", "awr_html_11203_antognini_top2_1930_1945.html",
           "statspack_txt_10204_rbogusze_bpsc10_2_3.lst", "awr_global_html_12201_slob_therealkevinc.html",
           "awr_diff_txt_11203_antognini_top2.txt", "ash_txt_11203_antognini_top2_1930_1945.txt",
           "addm_txt_19c_lucky29011_dvk.txt"]
#: What the default output leaves to --verbose (issue 29): diagnosis internals and code-like wording.
NOISE = ("not applicable (", "key metrics:", "to examine, below its threshold", "snaps None", "[None line",
         "lfs_lfpw_ratio", "non_io_residual_ms", "what-if W")


def _output(path: Path, *args: str) -> str:
    res = CliRunner().invoke(main, ["analyze", *args, str(path)])
    assert res.exit_code == 0, res.output
    return res.output.replace(str(path.parent) + os.sep, "<corpus>/")


@pytest.mark.parametrize("name", REPORTS)
def test_default_text_output_is_the_reviewed_one(name):
    out = _output(corpus_file(name))
    golden = GOLDEN / (name.rsplit(".", 1)[0] + ".txt")
    if os.environ.get("AWRSCOPE_UPDATE_GOLDEN") == "1":
        golden.write_text(out, encoding="utf-8")
    assert out.splitlines() == golden.read_text(encoding="utf-8").splitlines()
    assert not [n for n in NOISE if n in out]


@pytest.mark.parametrize("name", ["awr_txt_11204_rbogusze_remik_18_19.txt", "statspack_txt_10204_rbogusze_bpsc10_2_3.lst"])
def test_verbose_restores_the_diagnosis_internals(name):
    out = _output(corpus_file(name), "--verbose")
    assert "not applicable (" in out and "key metrics: " in out and "what-if W" in out
    # and adds, never drops: every line of the default output is in the verbose one, but the lines verbose
    # writes with their ids (the verdict's rule, each evidence's metric, each what-if's model)
    default = set(_output(corpus_file(name)).splitlines())
    # (a verdict's pointer to culprits named with the findings: verbose names them under the verdict itself)
    missing = [line for line in default if line not in out and not line.lstrip().startswith(("- ", "what-if", "verdict:"))
               and not line.endswith(": with the findings below")]
    assert not missing, missing[:5]
