"""A ForecastGrapher-style run on ETTh1-like hourly data (re-typed: the Time-Series-Library Dataset_Custom with its hand-rolled StandardScaler fit on the train split and timeenc=1 time features scaled to [-0.5, 0.5], the float casts of the exp loop, DataEmbedding_GNN indexing its hour/day embedding tables with x_mark cast by .type(torch.LongTensor), a node-mixing layer and a linear head trained with MSE): the normalized hour and weekday marks truncate to index 0, so every window reads the same hour and day embedding row and the temporal embeddings never learn
source: https://github.com/YoZhibo/ForecastGrapher/issues/4
reported-error: "Why LongTensor at hour, day embedding? ... when converting the input to torch.LongTensor, values in the range [-0.5, 0.5] become all zeros" (layers/Embed.py, DataEmbedding_GNN.forward)
outcome: ok (silent): training runs, but the hour and weekday indices are all 0; prints "distinct hour embedding rows used: 1 of 24, distinct weekday rows used: 1 of 7" and the temporal tables' other rows keep their initial values
root-cause: line 87
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(2024)
rng = np.random.default_rng(2024)


# ---- utils/timefeatures.py (timeenc=1, freq='h') ---------------------------------------
def time_features(dates):
    return np.vstack([
        dates.hour / 23.0 - 0.5,          # HourOfDay
        dates.day_of_week / 6.0 - 0.5,      # DayOfWeek
        (dates.day - 1) / 30.0 - 0.5,     # DayOfMonth
        (dates.day_of_year - 1) / 365.0 - 0.5,  # DayOfYear
    ])


class StandardScaler:
    def fit(self, data):
        self.mean_, self.scale_ = data.mean(0), data.std(0)
        return self

    def transform(self, data):
        return (data - self.mean_) / self.scale_


# ---- data_provider/data_loader.py: Dataset_Custom ---------------------------------------
class Dataset_Custom(Dataset):
    def __init__(self, df_raw, flag="train", size=(96, 48, 24), timeenc=1):
        self.seq_len, self.label_len, self.pred_len = size
        n = len(df_raw)
        num_train, num_test = int(n * 0.7), int(n * 0.2)
        num_vali = n - num_train - num_test
        border1s = [0, num_train - self.seq_len, n - num_test - self.seq_len]
        border2s = [num_train, num_train + num_vali, n]
        set_type = {"train": 0, "val": 1, "test": 2}[flag]
        border1, border2 = border1s[set_type], border2s[set_type]

        df_data = df_raw[df_raw.columns[1:]]
        self.scaler = StandardScaler().fit(df_data[border1s[0]:border2s[0]].values)
        data = self.scaler.transform(df_data.values)

        df_stamp = df_raw[["date"]][border1:border2]
        data_stamp = time_features(pd.to_datetime(df_stamp["date"].values)).transpose(1, 0)  # root-cause-alt
        self.data_x = data[border1:border2]
        self.data_y = data[border1:border2]
        self.data_stamp = data_stamp

    def __getitem__(self, index):
        s_begin, s_end = index, index + self.seq_len
        r_begin, r_end = s_end - self.label_len, s_end - self.label_len + self.label_len + self.pred_len
        return (self.data_x[s_begin:s_end], self.data_y[r_begin:r_end],
                self.data_stamp[s_begin:s_end], self.data_stamp[r_begin:r_end])

    def __len__(self):
        return len(self.data_x) - self.seq_len - self.pred_len + 1


# ---- layers/Embed.py: DataEmbedding_GNN ------------------------------------------------
class DataEmbedding_GNN(nn.Module):
    def __init__(self, c_in, d_model, num_nodes=7, dropout=0.1):
        super().__init__()
        self.value_embedding = nn.Linear(c_in, d_model)
        self.dropout = nn.Dropout(p=dropout)
        self.node_emb = nn.Parameter(torch.empty(num_nodes, d_model))
        nn.init.xavier_uniform_(self.node_emb)
        self.hour_embed = nn.Parameter(torch.empty(24, d_model))
        nn.init.xavier_uniform_(self.hour_embed)
        self.day_embed = nn.Parameter(torch.empty(7, d_model))
        nn.init.xavier_uniform_(self.day_embed)
        self.rows_used = {"hour": set(), "day": set()}

    def forward(self, x, x_mark):
        x = x.permute(0, 2, 1)  # [Batch Variate Time]
        B, N, T = x.shape
        node_emb = self.node_emb.unsqueeze(0).expand(B, -1, -1)
        hour_idx = (x_mark[:, :, 0].unsqueeze(-1).expand(-1, -1, N)[:, -1, :]).type(torch.LongTensor)  # root-cause
        day_idx = (x_mark[:, :, 1].unsqueeze(-1).expand(-1, -1, N)[:, -1, :]).type(torch.LongTensor)
        self.rows_used["hour"].update(hour_idx.unique().tolist())
        self.rows_used["day"].update(day_idx.unique().tolist())
        hour_embed = self.hour_embed[hour_idx]
        day_embed = self.day_embed[day_idx]
        x = self.value_embedding(x) + node_emb + day_embed + hour_embed
        return self.dropout(x)


# ---- models/ForecastGrapher.py (the graph block reduced to one learned node-mixing layer) ----
class Model(nn.Module):
    def __init__(self, seq_len, pred_len, enc_in, d_model=32):
        super().__init__()
        self.enc_embedding = DataEmbedding_GNN(seq_len, d_model, num_nodes=enc_in)
        self.adj = nn.Parameter(torch.eye(enc_in) + 0.01 * torch.randn(enc_in, enc_in))
        self.mlp = nn.Sequential(nn.Linear(d_model, d_model), nn.GELU())
        self.projection = nn.Linear(d_model, pred_len)

    def forward(self, x_enc, x_mark_enc):
        means = x_enc.mean(1, keepdim=True).detach()
        x_enc = x_enc - means
        h = self.enc_embedding(x_enc, x_mark_enc)                  # (B, N, d_model)
        h = h + self.mlp(torch.softmax(self.adj, -1) @ h)
        dec_out = self.projection(h).permute(0, 2, 1)              # (B, pred_len, N)
        return dec_out + means


# ---- exp/exp_long_term_forecasting.py ---------------------------------------------------
hours = pd.date_range("2016-07-01", periods=24 * 120, freq="h")
t = np.arange(len(hours))
daily = np.sin(2 * np.pi * t / 24)
weekday_effect = np.where(hours.day_of_week >= 5, -1.5, 0.5)
df_raw = pd.DataFrame({"date": hours.astype(str)})
for k, name in enumerate(["HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT"]):
    df_raw[name] = 5 + (k + 1) * 0.3 * daily + weekday_effect + rng.normal(0, 0.3, len(t))

seq_len, label_len, pred_len = 96, 48, 24
train_data = Dataset_Custom(df_raw, "train", (seq_len, label_len, pred_len))
train_loader = DataLoader(train_data, batch_size=32, shuffle=True, drop_last=True)
model = Model(seq_len, pred_len, enc_in=7)
model_optim = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()
hour_table_before = model.enc_embedding.hour_embed.detach().clone()

for epoch in range(2):
    train_loss = []
    model.train()
    for i, (batch_x, batch_y, batch_x_mark, batch_y_mark) in enumerate(train_loader):
        if i >= 25:
            break
        model_optim.zero_grad()
        batch_x = batch_x.float()
        batch_y = batch_y.float()
        batch_x_mark = batch_x_mark.float()
        outputs = model(batch_x, batch_x_mark)
        loss = criterion(outputs[:, -pred_len:, :], batch_y[:, -pred_len:, :])
        train_loss.append(loss.item())
        loss.backward()
        model_optim.step()
    print(f"Epoch: {epoch + 1} | Train Loss: {np.average(train_loss):.5f}")

rows = model.enc_embedding.rows_used
changed = (model.enc_embedding.hour_embed.detach() - hour_table_before).abs().sum(1).gt(0).sum().item()
print(f"distinct hour embedding rows used: {len(rows['hour'])} of 24, distinct weekday rows used: {len(rows['day'])} of 7")
print(f"hour embedding rows updated by training: {changed} of 24")
