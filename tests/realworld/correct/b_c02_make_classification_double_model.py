"""Fixed pytorch#15436 the other way round: keep float64 data and make the model float64 too; labels stay int64
source: https://github.com/pytorch/pytorch/issues/15436
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'mat2'
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


def make_classification(n_samples=100, n_features=10):
    rng = np.random.RandomState(0)
    X = rng.randn(n_samples, n_features)
    y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
    return X, y


class SingleLayeredNetwork(nn.Module):
    def __init__(self, input_dimension, output_dimension):
        super(SingleLayeredNetwork, self).__init__()
        self.fc = nn.Linear(input_dimension, output_dimension)

    def forward(self, x):
        return self.fc(x)


X, y = make_classification(n_samples=600, n_features=10)
X_train = torch.from_numpy(X[:450])
y_train = torch.from_numpy(y[:450])

model = SingleLayeredNetwork(10, 2).double()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(3):
    for i in range(0, len(X_train), 100):
        optimizer.zero_grad()
        outputs = model(X_train[i:i + 100])
        loss = criterion(outputs, y_train[i:i + 100])
        loss.backward()
        optimizer.step()
    print('Epoch: {}. Loss: {}'.format(epoch, loss.item()))
