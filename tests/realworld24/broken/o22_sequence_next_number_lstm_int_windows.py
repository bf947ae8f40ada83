"""Beginner LSTM that learns to predict the next number of the sequence 1, 2, 3, ...: the windows are cut from np.arange (int64) and turned into tensors with torch.tensor(x) in the shift_data helper, so the LSTM receives integer inputs
source: https://discuss.pytorch.org/t/in-a-number-sequence-1-2-3-4-estimate-the-next-number-using-lstm/202270
reported-error: In a number sequence 1,2,3,4 estimate the next number using LSTM (data = np.arange(0, 100, 1); shift_data(window_size, data) builds x and y; the model does not predict what is wanted)
outcome: ValueError: RNN input dtype (torch.int64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.int64) at line 19
root-cause: line 29
expect: DG005
"""
import numpy as np
import torch


class LSTM(torch.nn.Module):
    def __init__(self):
        super(LSTM, self).__init__()
        self.lstm = torch.nn.LSTM(1, 20, 1, batch_first=True)
        self.fc = torch.nn.Linear(20, 1)

    def forward(self, x):
        x, _ = self.lstm(x)  # fails-here
        return self.fc(x[:, -1])


def shift_data(window_size, data):
    x = []
    y = []
    for i in range(len(data) - window_size):
        x.append(data[i:i + window_size])
        y.append(data[i + window_size])
    x = torch.tensor(np.array(x)).unsqueeze(-1)  # root-cause
    y = torch.tensor(np.array(y), dtype=torch.float32).unsqueeze(-1)
    return x, y


def train(model, x, y, epochs=20):
    criterion = torch.nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = criterion(model(x), y / 100.0)
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    data = np.arange(0, 100, 1)
    x, y = shift_data(10, data)
    print(f"final loss {train(LSTM(), x, y):.5f}")
