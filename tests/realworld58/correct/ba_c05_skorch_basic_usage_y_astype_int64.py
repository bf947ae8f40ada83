"""The skorch Basic_Usage run of ba05 (skorch-dev/skorch #554) with the maintainer's advice applied: after make_classification (y still built with the 32-bit Windows int) the notebook casts X to float32 and y to int64, so skorch's to_tensor hands NLLLoss a Long target and the classifier trains; the int32 label array from make_classification, the dtype-preserving torch.as_tensor and the log-of-softmax NLLLoss are kept
source: https://github.com/skorch-dev/skorch/issues/554
reported-error: (none filed; the fixed situation of ba05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
WINDOWS_NUMPY1_INT = np.int32  # what dtype=int means on a Windows build of NumPy < 2 (a 32-bit C long)


def make_classification(n_samples=100, n_features=20, n_informative=2, n_classes=2, random_state=None):
    """sklearn.datasets.make_classification (re-typed, one cluster per class, informative + noise features)."""
    rs = np.random.RandomState(random_state)
    X = np.zeros((n_samples, n_features))
    y = np.zeros(n_samples, dtype=WINDOWS_NUMPY1_INT)
    centroids = rs.uniform(-1, 1, (n_classes, n_informative)) * 2
    per_class = n_samples // n_classes
    for k in range(n_classes):
        start, stop = k * per_class, (k + 1) * per_class
        y[start:stop] = k
        X[start:stop, :n_informative] = centroids[k] + rs.standard_normal((per_class, n_informative))
    X[:, n_informative:] = rs.standard_normal((n_samples, n_features - n_informative))
    idx = rs.permutation(n_samples)
    return X[idx], y[idx]


def to_tensor(X, device):
    """skorch.utils.to_tensor: numpy arrays go through torch.as_tensor, dtype preserved."""
    return torch.as_tensor(X, device=device)


class NeuralNetClassifier:
    """skorch.NeuralNetClassifier (re-typed: initialize, fit loop with a train/valid split, get_loss)."""

    def __init__(self, module, max_epochs=10, lr=0.1, batch_size=128, device="cpu", criterion=nn.NLLLoss):
        self.module, self.max_epochs, self.lr, self.batch_size, self.device = module, max_epochs, lr, batch_size, device
        self.criterion = criterion

    def initialize(self):
        self.module_ = self.module().to(self.device)
        self.criterion_ = self.criterion()
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=self.lr)

    def get_loss(self, y_pred, y_true):
        eps = torch.finfo(y_pred.dtype).eps
        return self.criterion_(torch.log(y_pred + eps), y_true)

    def fit(self, X, y):
        self.initialize()
        n_valid = len(X) // 5
        Xt, yt = to_tensor(X[n_valid:], self.device), to_tensor(y[n_valid:], self.device)
        Xv, yv = to_tensor(X[:n_valid], self.device), to_tensor(y[:n_valid], self.device)
        for epoch in range(1, self.max_epochs + 1):
            self.module_.train()
            for i in range(0, len(Xt), self.batch_size):
                loss = self.get_loss(self.module_(Xt[i:i + self.batch_size]), yt[i:i + self.batch_size])
                self.optimizer_.zero_grad()
                loss.backward()
                self.optimizer_.step()
            self.module_.eval()
            with torch.no_grad():
                proba = self.module_(Xv)
                print(f"epoch {epoch} train_loss {loss.item():.4f} valid_loss {self.get_loss(proba, yv).item():.4f} "
                      f"valid_acc {(proba.argmax(1) == yv).float().mean().item():.3f}")
        return self


class ClassifierModule(nn.Module):
    def __init__(self, num_units=10, nonlin=F.relu, dropout=0.5):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dropout = nn.Dropout(dropout)
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 2)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = F.relu(self.dense1(X))
        return F.softmax(self.output(X), dim=-1)


X, y = make_classification(1000, 20, n_informative=10, random_state=0)
X = X.astype(np.float32)
y = y.astype(np.int64)
print(X.shape, y.shape, X.dtype, y.dtype)
net = NeuralNetClassifier(ClassifierModule, max_epochs=10, lr=0.1)
net.fit(X, y)
