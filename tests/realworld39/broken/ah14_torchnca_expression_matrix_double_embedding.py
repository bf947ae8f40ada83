"""Neighbourhood Components Analysis embedding of an expression matrix with torchnca (torchnca issue #3: the reporter converts a pandas expression table with `Xten = torch.from_numpy(Xarr).double()` and integer labels, then calls `emb = nca.NCA(dim=2, init="random"); emb.train(Xten, yten, batch_size=64, normalize=False)`): NCA's linear map A is a float32 torch.nn.Parameter, so the first torch.mm(X, A.t()) of NCA.loss mixes the float64 expression batch with the float32 map
source: https://github.com/kevinzakka/torchnca/issues/3
reported-error: "error in distances * (~y_mask.int()).float()": the embedding breaks when run on Xten = torch.from_numpy(Xarr).double() and yten = torch.from_numpy(yarr).int(); "Converting numpy array to float32 got it to run"
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 67
root-cause: line 139
expect: DG004
"""
import io

import numpy as np
import pandas as pd

import torch


# ---- torchnca/nca.py
class NCA:
    """Neighbourhood Components Analysis."""

    def __init__(self, dim=None, init="random", max_iters=500, tol=1e-5):
        self.dim = dim
        self.init = init
        self.max_iters = max_iters
        self.tol = tol
        self._mean = None
        self._stddev = None
        self._losses = None

    def __call__(self, X):
        if self._mean is not None and self._stddev is not None:
            X = (X - self._mean) / self._stddev
        return torch.mm(X, torch.t(self.A))

    def _init_transformation(self):
        if self.dim is None:
            self.dim = self.num_dims
        if self.init == "random":
            a = torch.randn(self.dim, self.num_dims) * 0.01
            self.A = torch.nn.Parameter(a).to(self.device)
        elif self.init == "identity":
            a = torch.eye(self.dim, self.num_dims)
            self.A = torch.nn.Parameter(a).to(self.device)
        else:
            raise ValueError("[!] {} initialization is not supported.".format(self.init))

    @staticmethod
    def _pairwise_l2_sq(x):
        dot = torch.mm(x.double(), torch.t(x.double()))
        norm_sq = torch.diag(dot)
        dist = norm_sq[None, :] - 2 * dot + norm_sq[:, None]
        dist = torch.clamp(dist, min=0)  # replace negative values with 0
        return dist.float()

    @staticmethod
    def _softmax(x):
        exp = torch.exp(x)
        return exp / exp.sum(dim=1)

    @property
    def losses(self):
        if self._losses is None:
            raise ValueError('There are no losses to report. You must call train first.')
        return self._losses

    def loss(self, X, y_mask):
        # pairwise squared Euclidean distances in the transformed space
        embedding = torch.mm(X, torch.t(self.A))  # fails-here
        distances = self._pairwise_l2_sq(embedding)
        distances.diagonal().copy_(np.inf * torch.ones(len(distances)))
        p_ij = self._softmax(-distances)
        p_ij_mask = p_ij * y_mask.float()
        p_i = p_ij_mask.sum(dim=1)
        classification_loss = -torch.log(torch.masked_select(p_i, p_i != 0)).sum()
        distances.diagonal().copy_(torch.zeros(len(distances)))
        diff_class_distances = distances * (~y_mask).float()
        margin_diff = 1 - diff_class_distances
        hinge_loss = torch.clamp(margin_diff, min=0).pow(2).sum(1).mean()
        return classification_loss + hinge_loss

    def train(self, X, y, batch_size=None, lr=1e-4, momentum=0.9, weight_decay=10, normalize=True):
        self._losses = []
        self.num_train, self.num_dims = X.shape
        self.device = torch.device("cuda" if X.is_cuda else "cpu")
        if batch_size is None:
            batch_size = self.num_train
        batch_size = min(batch_size, self.num_train)
        self._init_transformation()
        if normalize:
            self._mean = X.mean(dim=0)
            self._stddev = X.std(dim=0)
            X = (X - self._mean) / self._stddev
        optimizer = torch.optim.SGD([self.A], lr=lr, weight_decay=weight_decay, momentum=momentum)
        iters_per_epoch = int(np.ceil(self.num_train / batch_size))
        i_global = 0
        for epoch in range(self.max_iters):
            rand_idxs = torch.randperm(len(y))  # shuffle dataset
            X = X[rand_idxs]
            y = y[rand_idxs]
            A_prev = optimizer.param_groups[0]['params'][0].clone()
            for i in range(iters_per_epoch):
                X_batch = X[i * batch_size:(i + 1) * batch_size]
                y_batch = y[i * batch_size:(i + 1) * batch_size]
                y_mask = y_batch[:, None] == y_batch[None, :]
                optimizer.zero_grad()
                loss = self.loss(X_batch, y_mask)
                self._losses.append(loss.item())
                loss.backward()
                optimizer.step()
                i_global += 1
                if not i_global % 25:
                    print("epoch: {} - loss: {:.5f}".format(epoch + 1, loss.item()))
            A_curr = optimizer.param_groups[0]['params'][0]
            if torch.all(torch.abs(A_prev - A_curr) <= self.tol):
                print("[*] Optimization has converged in {} mini batch iterations.".format(i_global))
                break


# ---- the reporter's notebook
def read_expression_table(n_cells=300, n_genes=40, n_types=3, seed=0):
    rng = np.random.default_rng(seed)
    cell_type = rng.integers(0, n_types, n_cells)
    profiles = rng.gamma(2.0, 2.0, (n_types, n_genes))
    counts = rng.poisson(profiles[cell_type])
    frame = pd.DataFrame(np.log1p(counts), columns=[f"gene_{g}" for g in range(n_genes)])
    frame["cell_type"] = [f"type_{t}" for t in cell_type]
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


if __name__ == "__main__":
    torch.manual_seed(0)
    table = read_expression_table()
    Xpd = table.drop(columns=["cell_type"])
    Xpd = (Xpd - Xpd.mean()) / (Xpd.std() + 1e-8)
    ypd = table["cell_type"].astype("category").cat.codes

    Xarr = Xpd.to_numpy()
    yarr = ypd.to_numpy().astype('long')

    Xten = torch.from_numpy(Xarr).double()  # root-cause
    yten = torch.from_numpy(yarr)

    emb = NCA(dim=2, init="random", max_iters=20)
    emb.train(Xten, yten, batch_size=64, normalize=False, lr=1e-3, weight_decay=0.0)
    print("embedding:", emb(Xten).shape)
