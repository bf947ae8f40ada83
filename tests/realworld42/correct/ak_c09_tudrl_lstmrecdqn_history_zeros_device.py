"""Ship collision avoidance with TUD_RL's LSTMRecDQN agent (as in ak09: inner LSTM over NaN-padded target ships, outer LSTM over the observation history, the agent's device taken from the config's "device": "cuda" where CUDA exists) with the history features and the no-target-ship features created on the input's device, torch.zeros(..., device=s_hist.device) and torch.zeros(..., device=s.device), so the outer LSTM gets its input on the device of its weights
source: https://github.com/MarWaltz/TUD_RL/issues/21
reported-error: (none filed; the fixed situation of ak09, the device-aware history tensor of the fix for TUD_RL issue #21)
outcome: ok
root-cause: -
expect: none
"""
import copy

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


# ---- tud_rl/common/nets.py (RecDQN, LSTMRecDQN)
class RecDQN(nn.Module):
    def __init__(self, num_actions, num_obs_OS=8, num_obs_TS=6) -> None:
        super(RecDQN, self).__init__()
        self.num_actions = num_actions
        self.num_obs_OS = num_obs_OS
        self.num_obs_TS = num_obs_TS
        self.denseOS_inner = nn.Linear(num_obs_OS, 128)
        self.LSTM_inner = nn.LSTM(input_size=num_obs_TS, hidden_size=128, num_layers=1, batch_first=True)
        self.denseTS_inner = nn.Linear(128, 128)
        self.post_comb_dense1 = nn.Linear(128 + 128, 128)
        self.post_comb_dense2 = nn.Linear(128, num_actions)

    def _inner_rec(self, s):
        s_OS = s[:, :self.num_obs_OS]
        s_TS = s[:, self.num_obs_OS:]
        TS_there = True if s_TS.shape[1] != 0 else False
        first_dim = s_TS.shape[0]
        if TS_there:
            s_TS = s_TS.view(first_dim, -1, self.num_obs_TS)
            N_TS_obs = torch.sum(torch.logical_not(torch.isnan(s_TS))[:, :, 0], dim=1)
            h_idx = copy.deepcopy(N_TS_obs)
            h_idx[h_idx == 0] = 1
            h_idx -= 1
            s_TS = torch.nan_to_num(s_TS, nan=0.0)  # the original's commented-out variant; the in-place s_TS[isnan] = 0 breaks backward through x_hist here
        x_OS = F.relu(self.denseOS_inner(s_OS))
        if TS_there:
            x_TS, (_, _) = self.LSTM_inner(s_TS)
            x_TS = x_TS[torch.arange(x_TS.size(0)), h_idx]
            x_TS[N_TS_obs == 0] = 0.0
        else:
            x_TS = torch.zeros(first_dim, 128, device=s.device)
        x_TS = F.relu(self.denseTS_inner(x_TS))
        return torch.cat([x_OS, x_TS], dim=1)


class LSTMRecDQN(RecDQN):
    def __init__(self, num_actions, num_obs_OS=8, num_obs_TS=6) -> None:
        super(LSTMRecDQN, self).__init__(num_actions=num_actions, num_obs_OS=num_obs_OS, num_obs_TS=num_obs_TS)
        del self.post_comb_dense1
        del self.post_comb_dense2
        self.LSTM_outer = nn.LSTM(input_size=128 + 128, hidden_size=128, num_layers=1, batch_first=True)
        self.denseCFE = nn.Linear(128 + 128, 128)
        self.PI_dense1 = nn.Linear(128 + 128, 128)
        self.PI_dense2 = nn.Linear(128, num_actions)

    def forward(self, s, s_hist, a_hist, hist_len) -> tuple:
        x_CFE = self._inner_rec(s)
        x_CFE = F.relu(self.denseCFE(x_CFE))
        batch_size, history_length, _ = s_hist.shape
        x_hist = torch.zeros((batch_size, history_length, 128 + 128), device=s_hist.device)
        for t in range(history_length):
            x_hist[:, t, :] = self._inner_rec(s_hist[:, t, :])
        extracted_mem, (_, _) = self.LSTM_outer(x_hist)
        h_idx = copy.deepcopy(hist_len)
        h_idx[h_idx == 0] = 1
        h_idx -= 1
        hidden_mem = extracted_mem[torch.arange(extracted_mem.size(0)), h_idx]
        hidden_mem[hist_len == 0] = 0.0
        x = torch.cat([x_CFE, hidden_mem], dim=1)
        x = F.relu(self.PI_dense1(x))
        return self.PI_dense2(x)


