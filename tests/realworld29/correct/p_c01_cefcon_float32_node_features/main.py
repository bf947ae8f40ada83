"""CEFCON driver-regulator pipeline whose data_preparation in cefcon/datasets.py still builds the node features from the float64 pandas matrix but ends the conversion with .float(), so the graph-attention encoder in cefcon/cell_lineage_GRN.py gets float32 (the fix of the issue, applied where the data enters PyTorch)
source: https://github.com/WPZgithub/CEFCON/issues/7
reported-error: (none: correct code)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd

import cefcon as cf

rng = np.random.default_rng(0)
genes = [f"G{i}" for i in range(12)]
# log-normalised counts of 40 cells (a stand-in for the AnnData of the tutorial)
expr = pd.DataFrame(np.log1p(rng.poisson(3.0, size=(40, len(genes)))), columns=genes)
prior = pd.DataFrame({"from": rng.choice(genes, 30), "to": rng.choice(genes, 30)})
prior = prior[prior["from"] != prior["to"]].drop_duplicates()

data = cf.data_preparation(expr, prior)
CUDA = 0
cefcon_results_dict = {}
for li, data_li in data.items():
    cefcon_GRN_model = cf.NetModel(epochs=5, repeats=1, cuda=CUDA, seed=1)
    cefcon_GRN_model.run(data_li)
    cefcon_results_dict[li] = cefcon_GRN_model.get_network()
    print(li, cefcon_results_dict[li].shape)
