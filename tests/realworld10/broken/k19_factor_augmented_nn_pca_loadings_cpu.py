"""Factor-augmented regression network (FAST-NN style): the factor loadings are estimated with numpy PCA in a helper and stored on the model as a plain tensor attribute, so model.to('cuda') leaves them on the CPU and the projection torch.mm(x, self.loadings) mixes devices on a GPU machine
source: https://github.com/wmyw96/FAST-NN/issues/1
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_mm)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (torch.mm of the CUDA batch with the CPU loadings; exact wording varies with the torch version) at line 27; on CPU: ok
root-cause: line 22
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn


def estimate_loadings(x_np, r):
    x_c = x_np - x_np.mean(0)
    _, _, vt = np.linalg.svd(x_c, full_matrices=False)
    return vt[:r].T.astype(np.float32)


class FactorAugmentedNN(nn.Module):
    def __init__(self, x_train, r=4, width=32):
        super().__init__()
        self.loadings = torch.from_numpy(estimate_loadings(x_train, r))  # root-cause
        self.mlp = nn.Sequential(nn.Linear(r, width), nn.ReLU(), nn.Linear(width, 1))
        self.skip = nn.Linear(x_train.shape[1], 1)

    def forward(self, x):
        factors = torch.mm(x, self.loadings)  # fails-here
        return self.mlp(factors) + self.skip(x)


def main(idx=87):
    rng = np.random.default_rng(idx)
    x_np = rng.normal(size=(256, 20)).astype(np.float32)
    y_np = (x_np[:, :4].sum(1, keepdims=True) ** 2 / 10).astype(np.float32)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = FactorAugmentedNN(x_np).to(device)
    x, y = torch.from_numpy(x_np).to(device), torch.from_numpy(y_np).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
