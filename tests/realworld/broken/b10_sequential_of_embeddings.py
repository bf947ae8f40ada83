"""Income model stacks three nn.Embedding in an nn.Sequential, so the second Embedding gets float vectors
source: https://github.com/pytorch/pytorch/issues/116598
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 50
root-cause: line 37
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader

rng = np.random.default_rng(1)
df = pd.DataFrame({
    "workclass": rng.integers(0, 4, 300),
    "education": rng.integers(0, 4, 300),
    "race": rng.integers(0, 4, 300),
    "income": rng.integers(0, 2, 300),
})
x = torch.tensor(df[["workclass", "education", "race"]].values)
y = torch.tensor(df["income"].values)

proportion = int(0.8 * len(x))
x_train, y_train = x[:proportion], y[:proportion]
x_test, y_test = x[proportion:], y[proportion:]

BATCH_SIZE = 64
train_dataset = TensorDataset(torch.LongTensor(x_train.type(torch.int64)), torch.LongTensor(y_train.type(torch.int64)))
train_dataloader = DataLoader(dataset=train_dataset, batch_size=BATCH_SIZE, shuffle=True)


# Create the neural network
class incomemodel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedded_layer = nn.Sequential(  # root-cause
            nn.Embedding(num_embeddings=4, embedding_dim=8),
            nn.Embedding(num_embeddings=4, embedding_dim=8),
            nn.Embedding(num_embeddings=4, embedding_dim=8)
        )
        self.stacked_layer = nn.Sequential(
            nn.Linear(in_features=24, out_features=64),
            nn.ReLU(),
            nn.BatchNorm1d(64),
            nn.Linear(in_features=64, out_features=1)
        )

    def forward(self, x):
        x = self.embedded_layer(x)  # fails-here
        x = x.view(x.size(0), -1)
        return self.stacked_layer(x)


model = incomemodel()
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(params=model.parameters(), lr=0.001)

for X, Y in train_dataloader:
    y_logits = model(X).squeeze()
    loss = loss_fn(y_logits, Y.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
