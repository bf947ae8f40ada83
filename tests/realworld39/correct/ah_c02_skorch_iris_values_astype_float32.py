"""Iris classifier wrapped in skorch's NeuralNetClassifier and scored with cross_val_score (as in ah02) with the maintainers' answer applied: X = base.iloc[:, 0:4].values.astype(np.float32), the LabelEncoder labels stay int64 NumPy for NLLLoss, and the module ends in Softmax because skorch's NeuralNetClassifier takes the log itself for NLLLoss (skorch issue #519)
source: https://github.com/skorch-dev/skorch/issues/518
reported-error: (none filed; the fixed situation of ah02, as the skorch maintainers answered in issues #518 and #519)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import LabelEncoder

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


# ---- skorch/utils.py
def to_tensor(X, device):
    """Turn input data to torch tensors; NumPy arrays keep their dtype (torch.as_tensor)."""
    if isinstance(X, torch.Tensor):
        return X.to(device)
    if isinstance(X, dict):
        return {key: to_tensor(val, device) for key, val in X.items()}
    if isinstance(X, (list, tuple)):
        return [to_tensor(x, device) for x in X]
    if np.isscalar(X):
        return torch.as_tensor(X, device=device)
    return torch.as_tensor(np.asarray(X), device=device)


def to_numpy(X):
    if isinstance(X, np.ndarray):
        return X
    return X.detach().cpu().numpy()


# ---- skorch/dataset.py
class Dataset(torch.utils.data.Dataset):
    def __init__(self, X, y=None, length=None):
        self.X = X
        self.y = y
        self._len = len(X) if length is None else length
        self.X_indexing = lambda data, i: data[i]

    def __len__(self):
        return self._len

    def transform(self, X, y):
        y = torch.Tensor([0]) if y is None else y
        return X, y

    def __getitem__(self, i):
        Xi = self.X_indexing(self.X, i)
        yi = self.y[i] if self.y is not None else None
        return self.transform(Xi, yi)


class ValidSplit:
    def __init__(self, cv=5, stratified=False, random_state=None):
        self.cv = cv
        self.stratified = stratified
        self.random_state = random_state

    def __call__(self, dataset, y=None, groups=None):
        n_valid = len(dataset) // self.cv
        rng = np.random.RandomState(self.random_state)
        idx = rng.permutation(len(dataset))
        idx_valid, idx_train = idx[:n_valid], idx[n_valid:]
        return (Dataset(dataset.X[idx_train], dataset.y[idx_train]),
                Dataset(dataset.X[idx_valid], dataset.y[idx_valid]))


# ---- skorch/net.py
class NeuralNet(BaseEstimator):
    def __init__(self, module, criterion, optimizer=torch.optim.SGD, lr=0.01, max_epochs=10, batch_size=128,
                 iterator_train=DataLoader, iterator_valid=DataLoader, dataset=Dataset,
                 train_split=ValidSplit(5), device='cpu', verbose=1):
        self.module = module
        self.criterion = criterion
        self.optimizer = optimizer
        self.lr = lr
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.iterator_train = iterator_train
        self.iterator_valid = iterator_valid
        self.dataset = dataset
        self.train_split = train_split
        self.device = device
        self.verbose = verbose

    def initialize(self):
        self.module_ = self.module() if isinstance(self.module, type) else self.module
        self.module_ = self.module_.to(self.device)
        self.criterion_ = self.criterion()
        self.optimizer_ = self.optimizer(self.module_.parameters(), lr=self.lr)
        self.history_ = []
        self.initialized_ = True
        return self

    def get_dataset(self, X, y=None):
        return self.dataset(X, y)

    def get_split_datasets(self, X, y=None):
        dataset = self.get_dataset(X, y)
        if not self.train_split:
            return dataset, None
        return self.train_split(dataset, y)

    def get_iterator(self, dataset, training=False):
        if training:
            return self.iterator_train(dataset, batch_size=self.batch_size, shuffle=True)
        return self.iterator_valid(dataset, batch_size=self.batch_size, shuffle=False)

    def infer(self, x, **fit_params):
        x = to_tensor(x, device=self.device)
        return self.module_(x, **fit_params)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        y_true = to_tensor(y_true, device=self.device)
        return self.criterion_(y_pred, y_true)

    def train_step(self, batch, **fit_params):
        Xi, yi = batch
        self.module_.train()
        self.optimizer_.zero_grad()
        y_pred = self.infer(Xi, **fit_params)
        loss = self.get_loss(y_pred, yi, X=Xi, training=True)
        loss.backward()
        self.optimizer_.step()
        return {"loss": loss, "y_pred": y_pred}

    def validation_step(self, batch, **fit_params):
        Xi, yi = batch
        self.module_.eval()
        with torch.no_grad():
            y_pred = self.infer(Xi, **fit_params)
            loss = self.get_loss(y_pred, yi, X=Xi, training=False)
        return {"loss": loss, "y_pred": y_pred}

    def run_single_epoch(self, dataset, training, prefix, step_fn, **fit_params):
        if dataset is None:
            return
        batch_losses = []
        for batch in self.get_iterator(dataset, training=training):
            step = step_fn(batch, **fit_params)
            batch_losses.append(step["loss"].item())
        self.history_[-1][prefix + "_loss"] = float(np.mean(batch_losses))

    def fit_loop(self, X, y=None, epochs=None, **fit_params):
        epochs = epochs if epochs is not None else self.max_epochs
        dataset_train, dataset_valid = self.get_split_datasets(X, y)
        for _ in range(epochs):
            self.history_.append({"epoch": len(self.history_) + 1})
            self.run_single_epoch(dataset_train, training=True, prefix="train",
                                  step_fn=self.train_step, **fit_params)
            self.run_single_epoch(dataset_valid, training=False, prefix="valid",
                                  step_fn=self.validation_step, **fit_params)
            if self.verbose:
                print(self.history_[-1])
        return self

    def partial_fit(self, X, y=None, classes=None, **fit_params):
        if not getattr(self, "initialized_", False):
            self.initialize()
        self.fit_loop(X, y, **fit_params)
        return self

    def fit(self, X, y=None, **fit_params):
        self.initialize()
        self.partial_fit(X, y, **fit_params)
        return self

    def forward(self, X):
        dataset = self.get_dataset(X)
        self.module_.eval()
        outs = []
        with torch.no_grad():
            for Xi, _ in self.get_iterator(dataset, training=False):
                outs.append(self.infer(Xi))
        return torch.cat(outs)

    def predict_proba(self, X):
        return to_numpy(self.forward(X))


# ---- skorch/classifier.py
class NeuralNetClassifier(NeuralNet, ClassifierMixin):
    def get_loss(self, y_pred, y_true, X=None, training=False):
        if isinstance(self.criterion_, torch.nn.NLLLoss):
            eps = torch.finfo(y_pred.dtype).eps
            y_pred = torch.log(y_pred + eps)
        return super().get_loss(y_pred, y_true, X=X, training=training)

    def fit(self, X, y, **fit_params):
        self.classes_ = np.unique(y)
        return super().fit(X, y, **fit_params)

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


# ---- the user's notebook
def make_iris_csv(seed=0):
    rng = np.random.RandomState(seed)
    centers = {"Iris-setosa": [5.0, 3.4, 1.5, 0.2], "Iris-versicolor": [5.9, 2.8, 4.3, 1.3],
               "Iris-virginica": [6.6, 3.0, 5.6, 2.0]}
    rows = []
    for name, c in centers.items():
        for _ in range(50):
            rows.append([round(v + rng.normal(0, 0.3), 1) for v in c] + [name])
    rows = [rows[i] for i in rng.permutation(len(rows))]
    frame = pd.DataFrame(rows, columns=["sepal length", "sepal width", "petal length", "petal width", "class"])
    return io.StringIO(frame.to_csv(index=False))


base = pd.read_csv(make_iris_csv())
X = base.iloc[:, 0:4].values.astype(np.float32)
y = base.iloc[:, 4].values

labelencoder = LabelEncoder()
y = labelencoder.fit_transform(y)


class classifier_torch(nn.Module):
    def __init__(self):
        super().__init__()

        self.dense0 = nn.Linear(4, 4)
        self.activation0 = nn.ReLU()
        self.dense1 = nn.Linear(4, 4)
        self.activation1 = nn.ReLU()
        self.dense2 = nn.Linear(4, 3)
        self.output = nn.Softmax(dim=-1)

    def forward(self, X):
        X = self.dense0(X)
        X = self.activation0(X)
        X = self.dense1(X)
        X = self.activation1(X)
        X = self.dense2(X)
        X = self.output(X)
        return X


torch.manual_seed(0)
classifier_sklearn = NeuralNetClassifier(module=classifier_torch,
                                         criterion=torch.nn.NLLLoss,
                                         optimizer=torch.optim.Adam,
                                         lr=0.01,
                                         max_epochs=20,
                                         batch_size=10,
                                         train_split=False,
                                         verbose=0)

results = cross_val_score(classifier_sklearn, X, y, cv=StratifiedKFold(n_splits=5), scoring='accuracy',
                          error_score='raise')
print("accuracy per fold:", results, "mean:", results.mean())
