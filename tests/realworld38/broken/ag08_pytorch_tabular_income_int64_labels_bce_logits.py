"""Feed-forward network with categorical embeddings on an Adult-income table (yashu-seth/pytorch-tabular pytorch_tabular.py: TabularDataset splits a pandas frame into y / cont_X / cat_X NumPy arrays, FeedForwardNN embeds the label-encoded categorical columns and batch-normalizes the continuous ones; the walkthrough's loop feeds y, cont_x, cat_x from a DataLoader): the variant's TabularDataset keeps the output column's own dtype (so that class labels stay integers) and the task is binary, trained with BCEWithLogitsLoss: the 0/1 income column is int64, default collate makes y an int64 tensor and the loss refuses it
source: https://github.com/yashu-seth/pytorch-tabular/blob/4ae59e5494db03b5276c9dab867890a23ffd6408/pytorch_tabular.py
reported-error: (none filed; upstream casts the output column with .astype(np.float32) for its regression example; the variant drops the cast for a classification target)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 199
root-cause: line 32
expect: DG007
"""
import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader


# ---- pytorch_tabular.py
class TabularDataset(Dataset):
    def __init__(self, data, cat_cols=None, output_col=None):
        """
        Characterizes a Dataset for PyTorch

        data: pandas data frame with the continuous, categorical and output columns.
        cat_cols: names of the label-encoded categorical columns (passed through the embedding layers).
        output_col: name of the output variable column.
        """

        self.n = data.shape[0]

        if output_col:
            self.y = data[output_col].values.reshape(-1, 1)  # root-cause
        else:
            self.y = np.zeros((self.n, 1))

        self.cat_cols = cat_cols if cat_cols else []
        self.cont_cols = [
            col for col in data.columns if col not in self.cat_cols + [output_col]
        ]

        if self.cont_cols:
            self.cont_X = data[self.cont_cols].astype(np.float32).values
        else:
            self.cont_X = np.zeros((self.n, 1))

        if self.cat_cols:
            self.cat_X = data[cat_cols].astype(np.int64).values
        else:
            self.cat_X = np.zeros((self.n, 1))

    def __len__(self):
        """
        Denotes the total number of samples.
        """
        return self.n

    def __getitem__(self, idx):
        """
        Generates one sample of data.
        """
        return [self.y[idx], self.cont_X[idx], self.cat_X[idx]]


class FeedForwardNN(nn.Module):
    def __init__(
        self,
        emb_dims,
        no_of_cont,
        lin_layer_sizes,
        output_size,
        emb_dropout,
        lin_layer_dropouts,
    ):
        super().__init__()

        # Embedding layers
        self.emb_layers = nn.ModuleList([nn.Embedding(x, y) for x, y in emb_dims])

        no_of_embs = sum([y for x, y in emb_dims])
        self.no_of_embs = no_of_embs
        self.no_of_cont = no_of_cont

        # Linear Layers
        first_lin_layer = nn.Linear(
            self.no_of_embs + self.no_of_cont, lin_layer_sizes[0]
        )

        self.lin_layers = nn.ModuleList(
            [first_lin_layer]
            + [
                nn.Linear(lin_layer_sizes[i], lin_layer_sizes[i + 1])
                for i in range(len(lin_layer_sizes) - 1)
            ]
        )

        for lin_layer in self.lin_layers:
            nn.init.kaiming_normal_(lin_layer.weight.data)

        # Output Layer
        self.output_layer = nn.Linear(lin_layer_sizes[-1], output_size)
        nn.init.kaiming_normal_(self.output_layer.weight.data)

        # Batch Norm Layers
        self.first_bn_layer = nn.BatchNorm1d(self.no_of_cont)
        self.bn_layers = nn.ModuleList(
            [nn.BatchNorm1d(size) for size in lin_layer_sizes]
        )

        # Dropout Layers
        self.emb_dropout_layer = nn.Dropout(emb_dropout)
        self.droput_layers = nn.ModuleList(
            [nn.Dropout(size) for size in lin_layer_dropouts]
        )

    def forward(self, cont_data, cat_data):

        if self.no_of_embs != 0:
            x = [
                emb_layer(cat_data[:, i]) for i, emb_layer in enumerate(self.emb_layers)
            ]
            x = torch.cat(x, 1)
            x = self.emb_dropout_layer(x)

        if self.no_of_cont != 0:
            normalized_cont_data = self.first_bn_layer(cont_data)

            if self.no_of_embs != 0:
                x = torch.cat([x, normalized_cont_data], 1)
            else:
                x = normalized_cont_data

        for lin_layer, dropout_layer, bn_layer in zip(
            self.lin_layers, self.droput_layers, self.bn_layers
        ):

            x = F.relu(lin_layer(x))
            x = bn_layer(x)
            x = dropout_layer(x)

        x = self.output_layer(x)

        return x


# ---- the walkthrough's training script, on an Adult-style census table (synthetic; the CSV is not downloaded)
def load_adult(n=512, seed=0):
    rng = np.random.RandomState(seed)
    data = pd.DataFrame({
        "age": rng.randint(17, 80, n),
        "workclass": rng.choice(["Private", "Self-emp", "Gov", "Never-worked"], n),
        "education": rng.choice(["HS-grad", "Some-college", "Bachelors", "Masters", "Doctorate"], n),
        "marital_status": rng.choice(["Married", "Never-married", "Divorced", "Widowed"], n),
        "occupation": rng.choice(["Tech", "Sales", "Craft", "Admin", "Service", "Exec"], n),
        "sex": rng.choice(["Male", "Female"], n),
        "capital_gain": rng.exponential(500, n).round(),
        "hours_per_week": rng.randint(10, 70, n),
    })
    score = 0.03 * (data.age - 40) + 0.04 * (data.hours_per_week - 40) + (data.education.isin(["Masters", "Doctorate"]) * 1.5)
    data["income"] = (score + rng.randn(n) > 0.5).astype(int)  # 1 for ">50K"
    return data


data = load_adult()
data = pd.get_dummies(data, columns=["sex"], drop_first=True)

categorical_features = ["workclass", "education", "marital_status", "occupation"]
output_feature = "income"

label_encoders = {}
for cat_col in categorical_features:
    label_encoders[cat_col] = LabelEncoder()
    data[cat_col] = label_encoders[cat_col].fit_transform(data[cat_col])

dataset = TabularDataset(data=data, cat_cols=categorical_features, output_col=output_feature)

batchsize = 64
dataloader = DataLoader(dataset, batchsize, shuffle=True, num_workers=0)

cat_dims = [int(data[col].nunique()) for col in categorical_features]
emb_dims = [(x, min(50, (x + 1) // 2)) for x in cat_dims]

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = FeedForwardNN(emb_dims, no_of_cont=len(dataset.cont_cols), lin_layer_sizes=[50, 100],
                      output_size=1, emb_dropout=0.04,
                      lin_layer_dropouts=[0.001, 0.01]).to(device)

no_of_epochs = 5
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(no_of_epochs):
    for y, cont_x, cat_x in dataloader:
        cat_x = cat_x.to(device)
        cont_x = cont_x.to(device)
        y = y.to(device)

        # Forward Pass
        preds = model(cont_x, cat_x)
        loss = criterion(preds, y)  # fails-here

        # Backward Pass and Optimization
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch {}: loss {:.4f}".format(epoch, loss.item()))
