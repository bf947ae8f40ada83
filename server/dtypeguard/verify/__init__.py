"""Verify: run a training script up to its first optimizer step and report what it saw.

The only part of dtypeguard that executes user code. Start reading at `runner.run_verify`;
`harness.py` and `worker.py` run inside the user's interpreter (standard library + torch only).
"""
