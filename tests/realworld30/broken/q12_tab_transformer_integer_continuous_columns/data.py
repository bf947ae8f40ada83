import pandas as pd
import torch
from torch.utils.data import Dataset

CATEGORICAL = ["workclass", "education", "sex"]
CONTINUOUS = ["age", "hours_per_week", "capital_gain"]


class AdultDataset(Dataset):
    def __init__(self, csv_path):
        df = pd.read_csv(csv_path)
        codes = [df[c].astype("category").cat.codes for c in CATEGORICAL]
        self.cardinalities = tuple(int(c.max()) + 1 for c in codes)
        self.x_categ = torch.tensor(pd.concat(codes, axis=1).values, dtype=torch.long)
        self.x_cont = torch.tensor(df[CONTINUOUS].values)  # root-cause
        self.y = torch.tensor(df["income"].values, dtype=torch.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x_categ[i], self.x_cont[i], self.y[i]
