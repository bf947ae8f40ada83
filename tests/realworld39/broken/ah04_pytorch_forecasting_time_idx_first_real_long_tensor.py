"""Store sales forecasting with pytorch-forecasting's TimeSeriesDataSet and a fully connected model (pytorch-forecasting issue #1930: with time_idx among the time-varying known reals and scalers=None, TimeSeriesDataSet._data_to_tensors' _to_tensor picks the tensor dtype from the kind of the first column of the reals list, so the whole continuous block becomes an int64 tensor): the encoder_cont batches reach the model's first nn.Linear as Long
source: https://github.com/sktime/pytorch-forecasting/issues/1930
reported-error: TimeSeriesDataSet wrong dtype when time_idx is included: with time_varying_known_reals=["time_idx"] and no scalers, "dataset element (torch.int64, ...) all features are set to int!" (x_cont and the dataloader's encoder_cont are int64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 129
root-cause: line 81
expect: DG005
"""
import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


# ---- pytorch_forecasting/data/timeseries/_timeseries.py (the parts the script uses)
class TimeSeriesDataSet(Dataset):
    def __init__(self, data, time_idx, target, group_ids, max_encoder_length=30, max_prediction_length=1,
                 static_categoricals=None, static_reals=None, time_varying_known_reals=None,
                 time_varying_unknown_reals=None, target_normalizer="auto", scalers=None):
        super().__init__()
        self.time_idx = time_idx
        self.target = target
        self.group_ids = list(group_ids)
        self.max_encoder_length = max_encoder_length
        self.max_prediction_length = max_prediction_length
        self.static_categoricals = static_categoricals or []
        self.static_reals = static_reals or []
        self.time_varying_known_reals = time_varying_known_reals or []
        self.time_varying_unknown_reals = time_varying_unknown_reals or []
        self.target_normalizer = target_normalizer
        self.scalers = scalers
        data = self._preprocess_data(data.sort_values(self.group_ids + [time_idx]).reset_index(drop=True))
        self.index = self._construct_index(data)
        self.data = self._data_to_tensors(data)

    @property
    def reals(self):
        return self.static_reals + self.time_varying_known_reals + self.time_varying_unknown_reals

    @property
    def target_names(self):
        return [self.target]

    def _preprocess_data(self, data):
        data = data.copy()
        data["__time_idx__"] = data[self.time_idx]
        for name in self.static_categoricals:
            data[name] = data[name].astype("category").cat.codes
        data[f"__target__{self.target}"] = data[self.target]
        if self.scalers is not None:
            for name in self.reals:
                scaler = self.scalers.get(name, StandardScaler())
                data[name] = scaler.fit_transform(data[[name]].to_numpy(np.float64)).ravel()
        return data

    def _construct_index(self, data):
        window = self.max_encoder_length + self.max_prediction_length
        index = []
        for _, group in data.groupby(self.group_ids, sort=False):
            rows = group.index.values
            for start in range(0, len(rows) - window + 1):
                index.append((rows[start], rows[start + window - 1]))
        return index

    def _data_to_tensors(self, data):
        def _to_tensor(cols, long=True, real=False):
            """Convert data[cols] to a torch tensor: int columns to int64 (long), float columns to float32."""
            if not isinstance(cols, list) and cols not in data.columns:
                return None
            if isinstance(cols, list) and len(cols) == 0:
                dtypekind = "f"
            elif isinstance(cols, list):  # and len(cols) > 0
                dtypekind = data.dtypes[cols[0]].kind
            else:
                dtypekind = data.dtypes[cols].kind
            if not long:
                return torch.tensor(data[cols].to_numpy(np.int64), dtype=torch.int64)
            elif dtypekind in "bi":
                return torch.tensor(data[cols].to_numpy(np.int64), dtype=torch.long)  # root-cause
            else:
                return torch.tensor(data[cols].to_numpy(np.float64), dtype=torch.float)

        index = _to_tensor(self.group_ids, long=False)
        time = _to_tensor("__time_idx__", long=False)
        categorical = _to_tensor(self.static_categoricals, long=False)
        target = [_to_tensor(f"__target__{name}") for name in self.target_names]
        continuous = _to_tensor(self.reals)
        return dict(reals=continuous, categoricals=categorical, groups=index, target=target, time=time)

    def __len__(self):
        return len(self.index)

    def __getitem__(self, idx):
        start, end = self.index[idx]
        encoder_end = start + self.max_encoder_length
        x = dict(x_cat=self.data["categoricals"][start:end + 1], x_cont=self.data["reals"][start:end + 1],
                 encoder_length=self.max_encoder_length, decoder_length=self.max_prediction_length,
                 groups=self.data["groups"][start], time=self.data["time"][start:end + 1])
        y = self.data["target"][0][encoder_end:end + 1]
        return x, (y, None)

    @staticmethod
    def _collate_fn(batches):
        enc = batches[0][0]["encoder_length"]
        x_cont = torch.stack([b[0]["x_cont"] for b in batches])
        x_cat = torch.stack([b[0]["x_cat"] for b in batches])
        target = torch.stack([b[1][0] for b in batches])
        return (dict(encoder_cont=x_cont[:, :enc], decoder_cont=x_cont[:, enc:], encoder_cat=x_cat[:, :enc],
                     decoder_cat=x_cat[:, enc:], encoder_lengths=torch.full((len(batches),), enc),
                     decoder_target=target), (target, None))

    def to_dataloader(self, train=True, batch_size=64, **kwargs):
        return DataLoader(self, batch_size=batch_size, shuffle=train, collate_fn=self._collate_fn, **kwargs)


