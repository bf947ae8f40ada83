"""3D-CNN classifier whose targets are read from an HDF5-like store as a float (N, 1) column and given to CrossEntropyLoss without .view(-1).long()
source: https://github.com/DeepRank/deeprank/issues/28
reported-error: multi-target not supported (CrossEntropyLoss got a 2-D target; fixed by targets.view(-1))
outcome: RuntimeError: 0D or 1D target tensor expected, multi-target not supported at line 57
root-cause: line 49
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class DataSet(Dataset):
    def __init__(self, n=16, grid=8):
        rng = np.random.default_rng(1)
        self.features = rng.random((n, 2, grid, grid, grid)).astype(np.float32)
        self.targets = rng.integers(0, 2, size=(n, 1)).astype(np.float32)  # binary class stored as float

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        feature = torch.from_numpy(self.features[index])
        target = torch.from_numpy(self.targets[index])
        return {"feature": feature, "target": target}


class cnn_class(nn.Module):
    def __init__(self, input_shape=(2, 8, 8, 8)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv3d(input_shape[0], 4, 2), nn.ReLU(), nn.MaxPool3d(2))
        self.fc = nn.Sequential(nn.Flatten(), nn.LazyLinear(16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, x):
        return self.fc(self.conv(x))


class NeuralNet:
    def __init__(self, data_set, model=cnn_class, task="class"):
        self.data_set = data_set
        self.net = model()
        self.task = task
        self.criterion = nn.CrossEntropyLoss() if task == "class" else nn.MSELoss()
        self.optimizer = torch.optim.SGD(self.net.parameters(), lr=0.005, momentum=0.9)

    def _get_variables(self, inputs, targets):
        if self.task == "class":
            return inputs, targets  # root-cause
        return inputs, targets.float()

    def _epoch(self, data_loader):
        running_loss = 0.0
        for d in data_loader:
            inputs, targets = self._get_variables(d["feature"], d["target"])
            outputs = self.net(inputs)
            loss = self.criterion(outputs, targets)  # fails-here
            running_loss += loss.item()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return running_loss

    def train(self, nepoch=2):
        loader = DataLoader(self.data_set, batch_size=4, shuffle=True)
        for epoch in range(nepoch):
            print("epoch", epoch, "loss", self._epoch(loader))


if __name__ == "__main__":
    model = NeuralNet(DataSet())
    model.train()
