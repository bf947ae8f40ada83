"""The Iris multilayer perceptron of "Machine Learning with PyTorch and Scikit-Learn" ch. 12 as printed in March 2022 (load_iris, train_test_split, the book's standardisation, torch.from_numpy for features and labels, TensorDataset/DataLoader, CrossEntropyLoss on loss_fn(pred, y_batch)) run where NumPy's default integer is 32-bit (the reporter's Windows / NumPy 1.x: iris['target'] is int32, reproduced here with an explicit astype): the labels become an int32 tensor and CrossEntropyLoss refuses them on the first batch
source: https://github.com/rasbt/machine-learning-book/issues/14
reported-error: "In chapter 12, using iris data train model using torch.nn raise such errors: RuntimeError: expected scalar type Long but found Int" ("If y_train = torch.from_numpy(y_train).long() instead y_train = torch.from_numpy(y_train), it's ok.")
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 64
root-cause: line 25
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from torch.utils.data import DataLoader, TensorDataset

iris = load_iris()
X = iris['data']
# On Windows with NumPy 1.x, load_iris() builds its target with the C long (32 bits): int32 labels.
y = iris['target'].astype(np.int32)  # root-cause-alt

X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=1./3, random_state=1)

X_train_norm = (X_train - np.mean(X_train)) / np.std(X_train)
X_train_norm = torch.from_numpy(X_train_norm).float()
y_train = torch.from_numpy(y_train)  # root-cause

train_ds = TensorDataset(X_train_norm, y_train)

torch.manual_seed(1)
batch_size = 2
train_dl = DataLoader(train_ds, batch_size, shuffle=True)


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.layer1 = nn.Linear(input_size, hidden_size)
        self.layer2 = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        x = self.layer1(x)
        x = nn.Sigmoid()(x)
        x = self.layer2(x)
        x = nn.Softmax(dim=1)(x)
        return x


input_size = X_train_norm.shape[1]
hidden_size = 16
output_size = 3

model = Model(input_size, hidden_size, output_size)
learning_rate = 0.001
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

num_epochs = 100
loss_hist = [0] * num_epochs
accuracy_hist = [0] * num_epochs

for epoch in range(num_epochs):
    for x_batch, y_batch in train_dl:
        pred = model(x_batch)
        loss = loss_fn(pred, y_batch)  # fails-here
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        loss_hist[epoch] += loss.item()*y_batch.size(0)
        is_correct = (torch.argmax(pred, dim=1) == y_batch).float()
        accuracy_hist[epoch] += is_correct.sum()
    loss_hist[epoch] /= len(train_dl.dataset)
    accuracy_hist[epoch] /= len(train_dl.dataset)

X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)
X_test_norm = torch.from_numpy(X_test_norm).float()
y_test = torch.from_numpy(y_test)
pred_test = model(X_test_norm)
correct = (torch.argmax(pred_test, dim=1) == y_test).float()
accuracy = correct.mean()
print(f'Test Acc.: {accuracy:.4f}')
