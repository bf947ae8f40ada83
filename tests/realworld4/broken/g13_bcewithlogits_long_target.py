"""Multi-label tagger trained with BCEWithLogitsLoss on a plain Linear output while the 0/1 targets stay a LongTensor
source: https://github.com/pytorch/pytorch/issues/2272
reported-error: TypeError: is_same_size received an invalid combination of arguments - got (torch.cuda.FloatTensor), but expected (torch.cuda.LongTensor other)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 47
root-cause: line 27
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

opt = {"n_features": 40, "n_tags": 6, "batch_size": 32, "lr": 1e-3, "epochs": 2}


class TagDataset(Dataset):
    def __init__(self, n=256, n_features=40, n_tags=6):
        rng = np.random.default_rng(0)
        self.x = rng.normal(size=(n, n_features)).astype(np.float32)
        self.tags = [list(rng.choice(n_tags, size=rng.integers(1, 3), replace=False)) for _ in range(n)]
        self.n_tags = n_tags

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        target = torch.zeros(self.n_tags, dtype=torch.long)  # root-cause
        target[self.tags[i]] = 1
        return torch.from_numpy(self.x[i]), target


class Tagger(nn.Module):
    def __init__(self, n_features, n_tags):
        super().__init__()
        self.hidden = nn.Linear(n_features, 64)
        self.out = nn.Linear(64, n_tags)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


def train(model, loader, criterion, optimizer, device):
    model.train()
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        output = model(inputs)
        loss = criterion(output, targets)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(TagDataset(n_features=opt["n_features"], n_tags=opt["n_tags"]),
                        batch_size=opt["batch_size"], shuffle=True)
    model = Tagger(opt["n_features"], opt["n_tags"]).to(device)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt["lr"])
    for epoch in range(opt["epochs"]):
        print(epoch, train(model, loader, criterion, optimizer, device))
