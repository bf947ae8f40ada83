"""RTFM anomaly detection: the training module switches the default tensor type to torch.cuda.FloatTensor at import time, and main() iterates shuffling DataLoaders
source: https://github.com/tianyu0207/RTFM/issues/47
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (at ninput, nlabel = next(nloader) in train.py)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' at line 43 (RandomSampler draws its permutation with a CPU generator under a CUDA default); on CPU: ok
root-cause: line 15
expect: DG003
"""
import numpy as np
import torch
import torch.optim as optim
from torch.utils.data import DataLoader

# --- train.py ---
if torch.cuda.is_available():  # the original is unguarded: it assumes a GPU
    torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause


class Dataset(torch.utils.data.Dataset):
    def __init__(self, n=40, is_normal=True, feature_size=64):
        rng = np.random.default_rng(0 if is_normal else 1)
        self.features = rng.normal(size=(n, 32, feature_size)).astype(np.float32)
        self.label = 0.0 if is_normal else 1.0

    def __getitem__(self, index):
        return torch.from_numpy(self.features[index]), self.label

    def __len__(self):
        return len(self.features)


class Model(torch.nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.fc1 = torch.nn.Linear(n_features, 32)
        self.fc2 = torch.nn.Linear(32, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc2(torch.relu(self.fc1(x)))).mean(dim=1).squeeze(-1)


def train(nloader, aloader, model, batch_size, optimizer, device):
    model.train()
    ninput, nlabel = next(nloader)  # fails-here
    ainput, alabel = next(aloader)
    input = torch.cat((ninput, ainput), 0).to(device)
    scores = model(input)
    label = torch.cat((nlabel, alabel), 0).float().to(device)
    cost = torch.nn.BCELoss()(scores, label)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    return cost.item()


# --- main.py ---
if __name__ == '__main__':
    batch_size, max_epoch = 8, 6
    train_nloader = DataLoader(Dataset(is_normal=True), batch_size=batch_size, shuffle=True,
                               num_workers=0, pin_memory=False, drop_last=True)
    train_aloader = DataLoader(Dataset(is_normal=False), batch_size=batch_size, shuffle=True,
                               num_workers=0, pin_memory=False, drop_last=True)
    model = Model(64)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    model = model.to(device)
    optimizer = optim.Adam(model.parameters(), lr=0.001, weight_decay=0.005)
    for step in range(1, max_epoch + 1):
        if (step - 1) % len(train_nloader) == 0:
            loadern_iter = iter(train_nloader)
        if (step - 1) % len(train_aloader) == 0:
            loadera_iter = iter(train_aloader)
        print(step, train(loadern_iter, loadera_iter, model, batch_size, optimizer, device))
