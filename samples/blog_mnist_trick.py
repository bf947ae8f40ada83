"""The blog's "one trick" MNIST template, offline.

Faithful to the post: the conditional set_default_tensor_type block, a Sequential MLP,
Adam(lr=0.001), cross_entropy, and the loop that iterates the dataset itself. Only the
torchvision download is replaced by a synthetic MNIST-shaped dataset that does what
ToTensor() + Normalize((0.5,), (0.5,)) do.

What really happens: the set_default_tensor_type calls are deprecated (and on CPU change
nothing); on CPU the first step fails because the dataset yields Python int labels; on a
GPU the CUDA model meets the CPU images first (from_numpy, like ToTensor, makes CPU tensors).
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset

# The "trick": set the default tensor type before the model and the data are created.
if torch.cuda.is_available():
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # expect: DG002
else:
    torch.set_default_tensor_type("torch.FloatTensor")  # expect: DG002


class SyntheticMNIST(Dataset):
    """Stands in for torchvision.datasets.MNIST(root, train=True, download=True, transform=...)."""

    def __init__(self, n=512, seed=0):
        rng = np.random.default_rng(seed)
        self.data = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        self.targets = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        image = torch.from_numpy(self.data[index]).float().div(255).unsqueeze(0)  # ToTensor()
        image = (image - 0.5) / 0.5  # Normalize((0.5,), (0.5,))
        return image, int(self.targets[index])  # MNIST returns the label as a Python int


train_dataset = SyntheticMNIST()

model = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

for epoch in range(10):
    for inputs, labels in train_dataset:
        optimizer.zero_grad()
        outputs = model(inputs.view(-1, 28 * 28))  # expect: DG009
        loss = F.cross_entropy(outputs, labels)  # expect: DG006
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
