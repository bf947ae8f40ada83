"""Univariate demand forecaster from a deployment repo's utils.split_sequence: the inputs are converted with .float() before the MLP, but the multi-step targets are wrapped with torch.from_numpy and stay float64, so MSELoss silently promotes and the whole loss is computed in float64
source: https://github.com/Juanes1793/deploy_Final_project_Time_Series/blob/5f985d3548501584d782d3d421fb733bc891bcbf/Deployment/utils.py
reported-error: (none filed; variant of the project's training step: torch.from_numpy(y) for the float64 split_sequence targets while X is converted; no error in current PyTorch, the loss and its graph are float64)
outcome: ok (silent: the nn.MSELoss call at line 55 gets the float64 target and returns a float64 loss, printed as "epoch 0 loss dtype torch.float64"; gradients still come back float32)
root-cause: line 49
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from numpy import array


# ---- Deployment/utils.py
class MinMaxScaler:  # stand-in for sklearn.preprocessing.MinMaxScaler
    def __init__(self, feature_range=(0, 1)):
        self.feature_range = feature_range

    def fit_transform(self, x):
        self.min_, self.scale_ = x.min(), x.max() - x.min()
        return (x - self.min_) / self.scale_


scaler = MinMaxScaler(feature_range=(0, 1))


# split a univariate sequence into samples
def split_sequence(sequence, n_steps_in, n_steps_out):
    X, y = list(), list()
    for i in range(len(sequence)):
        end_ix = i + n_steps_in
        out_end_ix = end_ix + n_steps_out
        if out_end_ix > len(sequence):
            break
        seq_x, seq_y = sequence[i:end_ix], sequence[end_ix:out_end_ix]
        X.append(seq_x)
        y.append(seq_y)
    return array(X), array(y)


# ---- train.py
def main(n_steps_in=12, n_steps_out=3, epochs=3):
    rng = np.random.default_rng(1)
    sales = pd.Series(50 + 10 * np.sin(np.arange(200) / 6) + rng.normal(0, 1, 200))
    series = scaler.fit_transform(sales.values)
    X, y = split_sequence(series, n_steps_in, n_steps_out)
    X = torch.from_numpy(X).float()
    y = torch.from_numpy(y)  # root-cause
    model = nn.Sequential(nn.Linear(n_steps_in, 64), nn.ReLU(), nn.Linear(64, n_steps_out))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)  # fails-here
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss dtype {loss.dtype} value {loss.item():.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
