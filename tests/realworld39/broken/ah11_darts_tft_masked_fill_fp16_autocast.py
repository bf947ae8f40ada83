"""Temporal Fusion Transformer trained in 16-bit mixed precision (darts issue #3081: TFTModel with pl_trainer_kwargs={"precision": "16-mixed"}; under autocast the query-key torch.bmm of darts' _ScaledDotProductAttention runs in float16, the division by the float32 scaling tensor keeps it float16, and the causal mask is then written with attn.masked_fill(mask, -1e9)): -1e9 is far outside float16's range (65504), so the first forward pass of the decoder's interpretable multi-head attention fails
source: https://github.com/unit8co/darts/issues/3081
reported-error: RuntimeError: value cannot be converted to type at::Half without overflow (_ScaledDotProductAttention.forward crashes under mixed precision (16-mixed) due to float16 overflow in masked_fill; the root cause is the hardcoded mask fill value -1e9 in tft_submodels.py)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 82
root-cause: line 75
expect: DG018
"""
import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader


# ---- darts/models/forecasting/tft_submodels.py
class MonteCarloDropout(nn.Dropout):
    pass


class _GatedLinearUnit(nn.Module):
    def __init__(self, input_size, hidden_size=None, dropout=None):
        super().__init__()
        self.hidden_size = hidden_size or input_size
        self.dropout = MonteCarloDropout(dropout) if dropout is not None else dropout
        self.fc = nn.Linear(input_size, self.hidden_size * 2)

    def forward(self, x):
        if self.dropout is not None:
            x = self.dropout(x)
        x = self.fc(x)
        return F.glu(x, dim=-1)


class _AddNorm(nn.Module):
    def __init__(self, input_size):
        super().__init__()
        self.norm = nn.LayerNorm(input_size)

    def forward(self, x, skip):
        return self.norm(x + skip)


class _GatedResidualNetwork(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, dropout=0.1, context_size=None):
        super().__init__()
        self.resample = nn.Linear(input_size, output_size) if input_size != output_size else None
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.elu = nn.ELU()
        self.context = nn.Linear(context_size, hidden_size, bias=False) if context_size is not None else None
        self.fc2 = nn.Linear(hidden_size, hidden_size)
        self.gate_norm_glu = _GatedLinearUnit(hidden_size, output_size, dropout)
        self.gate_norm = _AddNorm(output_size)

    def forward(self, x, context=None):
        residual = self.resample(x) if self.resample is not None else x
        x = self.fc1(x)
        if context is not None:
            x = x + self.context(context)
        x = self.elu(x)
        x = self.fc2(x)
        x = self.gate_norm_glu(x)
        return self.gate_norm(x, residual)


class _ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout=None, scale=True):
        super().__init__()
        self.dropout = MonteCarloDropout(p=dropout) if dropout is not None else dropout
        self.softmax = nn.Softmax(dim=2)
        self.scale = scale

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.permute(0, 2, 1))  # query-key overlap  # root-cause

        if self.scale:
            dimension = torch.sqrt(torch.tensor(k.shape[-1]).to(torch.float32))
            attn = attn / dimension

        if mask is not None:
            attn = attn.masked_fill(mask, -1e9)  # fails-here
        attn = self.softmax(attn)

        if self.dropout is not None:
            attn = self.dropout(attn)
        output = torch.bmm(attn, v)
        return output, attn


class _InterpretableMultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, dropout=0.0):
        super().__init__()
        self.n_head = n_head
        self.d_model = d_model
        self.d_k = self.d_q = self.d_v = d_model // n_head
        self.dropout = MonteCarloDropout(p=dropout)
        self.v_layer = nn.Linear(self.d_model, self.d_v)
        self.q_layers = nn.ModuleList([nn.Linear(self.d_model, self.d_q) for _ in range(self.n_head)])
        self.k_layers = nn.ModuleList([nn.Linear(self.d_model, self.d_k) for _ in range(self.n_head)])
        self.attention = _ScaledDotProductAttention()
        self.w_h = nn.Linear(self.d_v, self.d_model, bias=False)

    def forward(self, q, k, v, mask=None):
        heads = []
        attns = []
        vs = self.v_layer(v)
        for i in range(self.n_head):
            qs = self.q_layers[i](q)
            ks = self.k_layers[i](k)
            head, attn = self.attention(qs, ks, vs, mask)
            head_dropout = self.dropout(head)
            heads.append(head_dropout)
            attns.append(attn)
        head = torch.stack(heads, dim=2) if self.n_head > 1 else heads[0]
        attn = torch.stack(attns, dim=2)
        outputs = torch.mean(head, dim=2) if self.n_head > 1 else head
        outputs = self.w_h(outputs)
        outputs = self.dropout(outputs)
        return outputs, attn


class QuantileLoss(nn.Module):
    def __init__(self, quantiles):
        super().__init__()
        self.quantiles = quantiles

    def forward(self, y_pred, y_true):
        losses = []
        for i, q in enumerate(self.quantiles):
            errors = y_true - y_pred[..., i]
            losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(-1))
        return torch.cat(losses, dim=-1).sum(dim=-1).mean()


