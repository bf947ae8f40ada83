"""Building-load quantile forecasting with Wattile's LSTM pipeline (as in ah08: the training run on the GPU node writes torch_model with CUDA storages, the validation run happens on a CPU-only machine) with load_model reading the checkpoint onto the device init_model chose, torch.load(filepath, map_location=device)
source: https://github.com/NatLabRockies/Wattile/issues/235
reported-error: (none filed; the fixed situation of ah08, the map_location fix discussed in Wattile issue #235)
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import json
import logging
import os
import pathlib
import tempfile

import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.utils.data as data_utils
from torch.utils.data.dataloader import DataLoader

logger = logging.getLogger(str(os.getpid()))
file_prefix = "/default"


# ---- wattile/util.py
def factors(n):
    return sorted({d for i in range(1, int(n ** 0.5) + 1) if n % i == 0 for d in (i, n // i)})


# ---- wattile/buildings_processing.py (time features and lags)
def prep_for_rnn(configs, data):
    data = data.copy()
    data["sin_HOD"] = np.sin(2 * np.pi * data.index.hour / 24)
    data["cos_HOD"] = np.cos(2 * np.pi * data.index.hour / 24)
    data["DOW"] = data.index.dayofweek / 6.0
    lag_count = configs["data_processing"]["feat_timelag"]["lag_count"]
    target = data[configs["target_var"]]
    feats = data.drop(columns=[configs["target_var"]])
    lagged = [feats.shift(lag).add_suffix(f"_lag{lag}") for lag in range(lag_count, 0, -1)] + [feats]
    out = pd.concat(lagged + [target], axis=1).dropna()
    configs["input_dim"] = feats.shape[1]
    return out


# ---- wattile/models/lstm.py
class LSTM_Model(nn.Module):
    def __init__(self, input_dim, hidden_dim, layer_dim, output_dim, device):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.layer_dim = layer_dim
        self.device = device
        self.lstm = nn.LSTM(input_dim, hidden_dim, layer_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_dim)
        self.to(device)

    def forward(self, x):
        h0 = torch.zeros(self.layer_dim, x.size(0), self.hidden_dim).to(self.device)
        c0 = torch.zeros(self.layer_dim, x.size(0), self.hidden_dim).to(self.device)
        out, (hn, cn) = self.lstm(x.to(self.device), (h0, c0))
        return self.fc(out[:, -1, :])


# ---- wattile/models/utils.py
def save_model(model, epoch_num, n_iter, filepath):
    torch.save(
        {
            "epoch_num": epoch_num,
            "model_state_dict": model.state_dict(),
            "n_iter": n_iter,
        },
        filepath,
    )


def init_model(configs):
    hidden_dim = int(configs["hidden_nodes"])
    output_dim = len(configs["qs"])
    input_dim = configs["input_dim"]
    layer_dim = configs["layer_dim"]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return LSTM_Model(input_dim, hidden_dim, layer_dim, output_dim, device=device)


def load_model(configs):
    model = init_model(configs)

    filepath = pathlib.Path(configs["exp_dir"]) / "torch_model"
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    checkpoint = torch.load(filepath, map_location=device)

    model.load_state_dict(checkpoint["model_state_dict"])
    resume_num_epoch = checkpoint["epoch_num"]
    resume_n_iter = checkpoint["n_iter"]

    return model, resume_num_epoch, resume_n_iter


# ---- wattile/models/algo_main_rnn_v4.py
def size_the_batches(train_data, val_data, tr_desired_batch_size, te_desired_batch_size, configs):
    if configs["use_case"] == "train":
        train_bth = factors(train_data.shape[0])
        train_num_batches = min(train_bth, key=lambda x: abs(x - tr_desired_batch_size))
        train_bt_size = int(train_data.shape[0] / train_num_batches)
        val_bth = factors(val_data.shape[0])
        val_num_batches = min(val_bth, key=lambda x: abs(x - te_desired_batch_size))
        val_bt_size = int(val_data.shape[0] / val_num_batches)
        num_train_data = train_data.shape[0]
    else:
        val_bt_size = val_data.shape[0]
        train_bt_size = 0
        num_train_data = 0
    return train_bt_size, val_bt_size, num_train_data


def data_transform(train_data, val_data, transformation_method, run_train):
    if run_train:
        train_stats = {}
        train_stats["train_max"] = train_data.max().to_dict()
        train_stats["train_min"] = train_data.min().to_dict()
        train_stats["train_mean"] = train_data.mean(axis=0).to_dict()
        train_stats["train_std"] = train_data.std(axis=0).to_dict()
        path = os.path.join(file_prefix, "train_stats.json")
        with open(path, "w") as fp:
            json.dump(train_stats, fp)
        if transformation_method == "minmaxscale":
            train_data = (train_data - train_data.min()) / (train_data.max() - train_data.min())
        else:
            train_data = (train_data - train_data.mean(axis=0)) / train_data.std(axis=0)

    file_loc = os.path.join(file_prefix, "train_stats.json")
    with open(file_loc, "r") as f:
        train_stats = json.load(f)
    train_max = pd.DataFrame(train_stats["train_max"], index=[1]).iloc[0]
    train_min = pd.DataFrame(train_stats["train_min"], index=[1]).iloc[0]
    train_mean = pd.DataFrame(train_stats["train_mean"], index=[1]).iloc[0]
    train_std = pd.DataFrame(train_stats["train_std"], index=[1]).iloc[0]
    if transformation_method == "minmaxscale":
        val_data = (val_data - train_min) / (train_max - train_min)
    else:
        val_data = (val_data - train_mean) / train_std
    return train_data, val_data


def data_iterable_random(train_data, val_data, run_train, train_batch_size, val_batch_size, configs):
    if run_train:
        X_train = train_data.drop(configs["target_var"], axis=1).values.astype(dtype="float32")
        y_train = train_data[configs["target_var"]]
        y_train = y_train.values.astype(dtype="float32")
        y_train = np.tile(y_train, (len(configs["qs"]), 1))
        y_train = np.transpose(y_train)
        train_feat_tensor = torch.from_numpy(X_train).type(torch.FloatTensor)
        train_target_tensor = torch.from_numpy(y_train).type(torch.FloatTensor)
        train = data_utils.TensorDataset(train_feat_tensor, train_target_tensor)
        train_loader = data_utils.DataLoader(train, batch_size=train_batch_size, shuffle=True)
    else:
        train_loader = []
    X_val = val_data.drop(configs["target_var"], axis=1).values.astype(dtype="float32")
    y_val = val_data[configs["target_var"]]
    y_val = y_val.values.astype(dtype="float32")
    y_val = np.tile(y_val, (len(configs["qs"]), 1))
    y_val = np.transpose(y_val)
    val_feat_tensor = torch.from_numpy(X_val).type(torch.FloatTensor)
    val_target_tensor = torch.from_numpy(y_val).type(torch.FloatTensor)
    val = data_utils.TensorDataset(val_feat_tensor, val_target_tensor)
    val_loader = DataLoader(dataset=val, batch_size=val_batch_size, shuffle=False)
    return train_loader, val_loader


def quantile_loss(output, target, configs):
    resid = target - output
    tau = torch.FloatTensor(configs["qs"]).to(output.device)
    alpha = configs["smoothing_alpha"]
    log_term = torch.zeros_like(resid)
    log_term[resid < 0] = torch.log(1 + torch.exp(resid[resid < 0] / alpha)) - (resid[resid < 0] / alpha)
    log_term[resid >= 0] = torch.log(1 + torch.exp(-resid[resid >= 0] / alpha))
    loss = resid * tau + alpha * log_term
    loss = torch.mean(torch.mean(loss, 0))
    return loss


def test_processing(val_loader, model, seq_dim, input_dim, configs):
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for feats, values in val_loader:
            features = feats.view(-1, seq_dim, input_dim)
            outputs = model(features)
            preds.append(outputs.cpu().numpy())
            targets.append(values.numpy())
    semifinal_preds = np.concatenate(preds)
    semifinal_targs = np.concatenate(targets)
    median = len(configs["qs"]) // 2
    rmse = np.sqrt(np.mean((semifinal_preds[:, median] - semifinal_targs[:, median]) ** 2))
    return {"rmse": rmse}


def run_training(train_loader, val_loader, num_epochs, configs, seq_dim):
    input_dim = configs["input_dim"]
    path = os.path.join(file_prefix, "configs.json")
    with open(path, "w") as fp:
        json.dump(configs, fp, indent=1)
    model = init_model(configs)
    optimizer = torch.optim.Adam(model.parameters(), lr=configs["lr_config"]["base"],
                                 weight_decay=float(configs["weight_decay"]))
    n_iter = 0
    for epoch in range(num_epochs):
        model.train()
        for i, (feats, values) in enumerate(train_loader):
            features = feats.view(-1, seq_dim, input_dim).to(model.device)
            target = values.to(model.device)
            outputs = model(features)
            loss = quantile_loss(outputs, target, configs)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            n_iter += 1
        errors = test_processing(val_loader, model, seq_dim, input_dim, configs)
        print(f"epoch {epoch}: train loss {loss.item():.4f}, val rmse {errors['rmse']:.4f}")
    save_model(model, epoch, n_iter, os.path.join(file_prefix, "torch_model"))


def run_validation(val_loader, configs, seq_dim):
    model, resume_num_epoch, resume_n_iter = load_model(configs)
    errors = test_processing(val_loader, model, seq_dim, configs["input_dim"], configs)
    print(f"validation of the model from epoch {resume_num_epoch}: rmse {errors['rmse']:.4f}")


def main(train_df, val_df, configs):
    global file_prefix
    file_prefix = configs["exp_dir"]
    transformation_method = configs["transformation_method"]
    run_train = configs["use_case"] == "train"
    torch.manual_seed(configs["data_processing"]["random_seed"])
    train_data, val_data = data_transform(train_df.copy(), val_df.copy(), transformation_method, run_train)
    train_batch_size, val_batch_size, num_train_data = size_the_batches(
        train_data, val_data, configs["train_batch_size"], configs["val_batch_size"], configs)
    train_loader, val_loader = data_iterable_random(train_data, val_data, run_train, train_batch_size,
                                                    val_batch_size, configs)
    seq_dim = configs["data_processing"]["feat_timelag"]["lag_count"] + 1
    if run_train:
        run_training(train_loader, val_loader, configs["num_epochs"], configs, seq_dim)
    elif configs["use_case"] == "validation":
        run_validation(val_loader, configs, seq_dim)


# ---- the user's runs: scenario 1 of the report
@contextlib.contextmanager
def storages_tagged_as_cuda():
    """What torch.save writes on the GPU node: every storage tagged 'cuda:0'."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def read_building_data(n_hours=24 * 30, seed=0):
    rng = np.random.default_rng(seed)
    idx = pd.date_range("2022-06-01", periods=n_hours, freq="h")
    temp = 22 + 6 * np.sin(2 * np.pi * (idx.hour - 9) / 24) + rng.normal(0, 1, n_hours)
    ghi = np.clip(800 * np.sin(np.pi * (idx.hour - 6) / 12), 0, None) + rng.normal(0, 20, n_hours)
    power = 300 + 4 * temp + 0.1 * ghi + 40 * (idx.dayofweek < 5) + rng.normal(0, 10, n_hours)
    return pd.DataFrame({"Synthetic Weather Station Dry Bulb Temperature": temp,
                         "Synthetic Weather Station GHI": ghi, "FTLBWholeBuildingPower": power}, index=idx)


