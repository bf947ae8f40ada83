"""Quickstart-tutorial training script: train() moves every batch to the device, but the final prediction cell evaluates the model on x = test_data[0][0] without .to(device), so on a GPU the CUDA model gets a CPU tensor
source: https://github.com/pytorch/tutorials/pull/1890
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices... (model(x) when device is not "cpu"; the PR moves the test data to the device)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (the CPU sample reaches the first CUDA Linear; exact wording varies with the torch version) at line 29; on CPU: ok
root-cause: line 50
expect: DG009
"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")

g = torch.Generator().manual_seed(0)
training_data = TensorDataset(torch.rand(256, 1, 28, 28, generator=g), torch.randint(0, 10, (256,), generator=g))
test_data = TensorDataset(torch.rand(64, 1, 28, 28, generator=g), torch.randint(0, 10, (64,), generator=g))
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)  # fails-here


def train(dataloader, model, loss_fn, optimizer):
    model.train()
    for X, y in dataloader:
        X, y = X.to(device), y.to(device)
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


model = NeuralNetwork().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
for t in range(2):
    print(f"Epoch {t + 1}: loss {train(DataLoader(training_data, batch_size=64), model, loss_fn, optimizer):.4f}")

model.eval()
x, y = test_data[0][0], test_data[0][1]  # root-cause
with torch.no_grad():
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
