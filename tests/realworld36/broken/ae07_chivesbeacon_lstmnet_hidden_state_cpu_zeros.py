"""Stock-price LSTM of the ChivesBeacon LINE bot (TKU-CSIE-Project/ChivesBeacon src/models/model.py: LSTMNET builds h0/c0 with torch.zeros(...) inside forward, next to a module-level device = cuda-if-available; src/utils/prediction.py: normalize with MinMaxScaler, data_split into 30-day windows, astype('float32')): a training run that moves LSTMNET to that module-level device meets the CPU-made hidden state on a GPU machine
source: https://github.com/TKU-CSIE-Project/ChivesBeacon/blob/197e1b3666954713e0f1297321cad1daa99f4aa4/src/models/model.py
reported-error: (none filed; the repository's own prediction code keeps LSTMNET on the CPU, where torch.zeros(...) matches; the training function here is written in the style of src/utils/prediction.py and uses model.py's device)
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu (not run on a GPU for this set: no device machine was lent to this task) at line 31; on CPU: ok
root-cause: line 29
expect: DG009
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import MinMaxScaler
from torch.utils.data import DataLoader, TensorDataset

# ---- src/models/model.py
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')


class LSTMNET(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, output_size=1):
        super(LSTMNET, self).__init__()
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.lstm = nn.LSTM(input_size, hidden_size,
                            num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).requires_grad_()  # root-cause
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).requires_grad_()
        out, (hn, cn) = self.lstm(x, (h0.detach(), c0.detach()))  # fails-here
        out = self.fc(out)
        return out


# ---- src/utils/helper.py + featuring.py (yfinance download and KD featuring replaced by a synthetic frame)
def data_loader(symbol, start_date, end_date=None, n=160):
    rng = np.random.default_rng(sum(map(ord, symbol)))
    close = 100 + np.cumsum(rng.normal(0, 1, n))
    df = pd.DataFrame({'Date': pd.date_range(start_date, periods=n), 'Symbol': symbol,
                       'Open': close + rng.normal(0, .5, n), 'High': close + 1, 'Low': close - 1,
                       'Close': close, 'Volume': rng.integers(1000, 5000, n)})
    return df


def featuring_kd(df):
    low9, high9 = df.Low.rolling(9, min_periods=1).min(), df.High.rolling(9, min_periods=1).max()
    df['RSV'] = 100 * (df.Close - low9) / (high9 - low9)
    df['K'] = df.RSV.ewm(com=2).mean()
    df['D'] = df.K.ewm(com=2).mean()
    df = df[['Date', 'Symbol', 'Open', 'High', 'Low', 'Volume', 'RSV', 'K', 'D', 'Close']]
    return df


# ---- src/utils/prediction.py
def normalize(df):
    data = df.copy()
    min_max_scaler = MinMaxScaler()
    data['Open'] = min_max_scaler.fit_transform(df.Open.values.reshape(-1, 1))
    data['Low'] = min_max_scaler.fit_transform(df.Low.values.reshape(-1, 1))
    data['High'] = min_max_scaler.fit_transform(df.High.values.reshape(-1, 1))
    data['Volume'] = min_max_scaler.fit_transform(df.Volume.values.reshape(-1, 1))
    data['Close'] = min_max_scaler.fit_transform(df.Close.values.reshape(-1, 1))
    data['K'] = min_max_scaler.fit_transform(df.K.values.reshape(-1, 1))
    data['D'] = min_max_scaler.fit_transform(df.D.values.reshape(-1, 1))
    data = data.drop(['Symbol'], axis=1)
    data = data.drop(['Date'], axis=1)
    data = data.drop(['RSV'], axis=1)
    return data


def data_split(data, sample):
    data = data.values
    newdata = []
    y_data = []
    for i in range(len(data)-sample):
        newdata.append(data[i:(i+sample)])
        y_data.append(data[i+sample, -1:])
    n_train = round(0.8*len(newdata))
    newdata = np.array(newdata)
    x_train = newdata[:int(n_train)]
    y_train = y_data[:int(n_train)]
    x_test = newdata[int(n_train):]
    y_test = y_data[int(n_train):]
    x_train = x_train.reshape(-1, 30, 7)
    x_test = x_test.reshape(-1, 30, 7)
    return x_train, np.array(y_train), x_test, np.array(y_test)


# ---- training (not in the repository; it produces the lstm_params.pkl that prediction.py loads)
def train(symbol: str, start_date: str, epochs=3):
    data = data_loader(symbol, start_date)
    data = featuring_kd(data)
    historydf_norm = normalize(data)
    historydf_norm = historydf_norm.astype('float32')
    x_train, y_train, x_test, y_test = data_split(historydf_norm, 30)

    loader = DataLoader(TensorDataset(torch.from_numpy(x_train), torch.from_numpy(y_train)), batch_size=16, shuffle=True)
    model = LSTMNET(7, 64, 1).to(device)
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            pred = model(x)[:, -1, :]
            loss = criterion(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model


if __name__ == '__main__':
    train('2330.TW', '2021-01-01')
