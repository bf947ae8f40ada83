"""The scikit-learn Pipeline ending in a skorch-style NeuralNetRegressor of bx03 (skorch-dev/skorch #414) with the ColumnTransformer's OneHotEncoder asked for float32 output (dtype=np.float32): skorch's Dataset still densifies the sparse one-hot rows and the DataLoader collates them, now as float32 batches, so the RegressorModule trains inside the pipeline and pipe.predict recovers the per-level effects; the sparse-row densifying Dataset, torch.as_tensor in to_tensor and the float32 2-d target are kept
source: https://github.com/skorch-dev/skorch/issues/414
reported-error: (none filed; the fixed situation of bx03)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.compose import make_column_transformer
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from torch import nn
from torch.utils.data import DataLoader

torch.manual_seed(0)


def to_tensor(X, device):
    if isinstance(X, torch.Tensor):
        return X.to(device)
    if isinstance(X, (list, tuple)):
        return [to_tensor(x, device) for x in X]
    if isinstance(X, np.ndarray):
        return torch.as_tensor(X, device=device)
    raise TypeError("Cannot convert this data type to a torch tensor.")


class Dataset(torch.utils.data.Dataset):
    def __init__(self, X, y=None):
        self.X, self.y = X, y
        self._len = X.shape[0]

    def __len__(self):
        return self._len

    def transform(self, X, y):
        y = torch.Tensor([0]) if y is None else y
        # pytorch cannot convert sparse matrices, for now just make it
        # dense; squeeze because X[i].shape is (1, n) for csr matrices
        if hasattr(X, 'toarray'):  # sparse.issparse(X) in skorch (scipy is not imported here)
            X = X.toarray().squeeze(0)
        return X, y

    def __getitem__(self, i):
        Xi = self.X[i]
        yi = self.y[i] if self.y is not None else None
        return self.transform(Xi, yi)


class CVSplit:
    def __init__(self, cv=5):
        self.cv = cv

    def __call__(self, dataset, y=None):
        idx_train, idx_valid = next(iter(KFold(self.cv).split(np.arange(len(dataset)))))
        X, y = dataset.X, dataset.y
        return Dataset(X[idx_train], y[idx_train]), Dataset(X[idx_valid], y[idx_valid])


class NeuralNetRegressor(BaseEstimator, RegressorMixin):
    def __init__(self, module, criterion=torch.nn.MSELoss, optimizer=torch.optim.SGD, lr=0.01,
                 max_epochs=10, batch_size=128, train_split=CVSplit(5), device='cpu', verbose=1, **kwargs):
        self.module, self.criterion, self.optimizer = module, criterion, optimizer
        self.lr, self.max_epochs, self.batch_size = lr, max_epochs, batch_size
        self.train_split, self.device, self.verbose = train_split, device, verbose
        self.module_kwargs = {k[len('module__'):]: v for k, v in kwargs.items() if k.startswith('module__')}

    def initialize(self):
        self.module_ = self.module(**self.module_kwargs).to(self.device)
        self.criterion_ = self.criterion()
        self.optimizer_ = self.optimizer(self.module_.parameters(), lr=self.lr)
        self.history_ = []
        return self

    def check_data(self, X, y):
        if y is not None and y.ndim == 1:
            raise ValueError("The target data shouldn't be 1-dimensional but instead have 2 dimensions")

    def get_iterator(self, dataset, training=False):
        return DataLoader(dataset, batch_size=self.batch_size, shuffle=training)

    def infer(self, x, **fit_params):
        x = to_tensor(x, device=self.device)
        return self.module_(x, **fit_params)

    def train_step(self, Xi, yi, **fit_params):
        self.module_.train()
        self.optimizer_.zero_grad()
        y_pred = self.infer(Xi, **fit_params)
        loss = self.criterion_(y_pred, to_tensor(yi, device=self.device))
        loss.backward()
        self.optimizer_.step()
        return {'loss': loss, 'y_pred': y_pred}

    def validation_step(self, Xi, yi):
        self.module_.eval()
        with torch.no_grad():
            return self.criterion_(self.infer(Xi), to_tensor(yi, device=self.device))

    def fit_loop(self, X, y=None, epochs=None, **fit_params):
        self.check_data(X, y)
        dataset_train, dataset_valid = self.train_split(Dataset(X, y))
        for epoch in range(epochs or self.max_epochs):
            train_losses = [self.train_step(Xi, yi, **fit_params)['loss'].item()
                            for Xi, yi in self.get_iterator(dataset_train, training=True)]
            valid_losses = [self.validation_step(Xi, yi).item() for Xi, yi in self.get_iterator(dataset_valid)]
            self.history_.append((np.mean(train_losses), np.mean(valid_losses)))
            if self.verbose:
                print(f"epoch {epoch + 1:3d}  train_loss {self.history_[-1][0]:.4f}  valid_loss {self.history_[-1][1]:.4f}")
        return self

    def fit(self, X, y=None, **fit_params):
        self.initialize()
        return self.fit_loop(X, y, **fit_params)

    def predict(self, X):
        self.module_.eval()
        with torch.no_grad():
            return torch.cat([self.infer(Xi) for Xi, _ in self.get_iterator(Dataset(X))]).numpy()


class RegressorModule(nn.Module):
    def __init__(self, num_inputs=5, num_units=10, nonlin=F.relu):
        super(RegressorModule, self).__init__()
        self.dense0 = nn.Linear(num_inputs, num_units)
        self.nonlin = nonlin
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 1)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = F.relu(self.dense1(X))
        X = self.output(X)
        return X


rng = np.random.default_rng(0)
levels = np.array(['north', 'south', 'east', 'west', 'centre'])
a_column = levels[rng.integers(0, len(levels), size=500)]
effect = dict(zip(levels, [1.0, -2.0, 0.5, 3.0, -0.5]))
df = pd.DataFrame({'a_column': a_column,
                   'target': [effect[v] for v in a_column] + rng.normal(0, 0.1, 500)})

ct = make_column_transformer(
    (OneHotEncoder(dtype=np.float32), ['a_column']),
    ('drop', ['target']),
)

net = NeuralNetRegressor(
    RegressorModule,
    module__num_inputs=len(levels),
    max_epochs=20,
    lr=0.1,
)

pipe = make_pipeline(ct, net)
pipe.fit(df, df[['target']].values.astype(np.float32))
y_pred = pipe.predict(df.iloc[:5])
print(np.c_[y_pred, df.target.values[:5]])
assert np.abs(y_pred.ravel() - df.target.values[:5]).max() < 0.5, y_pred
