"""PSM rescoring model (mokapot-like) whose save() puts the fitted sklearn StandardScaler object into the torch checkpoint next to the state_dict so it can be restored with the model; load() uses torch.load with the default weights_only=True
source: https://github.com/wfondrie/mokapot/issues/124
reported-error: also load the scaler when loading the model (the StandardScaler is not saved/loaded with the model); pickled inside a torch checkpoint it fails: Weights only load failed ... Unsupported global
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL sklearn.preprocessing._data.StandardScaler was not an allowed global by default. ... at line 40
root-cause: line 35
expect: DG011
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import StandardScaler


class Rescorer:
    def __init__(self, n_features):
        self.net = nn.Sequential(nn.Linear(n_features, 16), nn.ReLU(), nn.Linear(16, 1))
        self.scaler = StandardScaler()

    def fit(self, psms, labels, epochs=20):
        X = torch.from_numpy(self.scaler.fit_transform(psms).astype(np.float32))
        y = torch.from_numpy(labels.astype(np.float32))
        opt = torch.optim.Adam(self.net.parameters(), lr=1e-2)
        for _ in range(epochs):
            loss = nn.functional.binary_cross_entropy_with_logits(self.net(X).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()

    def save(self, path):
        torch.save({"state_dict": self.net.state_dict(), "scaler": self.scaler}, path)  # root-cause

    @classmethod
    def load(cls, path, n_features):
        model = cls(n_features)
        ckpt = torch.load(path)  # fails-here
        model.net.load_state_dict(ckpt["state_dict"])
        model.scaler = ckpt["scaler"]
        return model


rng = np.random.default_rng(0)
psms = pd.DataFrame({"score": rng.normal(size=300), "delta_mass": rng.normal(scale=5, size=300),
                     "charge": rng.integers(2, 5, 300), "peptide_len": rng.integers(7, 30, 300)})
labels = (psms["score"] + rng.normal(scale=0.5, size=300) > 0).to_numpy()
model = Rescorer(psms.shape[1])
print("train loss", model.fit(psms.to_numpy(), labels))
path = os.path.join(tempfile.mkdtemp(), "mokapot.model.pt")
model.save(path)
restored = Rescorer.load(path, psms.shape[1])
print("restored scaler mean", restored.scaler.mean_[:2])
