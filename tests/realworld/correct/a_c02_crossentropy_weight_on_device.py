"""CrossEntropyLoss class weights moved to the model's device (the fix from the thread)
source: https://github.com/pytorch/pytorch/issues/122757
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class Classifier(nn.Module):
    def __init__(self, in_features=20, num_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_features, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, x):
        return self.net(x)


def compute_class_weights(labels, num_classes):
    counts = np.bincount(labels, minlength=num_classes)
    w = counts.sum() / (num_classes * np.maximum(counts, 1))
    return torch.tensor(w, dtype=torch.float32)


X = torch.randn(64, 20)
y = torch.randint(0, 5, (64,))

weights = compute_class_weights(y.numpy(), 5).to(device)
loss_fn = torch.nn.CrossEntropyLoss(weight=weights)

model = Classifier().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    for i in range(0, 64, 16):
        inputs = X[i:i + 16].to(device)
        labels = y[i:i + 16].to(device)
        loss = loss_fn(input=model(inputs), target=labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
