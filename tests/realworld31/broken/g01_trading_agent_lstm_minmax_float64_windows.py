"""Stock-price LSTM of a DQN trading agent (Trading-Agent environment/LSTM_model.py layout): closing prices come from a pandas frame, are scaled with a MinMaxScaler-style helper in float64 and cut into windows, and the windows go into a TensorDataset with torch.from_numpy, so the float64 batches meet the float32 nn.LSTM weights
source: https://github.com/vanshhika-kaurani/Trading-Agent/blob/549e891ca5dab91edd016a217c04b4be342b42f6/with_prediction/with_prediction/environment/LSTM_model.py
reported-error: (none filed; variant of the file's training step in which the scaled windows are wrapped with torch.from_numpy instead of torch.tensor(..., dtype=torch.float32): the LSTM refuses the float64 input)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 24
root-cause: line 50
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


# ---- environment/LSTM_model.py
class LSTMModel(nn.Module):
    def __init__(self, input_size=1, hidden_size=50, num_layers=2):
        super(LSTMModel, self).__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, 1)

    def forward(self, x):
        lstm_out, _ = self.lstm(x)  # fails-here
        out = self.fc(lstm_out[:, -1, :])  # Take the last timestep's output
        return out


class MinMaxScaler:  # stand-in for sklearn.preprocessing.MinMaxScaler (float64 in, float64 out)
    def __init__(self, feature_range=(0, 1)):
        self.lo, self.hi = feature_range

    def fit_transform(self, x):
        self.min_, self.max_ = x.min(axis=0), x.max(axis=0)
        return self.lo + (x - self.min_) / (self.max_ - self.min_) * (self.hi - self.lo)


def create_sequences(data, seq_length):
    xs, ys = [], []
    for i in range(len(data) - seq_length):
        xs.append(data[i:i + seq_length])
        ys.append(data[i + seq_length])
    return np.array(xs), np.array(ys)


def train_lstm(df, seq_length=10, epochs=2):
    scaler = MinMaxScaler(feature_range=(0, 1))
    scaled = scaler.fit_transform(df[["Close"]].values)
    X, y = create_sequences(scaled, seq_length)
    dataset = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))  # root-cause
    loader = DataLoader(dataset, batch_size=16, shuffle=True)
    model = LSTMModel()
    criterion = nn.MSELoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    for epoch in range(epochs):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
        print(f"Epoch {epoch + 1}/{epochs}, Loss: {loss.item():.6f}")
    return model, scaler


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    prices = 100 + np.cumsum(rng.normal(0, 1, 120))
    df = pd.DataFrame({"Date": pd.date_range("2024-01-01", periods=120), "Close": prices})
    train_lstm(df)
