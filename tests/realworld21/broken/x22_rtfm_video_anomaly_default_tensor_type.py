"""Weakly supervised video anomaly detection (RTFM-style feature-magnitude learner): the training entry point picks the legacy default tensor type by device with torch.set_default_tensor_type, which is deprecated (and on a GPU makes every new tensor, Adam state and DataLoader sampler tensor CUDA); on CPU it only warns and training proceeds
source: https://github.com/tianyu0207/RTFM/pull/74
reported-error: remove default cuda tensor: setting the default tensor type to cuda breaks Adam and the DataLoader with newer PyTorch (solves #47, Expected a 'cuda' device type for generator but found 'cpu')
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.; the snippet scores are still produced)
root-cause: line 58
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SnippetFeatures(Dataset):
    def __init__(self, n=16, t=32, dim=64, anomalous=False, seed=0):
        rng = np.random.default_rng(seed + int(anomalous))
        feats = rng.normal(size=(n, t, dim)).astype(np.float32)
        if anomalous:
            feats[:, 10:14] += 2.0
        self.feats, self.label = feats, float(anomalous)

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, i):
        return torch.from_numpy(self.feats[i]), torch.tensor(self.label)


class RTFMLite(nn.Module):
    def __init__(self, dim=64, k=3):
        super().__init__()
        self.k = k
        self.embed = nn.Sequential(nn.Conv1d(dim, 32, 3, padding=1), nn.ReLU())
        self.scorer = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        feat = self.embed(x.transpose(1, 2)).transpose(1, 2)
        idx = feat.norm(dim=2).topk(self.k, dim=1).indices
        scores = self.scorer(feat).squeeze(-1)
        return scores.gather(1, idx).mean(1), scores


def train(model, normal_loader, abnormal_loader, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=5e-4)
    for epoch in range(epochs):
        for (xn, yn), (xa, ya) in zip(normal_loader, abnormal_loader):
            score_n, _ = model(xn)
            score_a, _ = model(xa)
            loss = nn.functional.binary_cross_entropy(torch.cat([score_n, score_a]), torch.cat([yn, ya]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


def main():
    use_cuda = torch.cuda.is_available()
    torch.set_default_tensor_type("torch.cuda.FloatTensor" if use_cuda else "torch.FloatTensor")  # root-cause
    torch.manual_seed(0)
    model = RTFMLite()
    normal = DataLoader(SnippetFeatures(), batch_size=4, shuffle=True)
    abnormal = DataLoader(SnippetFeatures(anomalous=True), batch_size=4, shuffle=True)
    train(model, normal, abnormal)
    _, scores = model(next(iter(abnormal))[0])
    print("snippet scores", tuple(scores.shape))


if __name__ == "__main__":
    main()