def make_configs(exp_dir, use_case):
    return {
        "exp_dir": exp_dir, "use_case": use_case, "target_var": "FTLBWholeBuildingPower",
        "arch_type": "RNN", "arch_type_variant": "lstm", "arch_version": "alfa",
        "transformation_method": "minmaxscale", "train_val_split": "Random",
        "num_epochs": 3, "train_batch_size": 32, "val_batch_size": 16, "hidden_nodes": 16, "layer_dim": 1,
        "weight_decay": 0.001, "lr_config": {"base": 0.005}, "qs": [0.025, 0.25, 0.5, 0.75, 0.975],
        "smoothing_alpha": 0.001,
        "data_processing": {"random_seed": 1, "feat_timelag": {"lag_count": 4}},
    }


if __name__ == "__main__":
    exp_dir = tempfile.mkdtemp()
    data = prep_for_rnn(make_configs(exp_dir, "train"), read_building_data())
    split = int(len(data) * 0.8)
    train_df, val_df = data.iloc[:split], data.iloc[split:]

    # run_training on the HPC node with a GPU
    configs = make_configs(exp_dir, "train")
    configs["input_dim"] = (train_df.shape[1] - 1) // (configs["data_processing"]["feat_timelag"]["lag_count"] + 1)
    with storages_tagged_as_cuda():
        main(train_df, val_df, configs)

    # run_validation with the GPU-trained model on a CPU-only machine
    configs = make_configs(exp_dir, "validation")
    configs["input_dim"] = (val_df.shape[1] - 1) // (configs["data_processing"]["feat_timelag"]["lag_count"] + 1)
    main(train_df, val_df, configs)
