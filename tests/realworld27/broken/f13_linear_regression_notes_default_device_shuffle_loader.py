"""Linear-regression notes turned into a mini-batch trainer (StarlitVienna/pytorch-notes basic_model2 layout): model.py makes CUDA the process-wide default device with torch.set_default_device when a GPU exists, and the mini-batch variant of main.py wraps the data in DataLoader(..., shuffle=True), whose RandomSampler draws its permutation with a CPU generator under the CUDA default device
source: https://github.com/StarlitVienna/pytorch-notes/blob/b8e96b831e7a30f2b73e301314355141aa08ca7b/mlBasics/training_models/basic_model2/model.py
reported-error: (none filed; the same pattern fails in many repos with RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' as soon as the shuffled loader is iterated)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm runs under the CUDA default device with a CPU generator; wording varies with the torch version; not run on a GPU for this set) at line 41; on CPU: ok
root-cause: line 14
expect: DG003
"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# ---- model.py
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(device)  # root-cause
print(f"Default device set to {device}!")


class BasicLinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_layer = nn.Linear(in_features=1, out_features=1, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear_layer(x)


# ---- datasetGenerator.py
W = 0.1234
B = 0.345
X = torch.arange(start=0, end=5, step=0.02).unsqueeze(dim=1)
Y = (X * W) + B
train_split = int(0.8 * len(X))
X_train, Y_train = X[:train_split], Y[:train_split]
X_test, Y_test = X[train_split:], Y[train_split:]


# ---- main.py (mini-batch variant)
def train_model(model, loss_fn, optim, train_loader, epochs):
    model.train()
    for epoch in range(epochs):
        for inputs, labels in train_loader:  # fails-here
            preds = model(inputs)
            loss = loss_fn(preds, labels)
            optim.zero_grad()
            loss.backward()
            optim.step()
    model.eval()


def main_func():
    torch.manual_seed(42)
    model = BasicLinearRegressionModel()
    loss_fn = nn.L1Loss()
    optimizer = torch.optim.SGD(params=model.parameters(), lr=0.01)
    train_loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=16, shuffle=True)
    train_model(model, loss_fn, optimizer, train_loader, 200)
    with torch.inference_mode():
        preds = model(X_test)
    print("Final params:", {k: round(v.item(), 4) for k, v in model.state_dict().items()})
    print("Desired weights -->", W, "bias -->", B, "test L1", (preds - Y_test).abs().mean().item())


if __name__ == "__main__":
    main_func()
