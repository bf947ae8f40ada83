"""Load a pretrained VQGAN through its config's ckpt_path (CompVis/taming-transformers layout: main.py, taming/util.py instantiate_from_config, taming/models/vqgan.py VQModel.init_from_ckpt): the checkpoint was saved from a GPU, and init_from_ckpt calls the repository's load helper without a map_location, so a CPU-only machine cannot deserialize it
source: https://github.com/CompVis/taming-transformers/blob/d89a56dedda3104e945e554b4d75a855d3ffc46d/taming/models/vqgan.py
reported-error: (the repository file itself loads with torch.load(path, map_location="cpu"); this variant routes the load through a taming.util helper whose map_location defaults to None and calls it without one: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at taming/util.py:18
root-cause: taming/models/vqgan.py:34
expect: DG010
"""
import os
import tempfile

import torch

from taming.util import instantiate_from_config, save_gpu_checkpoint

config = {
    "target": "taming.models.vqgan.VQModel",
    "params": {"embed_dim": 4, "n_embed": 16, "ch": 8},
}


def make_released_checkpoint(path):
    # the released last.ckpt was written by a GPU training run (Lightning: {"state_dict": ...})
    model = instantiate_from_config(config)
    save_gpu_checkpoint({"state_dict": model.state_dict(), "global_step": 1000}, path)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = os.path.join(tempfile.mkdtemp(), "last.ckpt")
    make_released_checkpoint(ckpt)
    config["params"]["ckpt_path"] = ckpt
    model = instantiate_from_config(config).to(device).eval()
    with torch.no_grad():
        xrec, qloss = model(torch.randn(1, 3, 8, 8, device=device))
    print("reconstruction", tuple(xrec.shape), float(qloss))
