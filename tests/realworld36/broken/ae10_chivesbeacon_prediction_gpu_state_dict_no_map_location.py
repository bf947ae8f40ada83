"""Stock-price prediction service of the ChivesBeacon LINE bot (TKU-CSIE-Project/ChivesBeacon src/utils/prediction.py: data_loader + featuring_kd, normalize with MinMaxScaler, astype('float32'), data_split into 30-day windows, LSTMNET(7, 64, 1) restored with model.load_state_dict(torch.load('src/models/lstm_params.pkl')), denormalize): the state dict was written by a training run on a GPU, so its storages carry CUDA location tags, and the bot's CPU-only server cannot load it without map_location
source: https://github.com/TKU-CSIE-Project/ChivesBeacon/blob/828b46316a2011885a90d197ea1537616bc370ee/src/utils/prediction.py
reported-error: (none filed; the repository's prediction code calls torch.load('src/models/lstm_params.pkl') with no map_location; here the pickle is written as a CUDA run writes it, by patching torch.serialization.location_tag to return 'cuda:0' during torch.save)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 127
root-cause: line 127
expect: DG010
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import MinMaxScaler

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
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).requires_grad_()
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).requires_grad_()
        out, (hn, cn) = self.lstm(x, (h0.detach(), c0.detach()))
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


def denormalize(df, norm_value):
    original_value = df['Close'].values.reshape(-1, 1)
    norm_value = norm_value.reshape(-1, 1)
    min_max_scaler = MinMaxScaler()
    min_max_scaler.fit_transform(original_value)
    denorm_value = min_max_scaler.inverse_transform(norm_value)
    return denorm_value


MODEL_DIR = os.path.join(tempfile.mkdtemp(), 'src', 'models')


def save_params_from_gpu_run(path):
    """What the Colab/GPU training run left behind: a state dict whose storages are tagged cuda:0."""
    model = LSTMNET(7, 64, 1)
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(model.state_dict(), path)
    finally:
        torch.serialization.location_tag = orig


def prediction(symbol: str, start_date: str, end_date=None):
    data = data_loader(symbol, start_date, end_date)
    data = featuring_kd(data)
    historydf_norm = normalize(data)
    historydf_norm = historydf_norm.astype('float32')

    x_train, y_train, x_test, y_test = data_split(historydf_norm, 30)

    x_test = torch.from_numpy(x_test)
    y_test = torch.from_numpy(y_test)

    model = LSTMNET(7, 64, 1)
    model.load_state_dict(torch.load(os.path.join(MODEL_DIR, 'lstm_params.pkl')))  # root-cause  # fails-here
    model.eval()

    with torch.no_grad():
        pred_test = model(x_test)[:, -1, :]
    pred_test = pred_test.view(-1).data.numpy()
    y_test = y_test.view(-1).data.numpy()

    denorm_pred = denormalize(data, pred_test)
    denorm_ytest = denormalize(data, y_test)
    print(f"{symbol}: last predicted close {denorm_pred[-1, 0]:.2f}, real {denorm_ytest[-1, 0]:.2f}")
    return denorm_pred


if __name__ == '__main__':
    os.makedirs(MODEL_DIR)
    save_params_from_gpu_run(os.path.join(MODEL_DIR, 'lstm_params.pkl'))
    prediction('2330.TW', '2021-01-01')
