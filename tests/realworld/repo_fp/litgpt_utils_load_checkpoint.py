"""torch.load without map_location of a checkpoint the repo itself wrote with CPU tensors (converter/merge step).

source: https://github.com/Lightning-AI/litgpt/blob/26857050fe3ff627cd714fe92f5838f51a3d5efa/litgpt/utils.py#L387
false-alarm: DG010 at line 24: the loaded lit_model.pth is written by the repo's own converter
(scripts/convert_hf_checkpoint.py incremental_save / scripts/merge_lora.py after model.to(device="cpu")),
so it holds CPU tensors and loads fine on a CPU-only machine; the branch is also only taken
with a multi-device ModelParallelStrategy.
"""
import os
import tempfile

import torch
import torch.nn as nn


def convert_checkpoint(model: nn.Module, path: str) -> None:
    # mirrors merge_lora.py: model moved to CPU before saving
    model.to(device="cpu")
    torch.save(model.state_dict(), path)


def load_checkpoint(model: nn.Module, checkpoint_path: str, parallel: bool) -> None:
    if parallel:
        state_dict = torch.load(checkpoint_path, mmap=True)
        model.load_state_dict(state_dict)
    else:
        state_dict = torch.load(checkpoint_path, map_location="cpu")
        model.load_state_dict(state_dict)


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Linear(4, 4)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lit_model.pth")
        convert_checkpoint(model, path)
        load_checkpoint(model, path, parallel=True)
    model.to(device)
    print(model(torch.randn(2, 4, device=device)).shape)


if __name__ == "__main__":
    main()
