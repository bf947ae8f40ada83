"""Training a distributional RAINBOW agent (machin's RAINBOW, re-typed) on a numpy pendulum simulation with discrete torques (iffiX/machin #4): the environment returns float32 observations but computes its reward with numpy, so every reward is an np.float64 scalar; store_episode sums them into the n-step "value", the replay buffer turns the sampled values into a tensor with t.tensor(list), which keeps float64, and the categorical projection's weights become float64 while target_dist is made with the default float32, so index_add_ refuses them
source: https://github.com/iffiX/machin/issues/4
reported-error: "index_add_(): self and source must have the same scalar type" while training DQN rainbow, raised when the weights are updated (the reporter's states were float32); fixed by the maintainer in "fix dtype support in RAINBOW" (target_dist = t.zeros(..., dtype=l_weight.dtype))
outcome: RuntimeError: index_add_(): self (Float) and source (Double) must have the same scalar type at line 127
root-cause: line 126
expect: DG004
"""
import os
import random
import tempfile

import numpy as np
import torch as t
import torch.nn as nn

t.manual_seed(0)
np.random.seed(0)
random.seed(0)
out_dir = tempfile.mkdtemp()


class PendulumEnv:
    """Swing-up pendulum integrated with numpy; 5 discrete torques."""

    torques = np.linspace(-2.0, 2.0, 5)

    def reset(self):
        self.th, self.thdot, self.steps = np.random.uniform(-np.pi, np.pi), np.random.uniform(-1, 1), 0
        return self._obs()

    def _obs(self):
        return np.array([np.cos(self.th), np.sin(self.th), self.thdot], dtype=np.float32)

    def step(self, action):
        u = self.torques[action]
        th_norm = ((self.th + np.pi) % (2 * np.pi)) - np.pi
        reward = -(th_norm ** 2 + 0.1 * self.thdot ** 2 + 0.001 * u ** 2) / 10.0  # np.float64
        self.thdot = np.clip(self.thdot + (3 * 10.0 / 2 * np.sin(self.th) + 3.0 * u) * 0.05, -8, 8)
        self.th = self.th + self.thdot * 0.05
        self.steps += 1
        return self._obs(), reward, self.steps >= 100


class QNet(nn.Module):
    def __init__(self, state_dim, action_num, atom_num):
        super().__init__()
        self.action_num, self.atom_num = action_num, atom_num
        self.body = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, action_num * atom_num)

    def forward(self, state):
        return t.softmax(self.head(self.body(state)).view(-1, self.action_num, self.atom_num), dim=-1)


class Buffer:
    """machin's Buffer.sample_batch with concatenation: tensors are cat'ed, scalars go through t.tensor."""

    def __init__(self, size):
        self.size, self.storage = size, []

    def append(self, transition):
        self.storage.append(transition)
        self.storage = self.storage[-self.size:]

    def sample_batch(self, batch_size, attrs):
        batch = random.sample(self.storage, batch_size)
        out = []
        for attr in attrs:
            items = [trans[attr] for trans in batch]
            if t.is_tensor(items[0]):
                out.append(t.cat(items, dim=0))
            else:
                out.append(t.tensor(items).view(batch_size, -1))  # root-cause-alt
        return batch_size, out


