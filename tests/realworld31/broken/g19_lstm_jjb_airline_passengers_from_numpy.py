"""Airline-passenger forecasting with a single-layer LSTM (jpmjpmjpm/lstm-jjb simple-lstm-pytorch.py, the stackabuse tutorial layout: MinMaxScaler(-1, 1), create_inout_sequences, hidden_cell reset per sequence): the variant wraps the normalised NumPy series with torch.from_numpy instead of torch.FloatTensor, so float64 sequences reach the float32 LSTM
source: https://github.com/jpmjpmjpm/lstm-jjb/blob/0326e8239b6e6ce5aa2720319ee4e138c34a155e/simple-lstm-pytorch.py
reported-error: (none filed; the tutorial uses torch.FloatTensor(train_data_normalized); torch.from_numpy keeps float64 and the LSTM refuses it)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 31
root-cause: line 47
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class MinMaxScaler:  # stand-in for sklearn.preprocessing.MinMaxScaler(feature_range=(-1, 1))
    def __init__(self, feature_range=(-1, 1)):
        self.lo, self.hi = feature_range

    def fit_transform(self, x):
        self.min_, self.max_ = x.min(), x.max()
        return self.lo + (x - self.min_) * (self.hi - self.lo) / (self.max_ - self.min_)


class LSTM(nn.Module):
    def __init__(self, input_size=1, hidden_layer_size=100, output_size=1):
        super().__init__()
        self.hidden_layer_size = hidden_layer_size
        self.lstm = nn.LSTM(input_size, hidden_layer_size)
        self.linear = nn.Linear(hidden_layer_size, output_size)
        self.hidden_cell = (torch.zeros(1, 1, self.hidden_layer_size), torch.zeros(1, 1, self.hidden_layer_size))

    def forward(self, input_seq):
        lstm_out, self.hidden_cell = self.lstm(input_seq.view(len(input_seq), 1, -1), self.hidden_cell)  # fails-here
        predictions = self.linear(lstm_out.view(len(input_seq), -1))
        return predictions[-1]


def create_inout_sequences(input_data, tw):
    inout_seq = []
    for i in range(len(input_data) - tw):
        inout_seq.append((input_data[i:i + tw], input_data[i + tw:i + tw + 1]))
    return inout_seq


passengers = 120 + 2 * np.arange(48) + 30 * np.sin(np.arange(48) * 2 * np.pi / 12)
train_data = passengers[:-12]
scaler = MinMaxScaler(feature_range=(-1, 1))
train_data_normalized = scaler.fit_transform(train_data.reshape(-1, 1))
train_data_normalized = torch.from_numpy(train_data_normalized).view(-1)  # root-cause
train_window = 12
train_inout_seq = create_inout_sequences(train_data_normalized, train_window)

model = LSTM()
loss_function = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
for i in range(2):
    for seq, labels in train_inout_seq[:8]:
        optimizer.zero_grad()
        model.hidden_cell = (torch.zeros(1, 1, model.hidden_layer_size), torch.zeros(1, 1, model.hidden_layer_size))
        y_pred = model(seq)
        single_loss = loss_function(y_pred, labels)
        single_loss.backward()
        optimizer.step()
    print(f"epoch: {i:3} loss: {single_loss.item():10.8f}")
