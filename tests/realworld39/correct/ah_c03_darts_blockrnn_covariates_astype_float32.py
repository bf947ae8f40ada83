"""Hourly load forecasting with darts' BlockRNNModel and weather past covariates (as in ah03) with the covariate series cast like the target, TimeSeries.from_dataframe(...).astype(np.float32): the model is still built in the target's dtype by _init_model, and the torch.cat of past target and covariates stays float32 for the LSTM
source: https://github.com/unit8co/darts/issues/2960
reported-error: (none filed; the fixed situation of ah03, the workaround of darts issue #2960)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
from sklearn.preprocessing import MinMaxScaler

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


# ---- darts/timeseries.py (the parts this script uses)
class TimeSeries:
    def __init__(self, times, values, columns):
        self._times = pd.DatetimeIndex(times)
        self._values = values  # (time, component, sample)
        self.columns = list(columns)

    @classmethod
    def from_dataframe(cls, df, time_col=None, value_cols=None, freq=None):
        times = pd.DatetimeIndex(df[time_col]) if time_col else df.index
        value_cols = [value_cols] if isinstance(value_cols, str) else value_cols
        values = df[value_cols].values
        return cls(times, values[:, :, np.newaxis], value_cols)

    def astype(self, dtype):
        return TimeSeries(self._times, self._values.astype(dtype), self.columns)

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def n_components(self):
        return self._values.shape[1]

    @property
    def time_index(self):
        return self._times

    def values(self, copy=True, sample=0):
        return self._values[:, :, sample].copy() if copy else self._values[:, :, sample]

    def split_after(self, ts):
        mask = self._times <= pd.Timestamp(ts)
        return (TimeSeries(self._times[mask], self._values[mask], self.columns),
                TimeSeries(self._times[~mask], self._values[~mask], self.columns))

    def __len__(self):
        return len(self._times)


# ---- darts/dataprocessing/transformers/scaler.py
class Scaler:
    def __init__(self, scaler=None):
        self.transformer = scaler if scaler is not None else MinMaxScaler(feature_range=(0, 1))

    def fit_transform(self, series):
        vals = self.transformer.fit_transform(series.values())
        return TimeSeries(series.time_index, vals[:, :, np.newaxis], series.columns)

    def transform(self, series):
        vals = self.transformer.transform(series.values())
        return TimeSeries(series.time_index, vals[:, :, np.newaxis], series.columns)


# ---- darts/utils/data/sequential_dataset.py
class PastCovariatesSequentialDataset(torch.utils.data.Dataset):
    def __init__(self, target_series, covariates, input_chunk_length, output_chunk_length):
        self.target = target_series.values(copy=False)
        self.covariates = covariates.values(copy=False) if covariates is not None else None
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.n_samples = len(self.target) - input_chunk_length - output_chunk_length + 1

    def __len__(self):
        return self.n_samples

    def __getitem__(self, idx):
        start, split = idx, idx + self.input_chunk_length
        end = split + self.output_chunk_length
        past_target = self.target[start:split]
        future_target = self.target[split:end]
        past_covariate = self.covariates[start:split] if self.covariates is not None else None
        static_covariate = None
        return past_target, past_covariate, static_covariate, future_target


# ---- darts/models/forecasting/torch_forecasting_model.py
def _batch_collate_fn(batch):
    aggregated = []
    first_sample = batch[0]
    for i in range(len(first_sample)):
        elem = first_sample[i]
        if isinstance(elem, np.ndarray):
            aggregated.append(torch.from_numpy(np.stack([sample[i] for sample in batch], axis=0)))
        elif elem is None:
            aggregated.append(None)
    return tuple(aggregated)


class TorchForecastingModel:
    def __init__(self, input_chunk_length, output_chunk_length, batch_size=32, n_epochs=100,
                 optimizer_kwargs=None, random_state=None):
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.batch_size = batch_size
        self.n_epochs = n_epochs
        self.optimizer_kwargs = optimizer_kwargs or {"lr": 1e-3}
        if random_state is not None:
            torch.manual_seed(random_state)
        self.model = None
        self.train_sample = None

    def _build_train_dataset(self, target, past_covariates):
        return PastCovariatesSequentialDataset(target, past_covariates, self.input_chunk_length,
                                               self.output_chunk_length)

    def _init_model(self):
        model = self._create_model(self.train_sample)
        dtype = self.train_sample[0].dtype
        if np.issubdtype(dtype, np.float32):
            model = model.float()
        elif np.issubdtype(dtype, np.float64):
            model = model.double()
        return model

    def fit(self, series, past_covariates=None, verbose=True):
        train_dataset = self._build_train_dataset(series, past_covariates)
        self.train_sample = train_dataset[0]
        self.model = self._init_model()
        loader = DataLoader(train_dataset, batch_size=self.batch_size, shuffle=True,
                            collate_fn=_batch_collate_fn, drop_last=False)
        self.model.train_dataloader_len = len(loader)
        optimizer = torch.optim.Adam(self.model.parameters(), **self.optimizer_kwargs)
        for epoch in range(self.n_epochs):
            losses = []
            for batch in loader:
                loss = self.model.training_step(batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                losses.append(loss.item())
            if verbose:
                print(f"Epoch {epoch}: train_loss={np.mean(losses):.5f}")
        return self


# ---- darts/models/forecasting/pl_forecasting_module.py
class PLPastCovariatesModule(nn.Module):
    def __init__(self, input_chunk_length, output_chunk_length):
        super().__init__()
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.criterion = nn.MSELoss()

    def _produce_train_output(self, input_batch):
        past_target, past_covariates, static_covariates = input_batch
        inpt = (torch.cat([past_target, past_covariates], dim=2) if past_covariates is not None else past_target,
                static_covariates)
        return self(inpt)

    def training_step(self, train_batch):
        output = self._produce_train_output(train_batch[:-1])
        target = train_batch[-1]
        return self.criterion(output, target)


# ---- darts/models/forecasting/block_rnn_model.py
class _BlockRNNModule(PLPastCovariatesModule):
    def __init__(self, name, input_size, hidden_dim, num_layers, target_size, num_layers_out_fc=None,
                 dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.name = name
        self.target_size = target_size
        num_layers_out_fc = [] if num_layers_out_fc is None else num_layers_out_fc
        self.rnn = getattr(nn, name)(input_size, hidden_dim, num_layers, batch_first=True, dropout=dropout)
        last = hidden_dim
        feats = []
        for feature in num_layers_out_fc + [self.output_chunk_length * target_size]:
            feats.append(nn.Linear(last, feature))
            last = feature
        self.fc = nn.Sequential(*feats)

    def forward(self, x_in):
        x, _ = x_in
        batch_size = x.size(0)
        out, hidden = self.rnn(x)
        if self.name == "LSTM":
            hidden = hidden[0]
        predictions = hidden[-1, :, :]
        predictions = self.fc(predictions)
        return predictions.view(batch_size, self.output_chunk_length, self.target_size)


class BlockRNNModel(TorchForecastingModel):
    def __init__(self, input_chunk_length, output_chunk_length, model="RNN", hidden_dim=25, n_rnn_layers=1,
                 hidden_fc_sizes=None, dropout=0.0, **kwargs):
        super().__init__(input_chunk_length, output_chunk_length, **kwargs)
        self.rnn_type = model
        self.hidden_dim = hidden_dim
        self.n_rnn_layers = n_rnn_layers
        self.hidden_fc_sizes = hidden_fc_sizes
        self.dropout = dropout

    def _create_model(self, train_sample):
        input_dim = train_sample[0].shape[1] + (train_sample[1].shape[1] if train_sample[1] is not None else 0)
        output_dim = train_sample[-1].shape[1]
        return _BlockRNNModule(name=self.rnn_type, input_size=input_dim, hidden_dim=self.hidden_dim,
                               num_layers=self.n_rnn_layers, target_size=output_dim,
                               num_layers_out_fc=self.hidden_fc_sizes, dropout=self.dropout,
                               input_chunk_length=self.input_chunk_length,
                               output_chunk_length=self.output_chunk_length)


# ---- the user's script
def load_building_csv(n_hours=24 * 40, seed=0):
    rng = np.random.default_rng(seed)
    t = pd.date_range("2024-01-01", periods=n_hours, freq="h")
    hour = t.hour.values
    temperature = 5 + 8 * np.sin(2 * np.pi * (hour - 9) / 24) + rng.normal(0, 1, n_hours)
    humidity = 70 - 20 * np.sin(2 * np.pi * (hour - 9) / 24) + rng.normal(0, 3, n_hours)
    load_kw = 120 + 40 * np.sin(2 * np.pi * (hour - 7) / 24) - 1.5 * temperature + rng.normal(0, 5, n_hours)
    frame = pd.DataFrame({"time": t, "load_kw": load_kw.round(2), "temperature": temperature.round(2),
                          "humidity": humidity.round(1)})
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)), parse_dates=["time"])


def prepare_series(df):
    # the load is kept in float32 (the model trains faster in single precision)
    target = TimeSeries.from_dataframe(df, time_col="time", value_cols="load_kw").astype(np.float32)
    past_covariates = TimeSeries.from_dataframe(df, time_col="time", value_cols=["temperature", "humidity"]).astype(np.float32)
    train_target, val_target = target.split_after("2024-02-01")
    target_scaler, cov_scaler = Scaler(), Scaler()
    train_target = target_scaler.fit_transform(train_target)
    past_covariates = cov_scaler.fit_transform(past_covariates)
    print("target dtype:", train_target.dtype, "| covariates dtype:", past_covariates.dtype)
    return train_target, past_covariates


def main():
    df = load_building_csv()
    train_target, past_covariates = prepare_series(df)
    model = BlockRNNModel(input_chunk_length=24, output_chunk_length=6, model="LSTM", hidden_dim=16,
                          n_rnn_layers=1, batch_size=32, n_epochs=3, random_state=42)
    model.fit(series=train_target, past_covariates=past_covariates, verbose=True)


if __name__ == "__main__":
    main()
