"""Array-API style ridge regression on the torch namespace (data-apis/array-api-compat #245 as in aq01) with the fix the thread leaves to users: the NumPy float64 solution is wrapped back with xp.asarray(coef, dtype=X.dtype), so predict() multiplies float32 features by float32 coefficients; the NumPy path still runs in float64
source: https://github.com/data-apis/array-api-compat/issues/245
reported-error: (none filed; the fixed situation of aq01)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch


# ---- a tiny stand-in for array_api_compat.get_namespace: torch tensors -> the torch namespace, else NumPy
def get_namespace(*arrays):
    if any(isinstance(a, torch.Tensor) for a in arrays):
        return torch
    return np


class Ridge:
    """Closed-form ridge regression written once against the array API."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        xp = get_namespace(X, y)
        X_mean, y_mean = xp.mean(X, 0), xp.mean(y)
        Xc, yc = X - X_mean, y - y_mean
        # the solve is done in NumPy (float64) for stability, as the library's fallback does
        A = np.asarray(Xc.T @ Xc, dtype=np.float64) + self.alpha * np.eye(X.shape[1])
        b = np.asarray(Xc.T @ yc, dtype=np.float64)
        coef = np.linalg.solve(A, b)
        self.coef_ = xp.asarray(coef, dtype=X.dtype)
        self.intercept_ = float(y_mean) - float((X_mean * xp.asarray(coef, dtype=X.dtype)).sum())
        return self

    def predict(self, X):
        xp = get_namespace(X)
        return X @ self.coef_ + self.intercept_


def main():
    torch.manual_seed(0)
    # features from a float32 pipeline (an embedding model's outputs), targets likewise float32
    X = torch.randn(256, 3)
    true_w = torch.tensor([1.5, -2.0, 0.5])
    y = X @ true_w + 0.1 * torch.randn(256) + 3.0

    # NumPy path: works, the float64 coefficients promote
    model_np = Ridge(alpha=0.5).fit(X.numpy(), y.numpy())
    print("numpy predictions:", model_np.predict(X.numpy()[:3]))

    # torch path: same code, torch tensors
    model = Ridge(alpha=0.5).fit(X, y)
    print("coef dtype:", model.coef_.dtype, "features dtype:", X.dtype)
    pred = model.predict(X[:3])
    print("torch predictions:", pred)


if __name__ == "__main__":
    main()
