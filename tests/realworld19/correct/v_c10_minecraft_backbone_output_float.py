"""Recurrent policy whose bfloat16-autocast convolutional backbone output is converted back with .float() before the float32 per-location LSTM runs outside the autocast block
source: https://github.com/cassidylaidlaw/minecraft-building-assistance-game/pull/61
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


class MbagTorchModel(nn.Module):
    def __init__(self, n_blocks=10, embed=8, hidden=16, n_actions=6, use_amp=True):
        super().__init__()
        self.block_embed = nn.Embedding(n_blocks, embed)
        self.backbone = nn.Sequential(nn.Conv3d(embed, hidden, 3, padding=1), nn.ReLU(),
                                      nn.Conv3d(hidden, hidden, 3, padding=1), nn.ReLU())
        self.per_location_lstm = nn.LSTM(hidden, hidden, batch_first=True)
        self.action_head = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)
        self.use_amp = use_amp

    def _run_backbone(self, world):
        x = self.block_embed(world).permute(0, 4, 1, 2, 3)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.use_amp):
            out = self.backbone(x)
        return out.float().flatten(2).transpose(1, 2)

    def _run_lstm(self, feats, state):
        b, locs, c = feats.shape
        seq = feats.reshape(b * locs, 1, c)
        out, state = self.per_location_lstm(seq, state)
        return out.reshape(b, locs, -1), state

    def forward(self, world, state=None):
        self._backbone_out, state = self._run_lstm(self._run_backbone(world), state)
        pooled = self._backbone_out.mean(1)
        return self.action_head(pooled), self.value_head(pooled).squeeze(-1), state


def rollout(model, steps=4, batch=2, size=6, seed=0):
    rng = np.random.default_rng(seed)
    world = torch.from_numpy(rng.integers(0, 10, (batch, size, size, size)))
    state, logps, values = None, [], []
    for _ in range(steps):
        logits, value, state = model(world, state)
        dist = torch.distributions.Categorical(logits=logits.float())
        action = dist.sample()
        logps.append(dist.log_prob(action))
        values.append(value)
        world = world.clone()
        world[:, 0, 0, 0] = action % 10
    return torch.stack(logps), torch.stack(values)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MbagTorchModel()
    logps, values = rollout(model)
    loss = -(logps * (1.0 - values.detach())).mean() + values.pow(2).mean()
    loss.backward()
    print("policy loss", loss.item())
