"""Multi-objective RL (morl-baselines Envelope Q-learning layout): the agent builds its QNet passing self.device positionally, but the constructor's next positional parameter is net_arch's drop_rate, so the network is never moved to the device and stays on the CPU while observations and preference weights are sent to CUDA
source: https://github.com/LucasAlegre/morl-baselines/issues/153
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm) (Device mismatch due to positional constructor argument)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm) (the QNet stays on the CPU; not run on a GPU for this set) at line 31; on CPU: ok
root-cause: line 38
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn


# ---- morl_baselines/common/networks.py
def mlp(input_dim, output_dim, net_arch, drop_rate=0.0):
    layers, last = [], input_dim
    for h in net_arch:
        layers += [nn.Linear(last, h), nn.Dropout(drop_rate) if drop_rate else nn.Identity(), nn.ReLU()]
        last = h
    return nn.Sequential(*layers, nn.Linear(last, output_dim))


# ---- morl_baselines/multi_policy/envelope/envelope.py
class QNet(nn.Module):
    def __init__(self, obs_shape, action_dim, rew_dim, net_arch, drop_rate=0.0, device="cpu"):
        super().__init__()
        self.action_dim, self.rew_dim = action_dim, rew_dim
        self.net = mlp(obs_shape[0] + rew_dim, action_dim * rew_dim, net_arch, drop_rate if isinstance(drop_rate, float) else 0.0)
        self.to(device)

    def forward(self, obs, w):
        q = self.net(torch.cat((obs, w), dim=obs.dim() - 1))  # fails-here
        return q.view(-1, self.action_dim, self.rew_dim)


class Envelope:
    def __init__(self, obs_shape=(4,), action_dim=3, rew_dim=2, net_arch=(32, 32), device="auto"):
        self.device = torch.device("cuda" if device == "auto" and torch.cuda.is_available() else "cpu")
        self.q_net = QNet(obs_shape, action_dim, rew_dim, list(net_arch), self.device)  # root-cause
        self.rew_dim = rew_dim

    @torch.no_grad()
    def act(self, obs, w):
        obs = torch.as_tensor(obs, dtype=torch.float32, device=self.device)
        w = torch.as_tensor(w, dtype=torch.float32, device=self.device)
        q = self.q_net(obs.unsqueeze(0), w.unsqueeze(0))
        return int(torch.einsum("r,bar->ba", w, q).argmax(1).item())


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = Envelope()
    rng = np.random.default_rng(0)
    actions = [agent.act(rng.normal(size=4), np.array([0.7, 0.3])) for _ in range(5)]
    print("actions", actions)
