"""Captum's "Getting started - Titanic Data Analysis" tutorial as it stood when meta-pytorch/captum #1325 was filed: one-hot columns from pd.get_dummies are bool on pandas >= 2, so titanic_data.to_numpy() over float, int and bool columns is an object array, and torch.from_numpy(train_features) refuses it before the classifier is trained or Integrated Gradients is run
source: https://github.com/meta-pytorch/captum/issues/1325
reported-error: "Basic steps in the Titanic tutorial to load CSV to tensors don't work": input_tensor = torch.as_tensor(train_features, dtype=torch.float32) -> TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.
outcome: TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool. at line 82
root-cause: line 48
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

# ---- titanic3.csv stand-in: the columns the tutorial reads, synthetic rows
rng = np.random.default_rng(0)
n = 400
titanic_data = pd.DataFrame({
    "pclass": rng.integers(1, 4, n),
    "survived": rng.integers(0, 2, n),
    "name": [f"passenger {i}" for i in range(n)],
    "sex": rng.choice(["female", "male"], n),
    "age": np.where(rng.random(n) < 0.2, np.nan, rng.uniform(1, 80, n)),
    "sibsp": rng.integers(0, 4, n),
    "parch": rng.integers(0, 3, n),
    "ticket": [f"T{i}" for i in range(n)],
    "fare": rng.uniform(5, 260, n),
    "cabin": None,
    "embarked": rng.choice(["C", "Q", "S"], n),
    "boat": None,
    "body": np.nan,
    "home.dest": None,
})

titanic_data = pd.concat([titanic_data,
                          pd.get_dummies(titanic_data['sex']),
                          pd.get_dummies(titanic_data['embarked'], prefix="embark"),
                          pd.get_dummies(titanic_data['pclass'], prefix="class")], axis=1)
titanic_data["age"] = titanic_data["age"].fillna(titanic_data["age"].mean())
titanic_data["fare"] = titanic_data["fare"].fillna(titanic_data["fare"].mean())
titanic_data = titanic_data.drop(['name', 'ticket', 'cabin', 'boat', 'body', 'home.dest', 'sex', 'embarked', 'pclass'], axis=1)

# Set random seed for reproducibility.
np.random.seed(131254)

# Convert features and labels to numpy arrays.
labels = titanic_data["survived"].to_numpy()
titanic_data = titanic_data.drop(['survived'], axis=1)
feature_names = list(titanic_data.columns)
data = titanic_data.to_numpy()  # root-cause

# Separate training and test sets
train_indices = np.random.choice(len(labels), int(0.7 * len(labels)), replace=False)
test_indices = list(set(range(len(labels))) - set(train_indices))
train_features = data[train_indices]  # root-cause-alt
train_labels = labels[train_indices]
test_features = data[test_indices]
test_labels = labels[test_indices]

torch.manual_seed(1)  # Set seed for reproducibility.


class TitanicSimpleNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(12, 12)
        self.sigmoid1 = nn.Sigmoid()
        self.linear2 = nn.Linear(12, 8)
        self.sigmoid2 = nn.Sigmoid()
        self.linear3 = nn.Linear(8, 2)

    def forward(self, x):
        lin1_out = self.linear1(x)
        sigmoid_out1 = self.sigmoid1(lin1_out)
        sigmoid_out2 = self.sigmoid2(self.linear2(sigmoid_out1))
        return self.linear3(sigmoid_out2)


net = TitanicSimpleNNModel()
criterion = nn.CrossEntropyLoss()
num_epochs = 200

optimizer = torch.optim.Adam(net.parameters(), lr=0.1)
input_tensor = torch.from_numpy(train_features).type(torch.FloatTensor)  # fails-here
label_tensor = torch.from_numpy(train_labels)
for epoch in range(num_epochs):
    output = net(input_tensor)
    loss = criterion(output, label_tensor)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print('Epoch {}/{} => Loss: {:.2f}'.format(epoch + 1, num_epochs, loss.item()))

out_classes = np.argmax(net(input_tensor).detach().numpy(), axis=1)
print("Train Accuracy:", sum(out_classes == train_labels) / len(train_labels))
test_input_tensor = torch.from_numpy(test_features).type(torch.FloatTensor)
out_classes = np.argmax(net(test_input_tensor).detach().numpy(), axis=1)
print("Test Accuracy:", sum(out_classes == test_labels) / len(test_labels))


# ---- Integrated Gradients for target=1 (survived) from a zero baseline (what captum's IntegratedGradients computes)
def integrated_gradients(model, inputs, target, steps=50):
    baseline = torch.zeros_like(inputs)
    alphas = torch.linspace(0, 1, steps).view(-1, 1, 1)
    path = (baseline + alphas * (inputs - baseline)).requires_grad_(True)
    out = model(path.view(-1, inputs.shape[1]))[:, target].sum()
    grads = torch.autograd.grad(out, path)[0]
    return (inputs - baseline) * grads.mean(dim=0)


attr = integrated_gradients(net, test_input_tensor, target=1).detach().numpy()
print("Average Feature Importances")
for name, value in zip(feature_names, np.mean(attr, axis=0)):
    print(f"{name} : {value:.3f}")