class RAINBOW:
    def __init__(self, qnet, qnet_target, v_min, v_max, reward_future_steps=3, discount=0.99, batch_size=32):
        self.qnet, self.qnet_target = qnet, qnet_target
        self.optim = t.optim.Adam(qnet.parameters(), lr=1e-3)
        self.v_min, self.v_max = v_min, v_max
        self.reward_future_steps, self.discount, self.batch_size = reward_future_steps, discount, batch_size
        self.replay_buffer = Buffer(10000)

    def act_discrete(self, state, use_target=False):
        q_dist = (self.qnet_target if use_target else self.qnet)(state)
        support = t.linspace(self.v_min, self.v_max, q_dist.shape[-1]).view(1, -1)
        return t.argmax(t.sum(support * q_dist, dim=-1), dim=1).view(-1, 1)

    def store_episode(self, episode):
        episode[-1]["value"] = episode[-1]["reward"]
        for i in reversed(range(len(episode))):
            value_sum = 0
            for j in reversed(range(min(self.reward_future_steps, len(episode) - i))):
                value_sum = value_sum * self.discount + episode[i + j]["reward"]
            episode[i]["value"] = value_sum
        for trans in episode:
            self.replay_buffer.append(trans)

    @staticmethod
    def reward_function(reward, discount, next_value, terminal):
        return reward + discount * ~terminal * next_value

    def update(self):
        batch_size, (state, action, value, next_state, terminal) = self.replay_buffer.sample_batch(
            self.batch_size, ["state", "action", "value", "next_state", "terminal"])
        q_dist = self.qnet(state)
        atom_num = q_dist.shape[-1]
        q_dist = q_dist[range(batch_size), action.flatten()]
        q_dist_support = t.linspace(self.v_min, self.v_max, atom_num)
        with t.no_grad():
            target_next_q_dist = self.qnet_target(next_state)
            next_action = self.act_discrete(next_state, True).flatten()
            target_next_q_dist = target_next_q_dist[range(batch_size), next_action]
            q_dist_support = q_dist_support.unsqueeze(dim=0)
            T_z = self.reward_function(value, self.discount ** self.reward_future_steps, q_dist_support, terminal)
            T_z = T_z.clamp(self.v_min + 1e-6, self.v_max - 1e-6)
            delta_z = (self.v_max - self.v_min) / (atom_num - 1.0)
            b = (T_z - self.v_min) / delta_z
            l, u = b.floor(), b.ceil()
            l_idx, l_dist = l.long().view(-1), b - l
            u_idx, u_dist = u.long().view(-1), u - b
            l_weight = (u_dist * target_next_q_dist).view(-1)
            u_weight = (l_dist * target_next_q_dist).view(-1)
            offset = t.arange(0, batch_size * atom_num, atom_num).view(-1, 1).expand(batch_size, atom_num).flatten()
            target_dist = t.zeros([batch_size * atom_num])  # root-cause
            target_dist.index_add_(dim=0, index=l_idx + offset, source=l_weight)  # fails-here
            target_dist.index_add_(dim=0, index=u_idx + offset, source=u_weight)
            target_dist = target_dist.view(batch_size, atom_num)
        value_loss = -(target_dist * (q_dist + 1e-6).log()).sum(dim=1).mean()
        self.optim.zero_grad()
        value_loss.backward()
        nn.utils.clip_grad_norm_(self.qnet.parameters(), 10.0)
        self.optim.step()
        for tp, p in zip(self.qnet_target.parameters(), self.qnet.parameters()):
            tp.data.mul_(0.995).add_(p.data, alpha=0.005)
        return value_loss.item()


env = PendulumEnv()
rainbow = RAINBOW(QNet(3, 5, 51), QNet(3, 5, 51), v_min=-20.0, v_max=0.0)
rainbow.qnet_target.load_state_dict(rainbow.qnet.state_dict())

for episode_idx in range(6):
    state = t.tensor(env.reset()).view(1, 3)
    episode, total_reward, done = [], 0.0, False
    while not done:
        with t.no_grad():
            action = rainbow.act_discrete(state) if random.random() > 0.2 else t.tensor([[random.randrange(5)]])
        obs, reward, done = env.step(action.item())
        next_state = t.tensor(obs).view(1, 3)
        episode.append({"state": state, "action": action, "next_state": next_state, "reward": reward,
                        "terminal": done})
        total_reward += reward
        state = next_state
    rainbow.store_episode(episode)
    if episode_idx >= 1:
        losses = [rainbow.update() for _ in range(20)]
        print(f"episode {episode_idx} reward {total_reward:.2f} loss {np.mean(losses):.4f}")

t.save(rainbow.qnet.state_dict(), os.path.join(out_dir, "rainbow_pendulum.pt"))
