"""stock-price LSTM notebook: float64 numpy windows into nn.LSTM
source: https://github.com/ABDEL1389/LSTM-for-stock-prediction
reported-error: silent in the notebook (sequences built as float64 numpy arrays before torch.tensor)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 53
root-cause: line 61
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

#importing the dataframe
rng = np.random.default_rng(0)
df = pd.DataFrame({"Close/Last": ["$%.2f" % v for v in 150 + np.cumsum(rng.standard_normal(220))]})
prices = df["Close/Last"]
new_prices = []

#allowing the data to be readable
for i in range(len(prices)):
    new_prices.append(float(prices[i][1:]))

#min-max scaling
min_value = min(new_prices)
max_value = max(new_prices)
new_prices = [(p - min_value) / (max_value - min_value) for p in new_prices]

train_data = new_prices[:180]
test_data = new_prices[180:]


def create_seq(seq, n):
    """Returns a pair of the 2x2 dimensional array of sequences and the respective target for each sequence"""

    sequences, targets = [], []
    for i in range(len(seq) - n):
        sequences.append(seq[i:i + n])
        targets.append(seq[i + n])
    return np.array(sequences), np.array(targets, dtype=float)


seq_length = 15
train_seq = create_seq(train_data, seq_length)


class LSTM(nn.Module):
    def __init__(self, input_size=1, hidden_size=50, num_layers=2, output_size=1):
        super(LSTM, self).__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        out, _ = self.lstm(x)  # fails-here
        return self.fc(out[:, -1, :])


model = LSTM()
criterion = nn.MSELoss()
optimizer = optim = torch.optim.Adam(model.parameters(), lr=0.001)

X_train = torch.tensor(train_seq[0]).unsqueeze(-1)  # root-cause
y_train = torch.tensor(train_seq[1]).unsqueeze(-1)

for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    output = model(X_train)
    loss = criterion(output, y_train)
    loss.backward()
    optimizer.step()
    print(f"Epoch {epoch}, Loss: {loss.item():.5f}")
