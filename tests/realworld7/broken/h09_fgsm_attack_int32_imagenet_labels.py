"""Single-image FGSM attack on a ResNet-like classifier: the sample loader returns labels as np.int32 and the attack's cross-entropy uses them as the target
source: https://github.com/bethgelab/foolbox/issues/647
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 42
root-cause: line 49
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def samples(batchsize=4, shape=(3, 32, 32), n_classes=10, seed=0):
    """Like foolbox.utils.samples: images in [0, 1] and their labels as an int32 NumPy array."""
    rng = np.random.default_rng(seed)
    images = rng.random((batchsize,) + shape, dtype=np.float32)
    labels = np.array([rng.integers(0, n_classes) for _ in range(batchsize)], dtype=np.int32)
    return images, labels


class TinyResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        x = self.stem(x)
        x = F.relu(x + self.block(x))
        return self.fc(x.mean((2, 3)))


class FGSM:
    def __init__(self, model, bounds=(0.0, 1.0)):
        self.model = model
        self.bounds = bounds

    def __call__(self, inputs, labels, epsilon):
        x = inputs.clone().requires_grad_(True)
        loss = F.cross_entropy(self.model(x), labels)  # fails-here
        grad, = torch.autograd.grad(loss, x)
        return (inputs + epsilon * grad.sign()).clamp(*self.bounds)


model = TinyResNet().eval()
images, labels = samples()
images, labels = torch.from_numpy(images), torch.from_numpy(labels)  # root-cause
attack = FGSM(model)
adv = attack(images, labels, epsilon=0.03)
clean_acc = (model(images).argmax(1) == labels).float().mean().item()
adv_acc = (model(adv).argmax(1) == labels).float().mean().item()
print(f"clean accuracy {clean_acc:.2f}, adversarial accuracy {adv_acc:.2f}")
