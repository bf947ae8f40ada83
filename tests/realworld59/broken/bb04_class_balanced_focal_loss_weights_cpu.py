"""Long-tailed image classification with the Class-Balanced focal loss (vandit15/Class-balanced-loss-pytorch's CB_loss and focal_loss re-typed) on the GPU: CB_loss turns the effective-number class weights from NumPy into a tensor with torch.tensor(weights).float(), which is made on the CPU, then multiplies it with the one-hot labels of the GPU batch. The meta device stands in for cuda (this machine has no GPU)
source: https://github.com/vandit15/Class-balanced-loss-pytorch/pull/22
reported-error: "Make it available on GPU device": the loss only works on the CPU; the PR checks the device of labels and logits and moves weights to it (weights = torch.tensor(weights).float().to(device)); with CUDA logits and labels the weights tensor stays on the CPU and the product with labels_one_hot raises "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
outcome: RuntimeError: Tensor on device meta is not on the expected device cpu! at line 39
root-cause: line 37
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda")


def focal_loss(labels, logits, alpha, gamma):
    BCLoss = F.binary_cross_entropy_with_logits(input=logits, target=labels, reduction="none")
    if gamma == 0.0:
        modulator = 1.0
    else:
        modulator = torch.exp(-gamma * labels * logits - gamma * torch.log(1 + torch.exp(-1.0 * logits)))
    loss = modulator * BCLoss
    weighted_loss = alpha * loss
    focal_loss = torch.sum(weighted_loss)
    focal_loss /= torch.sum(labels)
    return focal_loss


def CB_loss(labels, logits, samples_per_cls, no_of_classes, loss_type, beta, gamma):
    effective_num = 1.0 - np.power(beta, samples_per_cls)
    weights = (1.0 - beta) / np.array(effective_num)
    weights = weights / np.sum(weights) * no_of_classes

    labels_one_hot = F.one_hot(labels, no_of_classes).float()

    weights = torch.tensor(weights).float()  # root-cause
    weights = weights.unsqueeze(0)
    weights = weights.repeat(labels_one_hot.shape[0], 1) * labels_one_hot  # fails-here
    weights = weights.sum(1)
    weights = weights.unsqueeze(1)
    weights = weights.repeat(1, no_of_classes)

    if loss_type == "focal":
        cb_loss = focal_loss(labels_one_hot, logits, weights, gamma)
    elif loss_type == "sigmoid":
        cb_loss = F.binary_cross_entropy_with_logits(input=logits, target=labels_one_hot, weight=weights)
    elif loss_type == "softmax":
        pred = logits.softmax(dim=1)
        cb_loss = F.binary_cross_entropy(input=pred, target=labels_one_hot, weight=weights)
    return cb_loss


class SmallConvNet(nn.Module):
    def __init__(self, no_of_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, no_of_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


# long-tailed training set: class k keeps 500 * 0.5**k images (imbalance factor 16)
no_of_classes = 5
samples_per_cls = [int(500 * 0.5 ** k) for k in range(no_of_classes)]
rng = np.random.default_rng(0)
labels_np = np.concatenate([np.full(n, k) for k, n in enumerate(samples_per_cls)])
images_np = (rng.normal(size=(len(labels_np), 3, 16, 16)) + labels_np[:, None, None, None] * 0.1).astype(np.float32)
dataset = torch.utils.data.TensorDataset(torch.from_numpy(images_np), torch.from_numpy(labels_np))
loader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=True)

model = SmallConvNet(no_of_classes).to(DEVICE)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=2e-4)
beta, gamma = 0.9999, 2.0
for epoch in range(2):
    model.train()
    for images, labels in loader:
        images, labels = images.to(DEVICE), labels.to(DEVICE)
        logits = model(images)
        loss = CB_loss(labels, logits, samples_per_cls, no_of_classes, "focal", beta, gamma)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: class-balanced focal loss on {loss.device}")
