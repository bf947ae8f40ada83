"""CEFCON driver-regulator pipeline (WPZgithub/CEFCON layout: cefcon.data_preparation then cf.NetModel(...).run(data)): the expression matrix goes through pandas in cefcon/datasets.py and becomes a float64 node-feature tensor, which the graph-attention encoder's float32 nn.Linear in cefcon/cell_lineage_GRN.py refuses
source: https://github.com/WPZgithub/CEFCON/issues/7
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (cefcon_GRN_model.run(data_li); fixed by adata.X.astype(np.float32))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at cefcon/cell_lineage_GRN.py:17
root-cause: cefcon/datasets.py:16
expect: DG004
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
