"""The Hummingbird-style GEMM compilation of a breast-cancer RandomForestClassifier of bx06 (microsoft/hummingbird #51) with the fix of PR #186: the backend model casts NumPy inputs to float32 as it wraps them (torch.from_numpy(...).float(), as sklearn's trees do), so the float64 test rows meet the float32 GEMM weights in float32 and the converted model reproduces sklearn's predictions and probabilities; the float64 training data, the float64 tree thresholds cast with astype("float32") and the bool->float casts inside the GEMM are kept
source: https://github.com/microsoft/hummingbird/issues/51
reported-error: (none filed; the fixed situation of bx06)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split


class GEMMDecisionTreeImpl(torch.nn.Module):
    """GEMM strategy for tree ensembles (hummingbird/ml/operator_converters/_tree_implementations.py, mid 2020)."""

    def __init__(self, tree_parameters, n_features, classes):
        super().__init__()
        self.regression = False
        self.anomaly_detection = False
        self.n_classes = len(classes)
        hidden_one_size = max(w[0].shape[0] for w, _ in tree_parameters)
        hidden_two_size = max(w[1].shape[0] for w, _ in tree_parameters)
        n_trees = len(tree_parameters)
        weight_1 = np.zeros((n_trees, hidden_one_size, n_features))
        bias_1 = np.zeros((n_trees, hidden_one_size))
        weight_2 = np.zeros((n_trees, hidden_two_size, hidden_one_size))
        bias_2 = np.zeros((n_trees, hidden_two_size))
        weight_3 = np.zeros((n_trees, self.n_classes, hidden_two_size))
        for i, (weight, bias) in enumerate(tree_parameters):
            weight_1[i, : weight[0].shape[0], : weight[0].shape[1]] = weight[0]
            bias_1[i, : bias[0].shape[0]] = bias[0]
            weight_2[i, : weight[1].shape[0], : weight[1].shape[1]] = weight[1]
            bias_2[i, : bias[1].shape[0]] = bias[1]
            weight_3[i, : weight[2].shape[0], : weight[2].shape[1]] = weight[2]
        self.n_trees, self.n_features = n_trees, n_features
        self.hidden_one_size, self.hidden_two_size = hidden_one_size, hidden_two_size
        self.weight_1 = torch.nn.Parameter(torch.from_numpy(weight_1.reshape(-1, n_features).astype("float32")))
        self.bias_1 = torch.nn.Parameter(torch.from_numpy(bias_1.reshape(-1, 1).astype("float32")))
        self.weight_2 = torch.nn.Parameter(torch.from_numpy(weight_2.astype("float32")))
        self.bias_2 = torch.nn.Parameter(torch.from_numpy(bias_2.reshape(-1, 1).astype("float32")))
        self.weight_3 = torch.nn.Parameter(torch.from_numpy(weight_3.astype("float32")))

    def aggregation(self, x):
        return x.sum(0).t()

    def forward(self, x):
        x = x.t()
        x = torch.mm(self.weight_1, x) < self.bias_1
        x = x.view(self.n_trees, self.hidden_one_size, -1).float()
        x = torch.matmul(self.weight_2, x)
        x = x.view(self.n_trees * self.hidden_two_size, -1) == self.bias_2
        x = x.view(self.n_trees, self.hidden_two_size, -1).float()
        x = torch.matmul(self.weight_3, x)
        x = self.aggregation(x.view(self.n_trees, self.n_classes, -1))
        return torch.argmax(x, dim=1), x


def get_parameters_for_gemm(tree, n_features, n_trees):
    lefts, rights = tree.children_left, tree.children_right
    features, thresholds = tree.feature, tree.threshold
    values = tree.value[:, 0, :] / tree.value[:, 0, :].sum(axis=1, keepdims=True) / n_trees
    internal = [i for i in range(len(lefts)) if lefts[i] != -1]
    w1 = np.array([[1 if f == features[i] else 0 for f in range(n_features)] for i in internal]).astype("float32")
    b1 = np.array([thresholds[i] for i in internal]).astype("float32")
    w2, b2, w3 = [], [], []

    def visit(node, path):
        if lefts[node] == -1:
            vec = [0] * len(internal)
            for parent, went_left in path:
                vec[internal.index(parent)] = 1 if went_left else -1
            w2.append(vec)
            b2.append(sum(1 for _, went_left in path if went_left))
            w3.append(values[node])
            return
        visit(lefts[node], path + [(node, True)])
        visit(rights[node], path + [(node, False)])

    visit(0, [])
    return [w1, np.array(w2, dtype="float32"), np.array(w3, dtype="float32").T], [b1, np.array(b2, dtype="float32")]


def convert_sklearn_random_forest_classifier(op):
    trees = [est.tree_ for est in op.estimators_]
    params = [get_parameters_for_gemm(t, op.n_features_in_, len(trees)) for t in trees]
    return GEMMDecisionTreeImpl(params, op.n_features_in_, op.classes_)


class PyTorchBackendModel(torch.nn.Module):
    def __init__(self, input_names, operator):
        super().__init__()
        self.input_names = input_names
        self.operator = operator
        self.is_regression = operator.regression

    def forward(self, *inputs):
        with torch.no_grad():
            inputs = [*inputs]
            device = next(self.parameters()).device
            for i, input_name in enumerate(self.input_names):
                if type(inputs[i]) is np.ndarray:
                    inputs[i] = torch.from_numpy(inputs[i]).float()
                elif type(inputs[i]) is not torch.Tensor:
                    raise RuntimeError("Inputer tensor {} of not supported type {}".format(input_name, type(inputs[i])))
                inputs[i] = inputs[i].to(device)
            return self.operator(inputs[0])


class PyTorchBackendModelClassification(PyTorchBackendModel):
    def predict(self, *inputs):
        return self.forward(*inputs)[0].cpu().numpy()

    def predict_proba(self, *inputs):
        return self.forward(*inputs)[1].cpu().numpy()


def convert(model, backend="pytorch"):
    return PyTorchBackendModelClassification(["input_0"], convert_sklearn_random_forest_classifier(model))


X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
skl_model = RandomForestClassifier(n_estimators=10, max_depth=3, random_state=0)
skl_model.fit(X_train, y_train)

hb_model = convert(skl_model, "pytorch")
print("sklearn test accuracy", skl_model.score(X_test, y_test))
pred = hb_model.predict(X_test)
print("hummingbird test accuracy", (pred == y_test).mean())
np.testing.assert_allclose(hb_model.predict_proba(X_test), skl_model.predict_proba(X_test), rtol=1e-5, atol=1e-5)
assert (pred == skl_model.predict(X_test)).all()
