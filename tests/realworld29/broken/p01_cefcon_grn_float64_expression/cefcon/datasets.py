import numpy as np
import pandas as pd
import torch


def data_preparation(input_expData: pd.DataFrame, input_priorNet: pd.DataFrame, lineages=("all",)):
    """Build one graph per lineage: node features are the genes' expression profiles."""
    genes = list(input_expData.columns)
    idx = {g: i for i, g in enumerate(genes)}
    edge_index = torch.tensor(
        np.array([[idx[a] for a in input_priorNet["from"]], [idx[b] for b in input_priorNet["to"]]]),
        dtype=torch.long,
    )
    data = {}
    for li in lineages:
        x = torch.from_numpy(input_expData.values.T.copy())  # root-cause
        data[li] = {"x": x, "edge_index": edge_index, "gene_names": genes}
    return data
