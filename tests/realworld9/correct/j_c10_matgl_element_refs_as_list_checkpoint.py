"""MatGL-style potential checkpoint after the fix: element_refs is stored in the hyper-parameters as a plain list (ndarray.tolist()) and the optimizer object is not pickled (only its state_dict), so torch.load with the weights_only=True default resumes it
source: https://github.com/materialyzeai/matgl/pull/802
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class PotentialModule(nn.Module):
    def __init__(self, element_refs, lr=1e-3, n_elements=4, d=16):
        super().__init__()
        self.hparams = {"element_refs": list(element_refs), "lr": lr, "n_elements": n_elements}
        self.model = nn.Sequential(nn.Embedding(n_elements, d), nn.Linear(d, 1))
        self.register_buffer("refs", torch.tensor(element_refs, dtype=torch.float32))

    def forward(self, species):
        return self.model(species).sum() + self.refs[species].sum()


refs = np.linalg.lstsq(np.eye(4) + 0.1, np.array([-3.0, -2.5, -4.1, -1.2]), rcond=None)[0]
module = PotentialModule(element_refs=refs.tolist())
opt = torch.optim.Adam(module.parameters(), lr=module.hparams["lr"])
(module(torch.tensor([0, 1, 1, 3])) ** 2).backward()
opt.step()
path = os.path.join(tempfile.mkdtemp(), "epoch=4.ckpt")
torch.save({"epoch": 4, "state_dict": module.state_dict(), "optimizer_states": [opt.state_dict()], "hyper_parameters": module.hparams}, path)
ckpt = torch.load(path)
resumed = PotentialModule(**ckpt["hyper_parameters"])
resumed.load_state_dict(ckpt["state_dict"])
print("resumed at epoch", ckpt["epoch"], "refs", [round(r, 3) for r in ckpt["hyper_parameters"]["element_refs"]])
