import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .nn_utils import Dataset


class ANN(nn.Module):
    def __init__(self, n_features, n_hidden=32, n_classes=2):
        super().__init__()
        self.fc1 = nn.Linear(n_features, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_classes)

    def forward(self, x):
        x = F.relu(self.fc1(x))  # fails-here
        return self.fc2(x)


class ANNModel:
    def __init__(self, params=None):
        self.params = {"lr": 1e-2, "batch_size": 64, "num_epoch": 3, **(params or {})}
        self.model = None

    def fit(self, X_train, y_train):
        X = np.asarray(X_train)
        y = np.asarray(y_train)
        self.model = ANN(X.shape[1])
        loader = torch.utils.data.DataLoader(Dataset(X, y), batch_size=self.params["batch_size"], shuffle=True)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.params["lr"])
        for epoch in range(self.params["num_epoch"]):
            for inputs, labels in loader:
                optimizer.zero_grad()
                loss = F.cross_entropy(self.model(inputs), labels)
                loss.backward()
                optimizer.step()
        return self

    def predict(self, X):
        loader = torch.utils.data.DataLoader(Dataset(np.asarray(X)), batch_size=256)
        with torch.no_grad():
            probs = [F.softmax(self.model(x), dim=1)[:, 1] for x, _ in loader]
        return torch.cat(probs).numpy()