# ---- the MMG ship environment (reduced: own ship heading control, target ships beyond sight are NaN)
class MMGEnv:
    def __init__(self, N_TSs=3, seed=0):
        self.N_TSs, self.rng = N_TSs, np.random.default_rng(seed)
        self.num_actions = 3
        self.obs_size = 8 + 6 * N_TSs

    def reset(self):
        self.os = np.array([0.0, 0.0, 0.0, 1.0])           # x, y, heading, speed
        self.goal = np.array([0.0, 40.0])
        self.ts = self.rng.uniform(-30, 30, (self.N_TSs, 4))
        self.t = 0
        return self._obs()

    def _obs(self):
        x, y, psi, u = self.os
        d_goal = self.goal - self.os[:2]
        s_os = np.array([np.sin(psi), np.cos(psi), u, d_goal[0] / 40, d_goal[1] / 40,
                         np.linalg.norm(d_goal) / 40, self.t / 200, 1.0])
        s_ts = []
        for tx, ty, tpsi, tu in self.ts:
            dist = np.hypot(tx - x, ty - y)
            if dist > 25:
                s_ts.append(np.full(6, np.nan))
            else:
                s_ts.append(np.array([(tx - x) / 25, (ty - y) / 25, np.sin(tpsi), np.cos(tpsi), tu, dist / 25]))
        s_ts.sort(key=lambda v: np.inf if np.isnan(v[5]) else v[5])
        return np.concatenate([s_os] + s_ts).astype(np.float32)

    def step(self, a):
        self.os[2] += (a - 1) * 0.1
        self.os[0] += self.os[3] * np.sin(self.os[2])
        self.os[1] += self.os[3] * np.cos(self.os[2])
        self.ts[:, 0] += self.ts[:, 3] * np.sin(self.ts[:, 2]) * 0.3
        self.ts[:, 1] += self.ts[:, 3] * np.cos(self.ts[:, 2]) * 0.3
        self.t += 1
        d = np.linalg.norm(self.goal - self.os[:2])
        r = -d / 40
        done = d < 2 or self.t >= 60
        return self._obs(), r, done, {}


# ---- tud_rl/agents/discrete/LSTMRecDQN.py (reduced: history buffer, select_action, train)
class LSTMRecDQNAgent:
    def __init__(self, c, num_actions, obs_size):
        self.device = torch.device(c["device"] if torch.cuda.is_available() else "cpu")
        self.history_length, self.batch_size, self.gamma = c["history_length"], c["batch_size"], c["gamma"]
        self.num_actions, self.obs_size = num_actions, obs_size
        self.DQN = LSTMRecDQN(num_actions=num_actions).to(self.device)
        self.target_DQN = copy.deepcopy(self.DQN).to(self.device)
        for p in self.target_DQN.parameters():
            p.requires_grad = False
        self.DQN_optimizer = optim.Adam(self.DQN.parameters(), lr=c["lr"])
        self.buffer = []
        self.eps = 1.0

    def reset_history(self):
        self.s_hist = np.zeros((self.history_length, self.obs_size), dtype=np.float32)
        self.hist_len = 0

    def update_history(self, s):
        if self.hist_len == self.history_length:
            self.s_hist = np.roll(self.s_hist, shift=-1, axis=0)
            self.s_hist[-1] = s
        else:
            self.s_hist[self.hist_len] = s
            self.hist_len += 1

    @torch.no_grad()
    def select_action(self, s):
        if np.random.binomial(1, self.eps) == 1:
            return np.random.randint(self.num_actions)
        s = torch.tensor(s, dtype=torch.float32).unsqueeze(0).to(self.device)
        s_hist = torch.tensor(self.s_hist, dtype=torch.float32).unsqueeze(0).to(self.device)
        hist_len = torch.tensor(self.hist_len, device=self.device)
        q = self.DQN(s, s_hist, None, hist_len)
        return int(torch.argmax(q).item())

    def memorize(self, s_hist, hist_len, s, a, r, s2, d):
        self.buffer.append((s_hist.copy(), hist_len, s, a, r, s2, d))

    def train(self):
        idx = np.random.randint(0, len(self.buffer), self.batch_size)
        s_hist, hist_len, s, a, r, s2, d = map(np.array, zip(*[self.buffer[i] for i in idx]))
        to = lambda x, dt=torch.float32: torch.tensor(x, dtype=dt, device=self.device)
        s_hist, s, s2, r, d = to(s_hist), to(s), to(s2), to(r), to(d)
        a, hist_len = to(a, torch.int64), to(hist_len, torch.int64)
        Q = self.DQN(s, s_hist, None, hist_len).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            s2_hist = torch.cat([s_hist[:, 1:], s.unsqueeze(1)], dim=1)
            Q_next = self.target_DQN(s2, s2_hist, None, torch.clamp(hist_len + 1, max=self.history_length)).max(1)[0]
            y = r + self.gamma * (1 - d) * Q_next
        loss = F.mse_loss(Q, y)
        self.DQN_optimizer.zero_grad()
        loss.backward()
        self.DQN_optimizer.step()
        return loss.item()


if __name__ == "__main__":
    # MMGEnvRecDQN.yaml with "device" changed to "cuda" by the reporter
    c = {"device": "cuda", "history_length": 2, "batch_size": 16, "gamma": 0.99, "lr": 1e-4,
         "timesteps": 150, "act_start_step": 40, "upd_start_step": 32}
    np.random.seed(0)
    torch.manual_seed(0)
    env = MMGEnv(N_TSs=3, seed=0)
    agent = LSTMRecDQNAgent(c, env.num_actions, env.obs_size)
    s = env.reset()
    agent.reset_history()
    ep_ret, losses = 0.0, []
    for total_steps in range(c["timesteps"]):
        if total_steps >= c["act_start_step"]:
            agent.eps = 0.2
        a = agent.select_action(s)
        s2, r, d, _ = env.step(a)
        agent.memorize(agent.s_hist, agent.hist_len, s, a, r, s2, float(d))
        agent.update_history(s)
        s, ep_ret = s2, ep_ret + r
        if total_steps >= c["upd_start_step"]:
            losses.append(agent.train())
        if d:
            print("episode return %.2f" % ep_ret)
            s, ep_ret = env.reset(), 0.0
            agent.reset_history()
    print("training done, last loss %.4f" % losses[-1])
