"""H10: BCELoss with integer labels.

BCELoss needs a float target with the same dtype and shape as the predictions; int64
labels fail with "Found dtype Long but expected Float".
"""
import torch
from torch import nn


class SpamClassifier(nn.Module):
    def __init__(self, vocab_features=50):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(vocab_features, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


def fake_bag_of_words(n=128, vocab=50):
    x = torch.rand(n, vocab)
    y = (x[:, :5].sum(dim=1, keepdim=True) > 2.5).long()  # 0/1 labels as int64  # expect: DG007
    return x, y


x, y = fake_bag_of_words()
model = SpamClassifier()
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    optimizer.zero_grad()
    probs = model(x)
    loss = criterion(probs, y)
    loss.backward()
    optimizer.step()
