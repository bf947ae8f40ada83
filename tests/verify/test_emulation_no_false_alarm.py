"""Emulated CUDA raises no false alarm (issue 21): every correct script the project has (the
clean and fixed samples, the correct scripts of the real-world sets) that verifies ok on the CPU
also verifies ok on emulated CUDA, where `torch.cuda.is_available()` is true and the script takes
its GPU branch. An emulation that rejected a legal cross-device call (CPU lengths of a packed
sequence, a CPU 0-dim scalar, `Module.to(device=...)`) fails here.

Real subprocesses through two warm workers, one per device; about 0.1-0.3 s a script.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("torch")

from dtypeguard.verify.runner import run_verify
from dtypeguard.verify.warm import WarmWorker

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(
    [*ROOT.glob("samples/clean/*.py"), *ROOT.glob("samples/fixed/*.py"), *ROOT.glob("tests/realworld*/correct/*.py")]
)


# Correct-on-CPU scripts that really fail on a GPU, read and confirmed: the emulation must show
# that failure (at that line), not hide it.
FAILS_ON_CUDA = {
    # its author ran it on the CPU only: `torch.eye(n, dtype=...)` in `forward` is made on the CPU and
    # added to a tensor on the model's device (the DG009 warning kept on it, tests/realworld20/README.md)
    "tests/realworld20/correct/w_c11_deep_potential_fused_only_float64.py": 32,
    # the helper's fix moves the graph before the split (`train_test_split_edges(data.to(dev), ...)`), so
    # `neg_adj_mask[row, col] = 0` indexes a CPU mask with GPU indices: "indices should be either on cpu or on
    # the same device as the indexed tensor (cpu)" (tests/realworld65/README.md; the engine does not report it)
    "tests/realworld65/correct/bh_c03_vgnae_split_edges_data_to_dev.py": 82,
}


# A known limit of the emulation, kept visible: sparse COO tensors (pygcn's adjacency) cannot be moved to
# the emulated device ("unsupported memory format option Preserve"), so verify with emulated CUDA reports
# an error a real GPU would not. When the emulation learns sparse tensors, this test fails: remove the entry.
EMULATION_CANNOT = {
    "tests/realworld38/correct/ag_c04_pygcn_cora_sparse_adjacency_astype_float32.py": "memory format",
    # `torch.device(torch.cuda.current_device())`: torch.device of a bare index asks the C++ side for the current
    # accelerator, which the Python-level emulation cannot answer (tsai's get_minirocket_features, set 84)
    "tests/realworld84/correct/ca_c03_tsai_minirocket_dataframe_astype_float32.py": "Cannot access accelerator device",
}


@pytest.fixture(scope="module")
def workers() -> Iterator[tuple[WarmWorker, WarmWorker]]:
    cpu, emulated = WarmWorker(device="cpu"), WarmWorker(device="cuda-emulated")
    cpu.start()
    emulated.start()
    yield cpu, emulated
    cpu.close()
    emulated.close()


def test_there_are_correct_scripts_to_check() -> None:
    assert len(SCRIPTS) > 60


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_script_that_runs_on_the_cpu_runs_on_emulated_cuda(
    script: Path, workers: tuple[WarmWorker, WarmWorker]
) -> None:
    cpu_worker, emulated_worker = workers
    cpu = run_verify(str(script), device="cpu", timeout=60, worker=cpu_worker)
    if cpu.status != "ok":
        pytest.skip(f"not ok on the CPU either: {cpu.status}")
    emulated = run_verify(str(script), device="cuda-emulated", timeout=60, worker=emulated_worker)
    assert emulated.emulated is True
    cannot = EMULATION_CANNOT.get(str(script.relative_to(ROOT)))
    if cannot is not None:
        assert emulated.status == "error" and cannot in (emulated.message or ""), (emulated.status, emulated.message)
        return
    fails_at = FAILS_ON_CUDA.get(str(script.relative_to(ROOT)))
    if fails_at is not None:
        assert (emulated.status, emulated.line) == ("error", fails_at), (emulated.status, emulated.line, emulated.message)
        assert "same device" in (emulated.message or "")
        return
    assert emulated.status == "ok", (emulated.status, emulated.line, emulated.message)
