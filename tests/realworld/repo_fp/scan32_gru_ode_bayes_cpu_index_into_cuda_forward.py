"""GRU-ODE-Bayes passes its collate function's `obs_idx` (a CPU int64 tensor) to the CUDA model, which only indexes with it

source: https://github.com/edebrouwer/gru_ode_bayes/blob/master/gru_ode_bayes/models.py#L412
(`i_obs = obs_idx[start:end]`, then `p[i_obs]`, `h[i_obs]`, `temp[i_obs] = ...`; the index is made by
`res["obs_idx"] = torch.tensor(batch_ids)` in gru_ode_bayes/data_utils.py#L283 and never moved)
false-alarm: DG009 at the `torch.tensor(...)` of the index (scan 32: at data_utils.py:283 and the three training scripts'
forward calls): the finding said every tensor argument of a CUDA model's forward must be on CUDA. Torch takes a CPU
integer index for a tensor on any device, to read and to write (tests/engine/test_library_conformance.py runs it on the
meta device), so nothing mixes devices. This reduction runs on the CPU (exit 0) and, with "meta" for the device, on meta.
(The repository's forward, in an imported module, also hands the slice on to a sub-module's forward: covered too.)
"""
import numpy as np
import torch
import torch.nn as nn


class NNFO(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru_d = nn.Linear(3, 3)

    def forward(self, X, obs_idx):
        h = torch.zeros(5, 3, device=X.device)
        for start in range(0, 3, 2):
            i_obs = obs_idx[start:start + 2]
            h[i_obs] = self.gru_d(X[i_obs])
        return h


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = NNFO().to(device)
X = torch.randn(5, 3).to(device)
obs_idx = torch.tensor(np.array([0, 2, 4]))
h = model(X, obs_idx)
print(h.shape)
