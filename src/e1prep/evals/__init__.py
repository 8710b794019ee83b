"""The golden evals: the runner, layout invariance, and the remark oracle."""