# ---- darts/models/forecasting/tft_model.py (_TFTModule, simplified variable selection)
class _TFTModule(nn.Module):
    def __init__(self, n_past_features, n_future_features, input_chunk_length, output_chunk_length,
                 hidden_size=16, lstm_layers=1, num_attention_heads=4, dropout=0.1, quantiles=(0.1, 0.5, 0.9)):
        super().__init__()
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.n_quantiles = len(quantiles)
        self.encoder_vsn = _GatedResidualNetwork(n_past_features, hidden_size, hidden_size, dropout)
        self.decoder_vsn = _GatedResidualNetwork(n_future_features, hidden_size, hidden_size, dropout)
        self.lstm_encoder = nn.LSTM(hidden_size, hidden_size, lstm_layers, batch_first=True)
        self.lstm_decoder = nn.LSTM(hidden_size, hidden_size, lstm_layers, batch_first=True)
        self.post_lstm_gan = _AddNorm(hidden_size)
        self.static_enrichment_grn = _GatedResidualNetwork(hidden_size, hidden_size, hidden_size, dropout)
        self.multihead_attn = _InterpretableMultiHeadAttention(d_model=hidden_size, n_head=num_attention_heads,
                                                               dropout=dropout)
        self.post_attn_gan = _AddNorm(hidden_size)
        self.feed_forward_block = _GatedResidualNetwork(hidden_size, hidden_size, hidden_size, dropout)
        self.pre_output_gan = _AddNorm(hidden_size)
        self.output_layer = nn.Linear(hidden_size, self.n_quantiles)

    @staticmethod
    def get_attention_mask_future(encoder_length, decoder_length, batch_size, device, full_attention=False):
        if full_attention:
            decoder_mask = torch.zeros((decoder_length, decoder_length), dtype=torch.bool, device=device)
        else:
            decoder_mask = torch.triu(torch.ones((decoder_length, decoder_length), dtype=torch.bool, device=device),
                                      diagonal=1)
        encoder_mask = torch.zeros(batch_size, encoder_length, dtype=torch.bool, device=device)
        return torch.cat((encoder_mask.unsqueeze(1).expand(-1, decoder_length, -1),
                          decoder_mask.unsqueeze(0).expand(batch_size, -1, -1)), dim=2)

    def forward(self, x_past, x_future):
        batch_size = x_past.shape[0]
        embeddings_varying_encoder = self.encoder_vsn(x_past)
        embeddings_varying_decoder = self.decoder_vsn(x_future)
        encoder_out, (hidden, cell) = self.lstm_encoder(embeddings_varying_encoder)
        decoder_out, _ = self.lstm_decoder(embeddings_varying_decoder, (hidden, cell))
        lstm_layer = torch.cat([encoder_out, decoder_out], dim=1)
        input_embeddings = torch.cat([embeddings_varying_encoder, embeddings_varying_decoder], dim=1)
        lstm_out = self.post_lstm_gan(x=lstm_layer, skip=input_embeddings)
        attn_input = self.static_enrichment_grn(lstm_out)
        attn_out, attn_out_weights = self.multihead_attn(
            q=attn_input[:, self.input_chunk_length:], k=attn_input, v=attn_input,
            mask=self.get_attention_mask_future(self.input_chunk_length, self.output_chunk_length, batch_size,
                                                x_past.device))
        attn_out = self.post_attn_gan(x=attn_out, skip=attn_input[:, self.input_chunk_length:])
        out = self.feed_forward_block(x=attn_out)
        out = self.pre_output_gan(x=out, skip=lstm_out[:, self.input_chunk_length:])
        return self.output_layer(out)


# ---- the user's data and training (darts' Trainer with precision="16-mixed" on the GPU)
class WindowDataset(Dataset):
    def __init__(self, target, past_cov, future_cov, icl, ocl):
        self.target, self.past_cov, self.future_cov = target, past_cov, future_cov
        self.icl, self.ocl = icl, ocl

    def __len__(self):
        return len(self.target) - self.icl - self.ocl + 1

    def __getitem__(self, i):
        s, m, e = i, i + self.icl, i + self.icl + self.ocl
        x_past = np.concatenate([self.target[s:m], self.past_cov[s:m], self.future_cov[s:m]], axis=1)
        x_future = self.future_cov[m:e]
        return (torch.from_numpy(x_past).float(), torch.from_numpy(x_future).float(),
                torch.from_numpy(self.target[m:e, 0]).float())


def make_energy_frame(n=24 * 60, seed=0):
    rng = np.random.default_rng(seed)
    idx = pd.date_range("2023-01-01", periods=n, freq="h")
    temp = 10 + 8 * np.sin(2 * np.pi * (idx.hour - 9) / 24) + rng.normal(0, 1, n)
    demand = 50 + 15 * np.sin(2 * np.pi * (idx.hour - 7) / 24) - 0.8 * temp + rng.normal(0, 2, n)
    return pd.DataFrame({"demand": demand, "temperature": temp, "hour": idx.hour, "dayofweek": idx.dayofweek},
                        index=idx)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    df = make_energy_frame()
    df = (df - df.mean()) / df.std()
    target = df[["demand"]].values
    past_cov = df[["temperature"]].values
    future_cov = df[["hour", "dayofweek"]].values
    icl, ocl = 24, 12
    dataset = WindowDataset(target, past_cov, future_cov, icl, ocl)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)

    quantiles = [0.1, 0.5, 0.9]
    model = _TFTModule(n_past_features=4, n_future_features=2, input_chunk_length=icl, output_chunk_length=ocl,
                       hidden_size=16, num_attention_heads=4, quantiles=quantiles).to(device)
    criterion = QuantileLoss(quantiles)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type)

    for epoch in range(2):
        model.train()
        for x_past, x_future, y in loader:
            x_past, x_future, y = x_past.to(device), x_future.to(device), y.to(device)
            optimizer.zero_grad()
            with torch.autocast(device_type=device.type, dtype=torch.float16):
                y_hat = model(x_past, x_future)
                loss = criterion(y_hat, y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        print(f"epoch {epoch}: train quantile loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
