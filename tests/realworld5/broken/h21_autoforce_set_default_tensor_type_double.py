"""Gaussian-process force-field fitting that switches to double precision with the deprecated torch.set_default_tensor_type(torch.DoubleTensor)
source: https://github.com/amirhajibabaei/AutoForce/pull/33
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 11
expect: DG002
"""
import torch
from torch.nn import Module, Parameter

torch.set_default_tensor_type(torch.DoubleTensor)  # root-cause


class RBF(Module):
    def __init__(self, scale=1.0, signal=1.0):
        super().__init__()
        self._scale = Parameter(torch.tensor(scale).log())
        self._signal = Parameter(torch.tensor(signal).log())

    def forward(self, x, xx):
        d = (x[:, None] - xx[None]) / self._scale.exp()
        return self._signal.exp() ** 2 * torch.exp(-0.5 * (d ** 2).sum(-1))


class GaussianProcess(Module):
    def __init__(self, kernel, noise=1e-2):
        super().__init__()
        self.kernel = kernel
        self._noise = Parameter(torch.tensor(noise).log())

    def loss(self, X, Y):
        K = self.kernel(X, X) + torch.eye(X.size(0)) * self._noise.exp() ** 2
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(Y, L)
        return 0.5 * (Y * alpha).sum() + L.diagonal().log().sum()

    def fit(self, X, Y, steps=30, lr=0.05):
        opt = torch.optim.Adam(self.parameters(), lr=lr)
        for step in range(steps):
            opt.zero_grad()
            loss = self.loss(X, Y)
            loss.backward()
            opt.step()
        return loss.item()


def descriptors(n=40, dim=3):
    X = torch.rand(n, dim)
    energy = torch.sin(3 * X).sum(-1, keepdim=True)
    return X, energy


if __name__ == "__main__":
    X, Y = descriptors()
    gp = GaussianProcess(RBF())
    print("dtype", X.dtype, "final loss", gp.fit(X, Y))
