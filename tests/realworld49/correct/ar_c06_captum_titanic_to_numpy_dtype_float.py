"""Captum's "Getting started - Titanic Data Analysis" tutorial (meta-pytorch/captum #1325 as in ar06) with the conversion made explicit: titanic_data.to_numpy(dtype=float) turns the float, int and bool (get_dummies) columns into one float64 array, torch.from_numpy(...).type(torch.FloatTensor) makes the float32 inputs, the classifier trains and Integrated Gradients gives the feature importances
source: https://github.com/meta-pytorch/captum/issues/1325
reported-error: (none filed; the fixed situation of ar06)
outcome: ok
root-cause: -
expect: none
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
data = titanic_data.to_numpy(dtype=float)

# Separate training and test sets
train_indices = np.random.choice(len(labels), int(0.7 * len(labels)), replace=False)
test_indices = list(set(range(len(labels))) - set(train_indices))
train_features = data[train_indices]
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
input_tensor = torch.from_numpy(train_features).type(torch.FloatTensor)
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
