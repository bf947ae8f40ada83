"""The Hummingbird-style compilation of a StandardScaler -> whitened PCA -> RandomForestRegressor pipeline of bx01 (microsoft/hummingbird #388) with the fix of PR #391: the Scaler keeps StandardScaler's float64 mean_/scale_ as float64 parameters (torch.from_numpy) but casts its output back to float32, the PCA keeps its float64 matrices and casts its torch.mm result to float32, so the converted model predicts what the sklearn pipeline predicts
source: https://github.com/microsoft/hummingbird/issues/388
reported-error: (none filed; the fixed situation of bx01)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
from sklearn.datasets import make_regression
from sklearn.decomposition import PCA
from sklearn.ensemble import RandomForestRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

torch.manual_seed(0)


class BaseOperator:
    def __init__(self, regression=False, transformer=False, **kwargs):
        super().__init__()
        self.regression = regression
        self.transformer = transformer


class Scaler(BaseOperator, torch.nn.Module):
    """Scaler operator (hummingbird/ml/operator_converters/_scaler_implementations.py after PR #391)."""

    def __init__(self, offset, scale, device):
        super(Scaler, self).__init__(transformer=True)
        self.offset = offset
        self.scale = scale
        if offset is not None:
            self.offset = torch.nn.Parameter(torch.from_numpy(offset), requires_grad=False)
        if scale is not None:
            self.scale = torch.nn.Parameter(torch.from_numpy(scale), requires_grad=False)

    def forward(self, x):
        if self.offset is not None:
            x = x - self.offset
        if self.scale is not None:
            x = x * self.scale
        return x.float()


class Decomposition(BaseOperator, torch.nn.Module):
    def __init__(self, mean, transform_matrix, device):
        super(Decomposition, self).__init__()
        self.transformer = True
        if mean is not None:
            self.mean = torch.nn.Parameter(torch.from_numpy(mean), requires_grad=False)
        else:
            self.mean = None
        self.transform_matrix = torch.nn.Parameter(torch.from_numpy(transform_matrix), requires_grad=False)

    def forward(self, x):
        if self.mean is not None:
            x = x - self.mean
        return torch.mm(x, self.transform_matrix).float()


class GEMMTreeImpl(BaseOperator, torch.nn.Module):
    """GEMM strategy for a regression forest: comparisons, path ANDs, leaf values as three matmuls."""

    def __init__(self, tree_parameters, n_features):
        super(GEMMTreeImpl, self).__init__(regression=True)
        hidden_one_size = max(w[0].shape[0] for w, _ in tree_parameters)
        hidden_two_size = max(w[1].shape[0] for w, _ in tree_parameters)
        n_trees = len(tree_parameters)
        weight_1 = np.zeros((n_trees, hidden_one_size, n_features))
        bias_1 = np.zeros((n_trees, hidden_one_size))
        weight_2 = np.zeros((n_trees, hidden_two_size, hidden_one_size))
        bias_2 = np.zeros((n_trees, hidden_two_size))
        weight_3 = np.zeros((n_trees, 1, hidden_two_size))
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

    def forward(self, x):
        x = x.t()
        x = torch.mm(self.weight_1, x) < self.bias_1
        x = x.view(self.n_trees, self.hidden_one_size, -1).float()
        x = torch.matmul(self.weight_2, x)
        x = x.view(self.n_trees * self.hidden_two_size, -1) == self.bias_2
        x = x.view(self.n_trees, self.hidden_two_size, -1).float()
        x = torch.matmul(self.weight_3, x)
        return x.view(self.n_trees, 1, -1).sum(0).t()


def get_parameters_for_gemm(tree, n_features, n_trees):
    lefts, rights = tree.children_left, tree.children_right
    features, thresholds = tree.feature, tree.threshold
    values = tree.value[:, 0, 0] / n_trees
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
    return [w1, np.array(w2, dtype="float32"), np.array([w3], dtype="float32")], [b1, np.array(b2, dtype="float32")]


def convert_sklearn_standard_scaler(op, device):
    scale = op.scale_
    if scale is not None:
        scale = np.reciprocal(scale)
    return Scaler(op.mean_, scale, device)


def convert_sklearn_pca(op, device):
    transform_matrix = op.components_.transpose()
    mean = op.mean_.reshape(1, -1)
    if op.whiten:
        transform_matrix = transform_matrix / np.sqrt(op.explained_variance_)
    return Decomposition(mean, transform_matrix, device)


def convert_sklearn_random_forest_regressor(op, device):
    trees = [est.tree_ for est in op.estimators_]
    return GEMMTreeImpl([get_parameters_for_gemm(t, op.n_features_in_, len(trees)) for t in trees], op.n_features_in_)


CONVERTERS = {
    StandardScaler: convert_sklearn_standard_scaler,
    PCA: convert_sklearn_pca,
    RandomForestRegressor: convert_sklearn_random_forest_regressor,
}


class PyTorchBackendModel(torch.nn.Module):
    def __init__(self, operators):
        super().__init__()
        self._operators = torch.nn.ModuleList(operators)

    def forward(self, *inputs):
        with torch.no_grad():
            inputs = [*inputs]
            for i in range(len(inputs)):
                if type(inputs[i]) is list:
                    inputs[i] = np.array(inputs[i])
                if type(inputs[i]) is np.ndarray:
                    inputs[i] = torch.from_numpy(inputs[i])
                if inputs[i].dtype == torch.float64:
                    # We convert double precision arrays into single precision. Sklearn does the same.
                    inputs[i] = inputs[i].float()
            x = inputs[0]
            for operator in self._operators:
                x = operator(x)
            return x


class SklearnContainerRegression:
    def __init__(self, model):
        self._model = model

    def predict(self, *inputs):
        return self._model.forward(*inputs).cpu().numpy().ravel()


def convert(pipeline, backend="pytorch", device="cpu"):
    operators = [CONVERTERS[type(step)](step, device) for _, step in pipeline.steps]
    return SklearnContainerRegression(PyTorchBackendModel(operators))


X, y = make_regression(n_samples=1000, n_features=8, n_informative=5, n_targets=1, random_state=0, shuffle=True)
pca = PCA(n_components=8, svd_solver="randomized", whiten=True)
clf = make_pipeline(StandardScaler(), pca, RandomForestRegressor(n_estimators=10, max_depth=3, random_state=0))
clf.fit(X, y)

prediction = clf.predict([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
print("sklearn:", prediction)

model = convert(clf, "pytorch")
prediction = model.predict([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
print("hummingbird:", prediction)

X_test = X[:200]
np.testing.assert_allclose(clf.predict(X_test), model.predict(X_test), rtol=1e-4, atol=1e-3)
assert model._model._operators[0].offset.dtype == torch.float64
print("converted pipeline matches sklearn on", len(X_test), "rows")
