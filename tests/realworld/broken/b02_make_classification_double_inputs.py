"""LogisticRegression on make_classification data: inputs cast with .double() into a float32 model
source: https://github.com/pytorch/pytorch/issues/15436
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'mat2'
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 33
root-cause: line 39
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


def make_classification(n_samples=100, n_features=10, n_redundant=0, n_informative=2):
    # stand-in for sklearn.datasets.make_classification: float64 X, int64 y
    rng = np.random.RandomState(0)
    X = rng.randn(n_samples, n_features)
    y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
    return X, y


def train_test_split(X, y, stratify=None, random_state=42):
    n = int(len(X) * 0.75)
    return X[:n], y[:n], X[n:], y[n:]


class SingleLayeredNetwork(nn.Module):
    def __init__(self, input_dimension, output_dimension):
        super(SingleLayeredNetwork, self).__init__()
        self.fc = nn.Linear(input_dimension, output_dimension)

    def forward(self, x):
        return self.fc(x)  # fails-here


X, y = make_classification(n_samples=600, n_features=10, n_redundant=0, n_informative=2)

X_train, y_train, X_test, y_test = train_test_split(X, y, stratify=y, random_state=42)
X_train = Variable(torch.from_numpy(X_train)).double()  # root-cause
y_train = Variable(torch.from_numpy(y_train)).double()
X_test = Variable(torch.from_numpy(X_test)).double()
y_test = Variable(torch.from_numpy(y_test)).double()

input_dim = 10
output_dim = 2
criterion = nn.CrossEntropyLoss()
learning_rate = 0.001
batch_size = 100
n_iters = 30
num_epochs = int(n_iters / (len(X_train) / batch_size))

model = SingleLayeredNetwork(input_dim, output_dim)
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

for epoch in range(max(num_epochs, 1)):
    for i in range(0, len(X_train), batch_size):
        inputs = X_train[i:i + batch_size]
        labels = y_train[i:i + batch_size]
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
    print('Epoch: {}. Loss: {}'.format(epoch, loss.item()))
