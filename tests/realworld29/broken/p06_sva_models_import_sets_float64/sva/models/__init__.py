import torch

torch.set_default_dtype(torch.float64)  # root-cause
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("torch default dtype set to torch.float64")


class EasyGP:
    """Exact GP regression with an RBF kernel (a stand-in for the botorch SingleTaskGP wrapper)."""

    def __init__(self, train_x, train_y, lengthscale=0.5, noise=1e-3):
        self.x = train_x.double()
        self.y = train_y.double()
        self.ls = lengthscale
        K = self.kernel(self.x, self.x) + noise * torch.eye(len(self.x))
        self.L = torch.linalg.cholesky(K)
        self.alpha = torch.cholesky_solve(self.y, self.L)

    def kernel(self, a, b):
        return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / self.ls**2)

    def predict(self, x):
        x = x.double()
        Ks = self.kernel(x, self.x)
        mean = (Ks @ self.alpha).squeeze(-1)
        v = torch.cholesky_solve(Ks.T, self.L)
        var = (1.0 - (Ks * v.T).sum(-1)).clamp_min(1e-9)
        return mean, var
