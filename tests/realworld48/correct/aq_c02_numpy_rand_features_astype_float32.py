"""Small regression trained on NumPy-generated data (the yuhi-sa blog post as in aq02) with the post's fix: the float64 np.random.rand array is cast with x.astype(np.float32) before torch.tensor, so the float32 nn.Linear network trains; the float64 NumPy arrays and the float64 matmul that makes the target stay as they are
source: https://yuhi-sa.github.io/en/posts/20210215_pytorch_dtype/1
reported-error: (none filed; the fixed situation of aq02)
outcome: ok
root-cause: -
expect: none
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

torch_x = torch.tensor(x.astype(np.float32))
torch_y = torch.tensor(y.astype(np.float32)).unsqueeze(1)
print(torch_x.dtype, torch_y.dtype)


class Net(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.fc1 = nn.Linear(n_in, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


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
