"""Burgers PINN trained in two stages (jayroxis/PINNs layout: PhysicsInformedNN with a DNN, optimizer_Adam and an LBFGS optimizer, a train loop per stage): between the stages a helper switches the network to float64 for the fine stage, but the Adam optimizer created in __init__, which already holds float32 state, is stepped again and fails
source: https://github.com/jayroxis/PINNs/issues/4
reported-error: (the thread explains the two optimizers, Adam first then LBFGS for fine-tuning; this variant casts the network to float64 between two Adam stages while keeping the optimizer that already has state: RuntimeError: expected dtype float for `end` but got dtype double)
outcome: RuntimeError: expected dtype float for `end` but got dtype double at pinn.py:56
root-cause: utils.py:9
expect: DG015
"""
import numpy as np
import torch

import utils
from pinn import PhysicsInformedNN


def burgers_data(n_u=40, n_f=200, seed=0):
    rng = np.random.default_rng(seed)
    x0 = rng.uniform(-1, 1, (n_u, 1))
    X_u = np.hstack([x0, np.zeros_like(x0)])
    u = -np.sin(np.pi * x0)
    X_f = np.hstack([rng.uniform(-1, 1, (n_f, 1)), rng.uniform(0, 1, (n_f, 1))])
    return X_u, u, X_f


if __name__ == "__main__":
    torch.manual_seed(1234)
    X_u, u, X_f = burgers_data()
    layers = [2, 20, 20, 1]
    model = PhysicsInformedNN(X_u, u, X_f, layers, nu=0.01 / np.pi)
    model.train(nIter=5)
    # fine stage: more accurate residuals in double precision
    utils.set_precision(model, "float64")
    model.train(nIter=5)
    u_pred = model.predict(np.array([[0.0, 0.5], [0.5, 0.5]]))
    print("u(0, .5), u(.5, .5) =", u_pred.ravel())
