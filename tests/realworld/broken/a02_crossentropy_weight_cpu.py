"""CrossEntropyLoss class weights stay on the CPU while logits and labels are on CUDA
source: https://github.com/pytorch/pytorch/issues/122757
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_nll_loss_forward) at line 44; on CPU: ok
root-cause: line 34
expect: DG009
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

weights = compute_class_weights(y.numpy(), 5)
loss_fn = torch.nn.CrossEntropyLoss(weight=weights)  # root-cause

model = Classifier().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    for i in range(0, 64, 16):
        inputs = X[i:i + 16].to(device)
        labels = y[i:i + 16].to(device)
        model_output = model(inputs)
        loss = loss_fn(input=model_output, target=labels)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
