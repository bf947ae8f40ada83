"""Transcriptional-signature model checkpoints that carry the gene and compound vocabularies as pandas Index objects, loaded back with torch.load's default weights_only=True
source: https://github.com/Cellarity/drugreflector/issues/7
reported-error: UnpicklingError: Weights only load failed. ... (pandas globals in the checkpoint; allowlisting pd.Index and friends with safe_globals was not enough)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL pandas.core.indexes.base._new_Index was not an allowed global by default. ... at line 45
root-cause: line 45
expect: DG011
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


class DrugReflectorNet(nn.Module):
    def __init__(self, n_genes, n_compounds, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_genes, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, n_compounds))

    def forward(self, x):
        return self.net(x)


def train_and_save(path, n_genes=50, n_compounds=12):
    genes = pd.Index([f"GENE{i}" for i in range(n_genes)], name="gene")
    compounds = pd.Index([f"CMPD-{i:04d}" for i in range(n_compounds)], name="compound")
    model = DrugReflectorNet(n_genes, n_compounds)
    x = torch.randn(32, n_genes)
    y = torch.randint(0, n_compounds, (32,))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    torch.save({"model_state_dict": model.state_dict(), "dimensions": {"input_size": n_genes, "output_size": n_compounds},
                "gene_names": genes, "compound_names": compounds, "epoch": 1}, path)


model_dir = tempfile.mkdtemp()
model_paths = [os.path.join(model_dir, f"model_fold_{k}.pt") for k in range(3)]
for p in model_paths:
    train_and_save(p)

checkpoint = torch.load(model_paths[0], map_location="cpu")  # root-cause # fails-here
dims = checkpoint["dimensions"]
model = DrugReflectorNet(dims["input_size"], dims["output_size"])
model.load_state_dict(checkpoint["model_state_dict"])
signature = pd.Series(np.random.default_rng(0).standard_normal(dims["input_size"]), index=checkpoint["gene_names"])
scores = model(torch.tensor(signature.values, dtype=torch.float32)[None])
print(pd.Series(scores[0].detach().numpy(), index=checkpoint["compound_names"]).nlargest(3))
