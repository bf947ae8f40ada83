"""DQN (Deep RL Hands-On chapter 6 style) whose ExperienceBuffer.sample() packs every field with one float32 dtype "for the network", actions included; calc_loss() turns them into a tensor and Q-values.gather() rejects the float index
source: https://github.com/PacktPublishing/Deep-Reinforcement-Learning-Hands-On-Second-Edition/issues/45
reported-error: RuntimeError: gather_out_cpu(): Expected dtype int64 for index (fixed there with torch.tensor(actions, dtype=torch.int64))
outcome: RuntimeError: gather(): Expected dtype int32/int64 for index at line 43
root-cause: line 31
expect: DG006
"""
import collections

import numpy as np
import torch
import torch.nn as nn

Experience = collections.namedtuple("Experience", ["state", "action", "reward", "done", "new_state"])


class ExperienceBuffer:
    def __init__(self, capacity):
        self.buffer = collections.deque(maxlen=capacity)
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.buffer)

    def append(self, exp):
        self.buffer.append(exp)

    def sample(self, batch_size):
        idx = self.rng.choice(len(self.buffer), batch_size, replace=False)
        states, actions, rewards, dones, next_states = zip(*[self.buffer[i] for i in idx])
        return (np.array(states, dtype=np.float32), np.array(actions, dtype=np.float32),  # root-cause
                np.array(rewards, dtype=np.float32), np.array(dones, dtype=np.uint8),
                np.array(next_states, dtype=np.float32))


def calc_loss(batch, net, tgt_net, gamma=0.99, device="cpu"):
    states, actions, rewards, dones, next_states = batch
    states_v = torch.tensor(states).to(device)
    next_states_v = torch.tensor(next_states).to(device)
    actions_v = torch.tensor(actions).to(device)
    rewards_v = torch.tensor(rewards).to(device)
    done_mask = torch.BoolTensor(dones).to(device)
    state_action_values = net(states_v).gather(1, actions_v.unsqueeze(-1)).squeeze(-1)  # fails-here
    with torch.no_grad():
        next_state_values = tgt_net(next_states_v).max(1)[0]
        next_state_values[done_mask] = 0.0
    expected = next_state_values * gamma + rewards_v
    return nn.MSELoss()(state_action_values, expected)


def make_net(obs=8, n_actions=6):
    return nn.Sequential(nn.Linear(obs, 64), nn.ReLU(), nn.Linear(64, n_actions))


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    net, tgt_net = make_net(), make_net()
    tgt_net.load_state_dict(net.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    buffer = ExperienceBuffer(1000)
    state = rng.standard_normal(8)
    for frame in range(120):
        action = int(rng.integers(6))
        new_state = rng.standard_normal(8)
        buffer.append(Experience(state, action, float(rng.random() < 0.1), frame % 40 == 39, new_state))
        state = new_state
        if len(buffer) >= 64:
            loss = calc_loss(buffer.sample(32), net, tgt_net)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"final loss {loss.item():.4f}")
