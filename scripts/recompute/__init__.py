"""The independent recomputation of the report files (scripts/recompute-reports.py), in parts."""
