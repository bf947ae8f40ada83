"""Boston-housing style regression MLP (sushant-joshi/tensorflow-deepdive layout: CSVDataset.py loads the csv, MLP.py holds the model, the training script wires them with DataLoader and MSELoss): the dataset casts the inputs to float32 but keeps the price column as read by pandas (float64), so every batch's target is float64 and MSELoss silently runs in float64
source: https://github.com/sushant-joshi/tensorflow-deepdive/blob/a5318414c5df65bf6b6d91fcda7d156f96f4306c/CSVDataset.py
reported-error: (the repository's CSVDataset casts X with astype('float32') and label-encodes y for classification; the regression variant that only reshapes y trains without an error, with a float64 loss and float64 gradients flowing back into the float32 output layer)
outcome: ok (silent: the MSE loss and its gradient are float64 on every batch, printed as 'loss dtype: torch.float64'; the model's outputs and weights stay float32) at train.py:40
root-cause: CSVDataset.py:17
expect: DG008
"""
import os
import tempfile

import numpy as np
from torch.nn import MSELoss
from torch.optim import SGD
from torch.utils.data import DataLoader

from CSVDataset import CSVDataset
from MLP import MLP

# a synthetic housing.csv: 13 features and the median price, no header
rng = np.random.default_rng(0)
X = rng.normal(size=(300, 13))
price = 22.5 + X @ rng.normal(size=13) + rng.normal(scale=0.5, size=300)
path = os.path.join(tempfile.mkdtemp(), 'housing.csv')
np.savetxt(path, np.column_stack([X, price]), delimiter=',')


def prepare_data(path):
    dataset = CSVDataset(path)
    train, test = dataset.get_splits()
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(test, batch_size=1024, shuffle=False)


def train_model(train_dl, model):
    criterion = MSELoss()
    optimizer = SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(20):
        for i, (inputs, targets) in enumerate(train_dl):
            optimizer.zero_grad()
            yhat = model(inputs)
            loss = criterion(yhat, targets)  # fails-here
            loss.backward()
            optimizer.step()
    print('loss dtype:', loss.dtype, '| output dtype:', yhat.dtype)
    return loss.item()


train_dl, test_dl = prepare_data(path)
model = MLP(13)
print('final batch MSE: %.3f' % train_model(train_dl, model))
