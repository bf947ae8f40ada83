"""Multi-series demand forecasting with darts' Temporal Fusion Transformer (unit8co/darts: darts/models/forecasting/tft_model.py's _TFTModule, which caches its attention mask and relative time index as plain attributes and rebuilds them only when the batch size changes; TFTModel.fit / predict over a list of store sales series with add_relative_index=True), the state fixed by pull request #3053: a model fitted on the CPU and then moved to the GPU for prediction with the same batch size keeps the CPU relative index and mask (Module.to does not move plain attributes), so torch.cat of the GPU past covariates with the cached index fails
source: https://github.com/unit8co/darts/pull/3053
reported-error: "Fix device mismatch error in TFTModel when moving a trained model to a different device" (issue #3052): Expected all tensors to be on the same device; the pull request registers attention_mask and relative_index as non-persistent buffers
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument tensors in method wrapper_CUDA_cat) (not run on a GPU for this set) at line 92; on CPU: ok
root-cause: line 35
expect: DG009
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- darts/models/forecasting/tft_model.py (_TFTModule, reduced: linear input embeddings instead of the
# variable selection networks, one LSTM encoder/decoder, nn.MultiheadAttention, no static covariates)
class _TFTModule(nn.Module):
    def __init__(self, input_chunk_length, output_chunk_length, n_past, n_future, hidden_size=16,
                 num_attention_heads=4, full_attention=False, add_relative_index=True):
        super().__init__()
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.full_attention = full_attention
        self.add_relative_index = add_relative_index
        extra = 1 if add_relative_index else 0
        self.past_embedding = nn.Linear(n_past + extra, hidden_size)
        self.future_embedding = nn.Linear(n_future + extra, hidden_size)
        self.lstm_encoder = nn.LSTM(hidden_size, hidden_size, batch_first=True)
        self.lstm_decoder = nn.LSTM(hidden_size, hidden_size, batch_first=True)
        self.multihead_attn = nn.MultiheadAttention(hidden_size, num_attention_heads, batch_first=True)
        self.output_layer = nn.Linear(hidden_size, 1)

        # initialize last batch size to check if new mask needs to be generated
        self.batch_size_last = -1
        self.attention_mask = None
        self.relative_index = None  # root-cause

    @staticmethod
    def get_relative_index(encoder_length, decoder_length, batch_size, dtype, device):
        index = torch.arange(encoder_length + decoder_length, dtype=dtype, device=device)
        prediction_index = encoder_length - 1
        index[:encoder_length] = index[:encoder_length] / prediction_index
        index[encoder_length:] = index[encoder_length:] / prediction_index
        return index.reshape(1, len(index), 1).repeat(batch_size, 1, 1)

    @staticmethod
    def get_attention_mask_future(encoder_length, decoder_length, batch_size, device, full_attention):
        if full_attention:
            decoder_mask = torch.zeros((decoder_length, decoder_length), dtype=torch.bool, device=device)
        else:
            attend_step = torch.arange(decoder_length, device=device)
            predict_step = torch.arange(0, decoder_length, device=device)[:, None]
            decoder_mask = attend_step >= predict_step
        encoder_mask = torch.zeros(batch_size, encoder_length, dtype=torch.bool, device=device)
        mask = torch.cat(
            (
                encoder_mask.unsqueeze(1).expand(-1, decoder_length, -1),
                decoder_mask.unsqueeze(0).expand(batch_size, -1, -1),
            ),
            dim=2,
        )
        return mask

    def forward(self, x_in):
        x_cont_past, x_cont_future = x_in
        dim_samples, dim_time, dim_variable = 0, 1, 2
        device = x_in[0].device

        batch_size = x_cont_past.shape[dim_samples]
        encoder_length = self.input_chunk_length
        decoder_length = self.output_chunk_length

        # avoid unnecessary regeneration of attention mask
        if batch_size != self.batch_size_last:
            self.attention_mask = self.get_attention_mask_future(
                encoder_length=encoder_length,
                decoder_length=decoder_length,
                batch_size=batch_size,
                device=device,
                full_attention=self.full_attention,
            )
            if self.add_relative_index:
                self.relative_index = self.get_relative_index(
                    encoder_length=encoder_length,
                    decoder_length=decoder_length,
                    batch_size=batch_size,
                    device=device,
                    dtype=x_cont_past.dtype,
                )
            self.batch_size_last = batch_size

        if self.add_relative_index:
            x_cont_past = torch.cat(  # fails-here
                [ts[:, :encoder_length, :] for ts in [x_cont_past, self.relative_index] if ts is not None],
                dim=dim_variable,
            )
            x_cont_future = torch.cat(
                [ts[:, -decoder_length:, :] for ts in [x_cont_future, self.relative_index] if ts is not None],
                dim=dim_variable,
            )

        enc_in = self.past_embedding(x_cont_past)
        dec_in = self.future_embedding(x_cont_future)
        encoder_out, (h, c) = self.lstm_encoder(enc_in)
        decoder_out, _ = self.lstm_decoder(dec_in, (h, c))
        lstm_layer = torch.cat([encoder_out, decoder_out], dim=dim_time)
        attn_mask = self.attention_mask.repeat_interleave(self.multihead_attn.num_heads, dim=0)
        attn_out, _ = self.multihead_attn(lstm_layer[:, encoder_length:], lstm_layer, lstm_layer, attn_mask=attn_mask)
        return self.output_layer(attn_out + decoder_out)


# ---- darts TFTModel / TorchForecastingModel (reduced: sliding-window training samples from a list of series with
# a day-of-week future covariate; fit and predict take the device the Lightning trainer would use)
class TFTModel:
    def __init__(self, input_chunk_length, output_chunk_length, hidden_size=16, num_attention_heads=4,
                 batch_size=16, n_epochs=3, add_relative_index=True, random_state=42):
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.batch_size = batch_size
        self.n_epochs = n_epochs
        torch.manual_seed(random_state)
        self.model = _TFTModule(input_chunk_length, output_chunk_length, n_past=2, n_future=1,
                                hidden_size=hidden_size, num_attention_heads=num_attention_heads,
                                add_relative_index=add_relative_index)

    def _windows(self, df):
        values = df["sales"].to_numpy(dtype=np.float32)
        dow = (df.index.day_of_week.to_numpy() / 6.0).astype(np.float32)
        L, H = self.input_chunk_length, self.output_chunk_length
        for start in range(0, len(df) - L - H + 1, H):
            past = np.stack([values[start:start + L], dow[start:start + L]], axis=1)
            future = dow[start:start + L + H, None]
            yield past, future, values[start + L:start + L + H, None]

    def fit(self, series, device="cpu"):
        samples = [w for df in series for w in self._windows(df)]
        past, future, target = (torch.from_numpy(np.stack(a)) for a in zip(*samples))
        self.model.to(device)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        for epoch in range(self.n_epochs):
            perm = torch.randperm(len(past))
            n_full = len(perm) - len(perm) % self.batch_size  # drop_last, as darts' training loader does
            for i in range(0, n_full, self.batch_size):
                idx = perm[i:i + self.batch_size]
                pred = self.model((past[idx].to(device), future[idx].to(device)))
                loss = nn.functional.mse_loss(pred, target[idx].to(device))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} train_loss {loss.item():.4f}")
        return self

    def predict(self, n, series, device="cpu"):
        self.model.to(device).eval()
        L = self.input_chunk_length
        past, future = [], []
        for df in series:
            values = df["sales"].to_numpy(dtype=np.float32)[-L:]
            future_index = pd.date_range(df.index[-L], periods=L + n, freq="D")
            dow = (future_index.day_of_week.to_numpy() / 6.0).astype(np.float32)
            past.append(np.stack([values, dow[:L]], axis=1))
            future.append(dow[:, None])
        preds = []
        with torch.no_grad():
            for i in range(0, len(series), self.batch_size):
                x_past = torch.from_numpy(np.stack(past[i:i + self.batch_size])).to(device)
                x_future = torch.from_numpy(np.stack(future[i:i + self.batch_size])).to(device)
                preds.append(self.model((x_past, x_future)).cpu())
        return torch.cat(preds).squeeze(-1).numpy()


def load_store_sales(n_stores=16, n_days=120, seed=0):
    rng = np.random.default_rng(seed)
    index = pd.date_range("2024-01-01", periods=n_days, freq="D")
    frames = []
    for store in range(n_stores):
        level = rng.uniform(0.5, 1.5)
        weekly = 0.3 * np.sin(2 * np.pi * index.day_of_week / 7.0)
        sales = level + weekly + 0.05 * rng.normal(size=n_days)
        frames.append(pd.DataFrame({"sales": sales}, index=index))
    return frames


if __name__ == "__main__":
    series = load_store_sales()
    model = TFTModel(input_chunk_length=14, output_chunk_length=7, batch_size=16, n_epochs=3, add_relative_index=True)
    # a quick fit on the laptop's CPU (pl_trainer_kwargs={"accelerator": "cpu"}) ...
    model.fit(series, device="cpu")
    # ... then forecasting for all 16 stores on the accelerator
    device = "cuda" if torch.cuda.is_available() else "cpu"
    forecast = model.predict(n=7, series=series, device=device)
    print("forecast", forecast.shape, "first store", np.round(forecast[0], 3).tolist())
