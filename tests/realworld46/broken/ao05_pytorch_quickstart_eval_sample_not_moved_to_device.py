"""PyTorch quickstart tutorial (pytorch/tutorials beginner_source/basics/quickstart_tutorial.py: FashionMNIST DataLoaders, NeuralNetwork moved to the accelerator device, train / test loops that move each batch with X.to(device), torch.save / load_state_dict, then the closing "making predictions" cell), the state of the issue: the prediction cell takes x, y = test_data[0][0], test_data[0][1] and calls model(x) without moving x to the device the reloaded model was put on, so it runs on a CPU-only machine and fails only where the device is cuda
source: https://github.com/pytorch/tutorials/issues/1983
reported-error: Runtime error @ quickstart_tutorial.py when using model.eval() on cuda: pred = model(x) -> RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_addmm); solved by pred = model(x.to(device))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the issue's wording; not run on a GPU for this set) at line 148; on CPU: ok
root-cause: line 148
expect: DG009
"""
import os
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


# ---- torchvision.datasets.FashionMNIST(root="data", train=..., download=True, transform=ToTensor()) (re-typed:
# seeded 28x28 float images in [0, 1], ten classes whose mean brightness pattern differs; nothing is downloaded)
class FashionMNIST(Dataset):
    def __init__(self, root, train=True, download=True, transform=None, n=None):
        g = torch.Generator().manual_seed(0 if train else 1)
        n = n or (600 if train else 100)
        self.targets = torch.randint(0, 10, (n,), generator=g)
        protos = torch.rand(10, 1, 28, 28, generator=torch.Generator().manual_seed(7))
        self.data = (protos[self.targets] + 0.3 * torch.rand(n, 1, 28, 28, generator=g)).clamp(0, 1)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        return self.data[idx], int(self.targets[idx])


# Download training data from open datasets.
training_data = FashionMNIST(root="data", train=True, download=True)
# Download test data from open datasets.
test_data = FashionMNIST(root="data", train=False, download=True)

batch_size = 64

# Create data loaders.
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)

for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

# Get cpu, gpu or mps device for training.
device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


# Define model
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10)
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)

        # Compute prediction error
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 5 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


epochs = 3
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")

# Saving Models
path = os.path.join(tempfile.mkdtemp(), "model.pth")
torch.save(model.state_dict(), path)
print("Saved PyTorch Model State to model.pth")

# Loading Models
model = NeuralNetwork().to(device)
model.load_state_dict(torch.load(path, weights_only=True))

classes = [
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
]

model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model(x)  # root-cause  # fails-here
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
