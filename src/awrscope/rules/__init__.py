"""Diagnosis rules (spec WRITE_PATH.md section C): R01-R16 on the write path and
G01-G06 general findings. One rule = one small decorated function with its
thresholds beside it; see base.rule."""
from __future__ import annotations

from .base import RULES, SEVERITIES, Context, Evidence, Finding, NotApplicable, Rule, severity_for
from .engine import RuleResults, run_rules

__all__ = ["RULES", "SEVERITIES", "Context", "Evidence", "Finding", "NotApplicable", "Rule", "RuleResults", "run_rules", "severity_for"]
