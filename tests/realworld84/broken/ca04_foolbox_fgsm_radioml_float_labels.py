"""A foolbox-style FGSM robustness check of a VTCNN2 modulation classifier on RadioML-like I/Q frames (re-typed: the reporter's data preparation with torch.Tensor(...) for inputs and labels, a TensorDataset that casts the labels .type(torch.LongTensor) for the loader, PyTorchModel/accuracy/LinfFastGradientAttack stand-ins whose loss is cross_entropy(logits, labels, reduction='none')): the attack receives the float32 labels made by torch.Tensor(Y_train) and the loss refuses them
source: https://github.com/bethgelab/foolbox/issues/701
reported-error: "nll_loss_forward_no_reduce_cuda_kernel_index" not implemented for 'Float' (from attack(fmodel, x_train, y_train, epsilons=0.3); the reporter printed y_train.dtype: torch.float32; the clean accuracy call before it ran)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 40
root-cause: line 92
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')


# --- foolbox 3 subset (PyTorchModel, accuracy, LinfFastGradientAttack), re-typed
class PyTorchModel:
    def __init__(self, model, bounds):
        self.model = model
        self.bounds = bounds

    def __call__(self, inputs):
        return self.model(inputs)


def accuracy(fmodel, inputs, labels):
    predictions = fmodel(inputs).argmax(axis=-1)
    return (predictions == labels).float().mean().item()


class LinfFastGradientAttack:
    def __init__(self, random_start=False):
        self.random_start = random_start

    def get_loss_fn(self, model, labels):
        def loss_fn(inputs):
            logits = model(inputs)
            return F.cross_entropy(logits, labels, reduction='none').sum()  # fails-here
        return loss_fn

    def __call__(self, model, inputs, criterion, epsilons):
        x0 = inputs
        x = x0.clone().requires_grad_(True)
        loss_fn = self.get_loss_fn(model, criterion)
        loss = loss_fn(x)
        gradients, = torch.autograd.grad(loss, x)
        raw = x0 + epsilons * gradients.sign()
        clipped = raw.clamp(*model.bounds)
        is_adv = model(clipped).argmax(-1) != criterion
        return raw, clipped, is_adv


# --- VTCNN2 (RadioML 2016.10a baseline), 9 modulation classes
class VTCNN2(nn.Module):
    def __init__(self, n_classes=9, dr=0.5):
        super().__init__()
        self.net = nn.Sequential(
            nn.ZeroPad2d((2, 2, 0, 0)), nn.Conv2d(1, 256, (1, 3)), nn.ReLU(), nn.Dropout(dr),
            nn.ZeroPad2d((2, 2, 0, 0)), nn.Conv2d(256, 80, (2, 3)), nn.ReLU(), nn.Dropout(dr),
            nn.Flatten(), nn.Linear(80 * 1 * 132, 256), nn.ReLU(), nn.Dropout(dr),
            nn.Linear(256, n_classes),
        )

    def forward(self, x):
        return self.net(x)


# --- RadioML-like I/Q frames: 9 classes, float32 samples and integer class indices
rng = np.random.default_rng(0)
n_train, n_test, n_classes = 400, 120, 9


def make_frames(n):
    cls = rng.integers(0, n_classes, n)
    t = np.arange(128)
    phase = 2 * np.pi * (0.02 + 0.015 * cls[:, None]) * t + rng.uniform(0, 2 * np.pi, (n, 1))
    iq = np.stack([np.cos(phase), np.sin(phase)], axis=1) * 0.5 + 0.05 * rng.normal(size=(n, 2, 128))
    return iq.astype(np.float32).reshape(n, 256), cls


X_train, Y_train = make_frames(n_train)
X_test, Y_test = make_frames(n_test)

X_train = torch.from_numpy(X_train)
X_train = X_train.reshape([n_train, 2, 128]).unsqueeze(dim=1)
X_test = torch.from_numpy(X_test)
X_test = X_test.reshape([n_test, 2, 128]).unsqueeze(dim=1)

x_train, x_test = torch.Tensor(X_train), torch.Tensor(X_test)
y_train, y_test = torch.Tensor(Y_train), torch.Tensor(Y_test)  # root-cause
x_train = x_train[0:100, :]
y_train = y_train[:100]
x_train = x_train.to(device)
y_train = y_train.to(device)
print(y_train.dtype)
print(x_train.shape)
print(x_test.shape)
print(y_train.shape)
print(y_test.shape)
train_dataset = TensorDataset(x_train, y_train.type(torch.LongTensor))
test_dataset = TensorDataset(x_test, y_test.type(torch.LongTensor))
batch_size = 25
TrainLoader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
TestLoader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False)

# the reporter loads a trained VTCNN2_9c.pth; here it is trained for a few epochs first
model = VTCNN2(n_classes).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    model.train()
    for xb, yb in TrainLoader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
model = model.eval()

fmodel = PyTorchModel(model, bounds=(-1, 1))
attack = LinfFastGradientAttack()
clean_acc = accuracy(fmodel, x_train, y_train)
print(f"clean accuracy:  {clean_acc * 100:.1f} %")
raw_advs, clipped_advs, success = attack(fmodel, x_train, y_train, epsilons=0.3)
print(f"robust accuracy: {(1 - success.float().mean().item()) * 100:.1f} %")