# ---- the user's model (pytorch-forecasting's "how to implement a new architecture" fully connected network)
class FullyConnectedModule(nn.Module):
    def __init__(self, input_size, output_size, hidden_size, n_hidden_layers):
        super().__init__()
        module_list = [nn.Linear(input_size, hidden_size), nn.ReLU()]
        for _ in range(n_hidden_layers):
            module_list.extend([nn.Linear(hidden_size, hidden_size), nn.ReLU()])
        module_list.append(nn.Linear(hidden_size, output_size))
        self.sequential = nn.Sequential(*module_list)

    def forward(self, x):
        return self.sequential(x)  # fails-here


class FullyConnectedModel(nn.Module):
    def __init__(self, input_size, output_size, hidden_size=32, n_hidden_layers=2):
        super().__init__()
        self.network = FullyConnectedModule(input_size, output_size, hidden_size, n_hidden_layers)
        self.loss = nn.L1Loss()

    @classmethod
    def from_dataset(cls, dataset, **kwargs):
        input_size = dataset.max_encoder_length * len(dataset.reals)
        return cls(input_size=input_size, output_size=dataset.max_prediction_length, **kwargs)

    def forward(self, x):
        network_input = x["encoder_cont"].flatten(start_dim=1)
        prediction = self.network(network_input)
        return dict(prediction=prediction)

    def training_step(self, batch):
        x, (y, weight) = batch
        out = self(x)
        return self.loss(out["prediction"], y.float())


def make_sales_frame(n_stores=3, n_days=120, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for store in range(n_stores):
        level = 40 + 10 * store
        for day in range(n_days):
            value = level + 8 * np.sin(2 * np.pi * day / 7) + rng.normal(0, 3)
            rows.append({"group": f"store_{store}", "time_idx": day, "value": round(value, 2)})
    return pd.DataFrame(rows)


def main():
    torch.manual_seed(0)
    data = make_sales_frame()
    dataset = TimeSeriesDataSet(
        data.copy(),
        time_idx="time_idx",
        target="value",
        group_ids=["group"],
        static_categoricals=["group"],
        max_encoder_length=14,
        max_prediction_length=7,
        time_varying_unknown_reals=["value"],
        target_normalizer=None,
        # WATCH THIS
        time_varying_known_reals=["time_idx"],
        scalers=None,
    )
    x, y = dataset[0]
    print(f"dataset element {(x['x_cont'].dtype, y[0].dtype)}")
    dataloader = dataset.to_dataloader(batch_size=16)
    model = FullyConnectedModel.from_dataset(dataset, hidden_size=32, n_hidden_layers=2)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for batch in dataloader:
            loss = model.training_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
