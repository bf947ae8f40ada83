"""FedRep main_mtl.py: the global model's weights are loaded with a bare torch.load, then every round builds its weight matrix with an unconditional `.cuda()`

source: https://github.com/lgcollins/FedRep/blob/main/main_mtl.py
false-alarm: DG010 at line 23: `net_glob.load_state_dict(torch.load(model_path))` (under `if load_fed != "n":`) is
followed, in the block around it and outside any test, by `W = torch.zeros((d, m)).cuda()` (line 27), which runs on every round whatever
`args.gpu` says. On a CPU-only machine the script stops there ("Torch not compiled with CUDA enabled")
even when the load succeeds, so `map_location` would only move the crash (scan 40). Like the original,
this script needs a GPU: on the CPU torch it stops at the load or at line 27.
"""
# Reduction: the CNN, the client updates and the data split are dropped; the device expression, the
# load of a checkpoint from an earlier run, and the unconditional `.cuda()` of each round are kept.
import os
import tempfile

import torch

gpu = 0
device = torch.device("cuda:{}".format(gpu) if torch.cuda.is_available() and gpu != -1 else "cpu")
net_glob = torch.nn.Linear(4, 2).to(device)
load_fed = "fedrep_mtl_glob"  # `--load_fed`: a global model written by an earlier run, on a GPU
if load_fed != "n":
    model_path = os.path.join(tempfile.gettempdir(), load_fed + ".pt")
    net_glob.load_state_dict(torch.load(model_path))
device = gpu
d, m = 8, 2
for iter in range(3):
    W = torch.zeros((d, m)).cuda()
    print(iter, W.shape)
