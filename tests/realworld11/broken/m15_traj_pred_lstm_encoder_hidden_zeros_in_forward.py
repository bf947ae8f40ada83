"""Trajectory-prediction encoder/decoder built from a config dict; the model is moved to the selected device, but the encoder builds its initial LSTM hidden/cell state with torch.zeros(...) inside forward without a device, so on a GPU the LSTM gets cuda inputs with CPU hidden states
source: https://github.com/BenMSK/trajectory_prediction_TraPHic/issues/1
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu (LSTM called with cuda input and CPU h0/c0; not run on a GPU here, the exact wording varies with the torch version) at line 26; on CPU: ok
root-cause: line 22
expect: DG009
"""
import torch
import torch.nn as nn

CFG = {"in_dim": 2, "hidden": 32, "pred_len": 6, "obs_len": 8, "batch": 16, "lr": 1e-3, "epochs": 2}


class TrajEncoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Linear(in_dim, hidden)
        self.lstm = nn.LSTM(hidden, hidden, batch_first=True)

    def init_state(self, batch):
        return torch.zeros(1, batch, self.hidden), torch.zeros(1, batch, self.hidden)  # root-cause

    def forward(self, hist):
        h0, c0 = self.init_state(hist.size(0))
        _, (h, _) = self.lstm(torch.relu(self.embed(hist)), (h0, c0))  # fails-here
        return h[-1]


class TrajDecoder(nn.Module):
    def __init__(self, hidden, pred_len):
        super().__init__()
        self.pred_len = pred_len
        self.out = nn.Linear(hidden, 2 * pred_len)

    def forward(self, h):
        return self.out(h).view(h.size(0), self.pred_len, 2)


def build(cfg):
    return nn.ModuleDict({"enc": TrajEncoder(cfg["in_dim"], cfg["hidden"]), "dec": TrajDecoder(cfg["hidden"], cfg["pred_len"])})


def synthetic_tracks(cfg, g):
    v = torch.randn(cfg["batch"], 1, 2, generator=g) * 0.1
    t = torch.arange(cfg["obs_len"] + cfg["pred_len"]).view(1, -1, 1).float()
    tracks = v * t
    return tracks[:, : cfg["obs_len"]], tracks[:, cfg["obs_len"]:]


def main(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    g = torch.Generator().manual_seed(0)
    for epoch in range(cfg["epochs"]):
        hist, fut = synthetic_tracks(cfg, g)
        hist, fut = hist.to(device), fut.to(device)
        pred = model["dec"](model["enc"](hist))
        loss = torch.linalg.norm(pred - fut, dim=-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: ADE {loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
