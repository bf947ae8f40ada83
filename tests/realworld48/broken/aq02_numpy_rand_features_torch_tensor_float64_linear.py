"""Small regression trained on NumPy-generated data (the situation of the yuhi-sa blog post on unifying dtypes when converting NumPy arrays to PyTorch tensors): the inputs come from np.random.rand, which is float64, and torch.tensor(x) keeps that dtype, so the first forward of the float32 nn.Linear network fails
source: https://yuhi-sa.github.io/en/posts/20210215_pytorch_dtype/1
reported-error: "When a NumPy array is directly converted to a PyTorch tensor, the original dtype is preserved": torch.tensor(np.random.rand(5)) is tensor(..., dtype=torch.float64); the post's fix is torch.tensor(x.astype(np.float32)) before the model sees it
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 33
root-cause: line 21
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)

# data: 5 features per sample, a noisy linear target
n_samples, n_features = 200, 5
x = np.random.rand(n_samples, n_features)
w_true = np.array([0.5, -1.0, 2.0, 0.0, 1.5])
y = x @ w_true + 0.05 * np.random.randn(n_samples)

torch_x = torch.tensor(x)  # root-cause
torch_y = torch.tensor(y.astype(np.float32)).unsqueeze(1)
print(torch_x.dtype, torch_y.dtype)


class Net(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.fc1 = nn.Linear(n_in, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))  # fails-here


model = Net(n_features)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(200):
    optimizer.zero_grad()
    pred = model(torch_x)
    loss = criterion(pred, torch_y)
    loss.backward()
    optimizer.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")

print("final loss", loss.item())
