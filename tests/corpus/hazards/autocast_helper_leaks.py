import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Sequential(nn.Linear(20, 40), nn.ReLU(), nn.Linear(40, 40))
classifier = nn.Linear(40, 3)
optimizer = torch.optim.Adam(list(backbone.parameters()) + list(classifier.parameters()), lr=1e-3)


def embed(x):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        return backbone(x)  # expect: DG017


def train_step(x, y):
    optimizer.zero_grad()
    feats = embed(x)
    logits = classifier(feats)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    for _ in range(3):
        train_step(torch.randn(16, 20), torch.randint(0, 3, (16,)))
