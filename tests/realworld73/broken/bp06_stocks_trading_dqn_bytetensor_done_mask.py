"""Deep-Reinforcement-Learning-Hands-On (1st edition) Chapter08-style stock-trading DQN (StocksEnv and State re-typed without gym over a synthetic relative-price series, SimpleFFDQN, a two-step ExperienceSourceFirstLast-like collector, the replay buffer, unpack_batch and the double-DQN calc_loss of lib/common.py): unpack_batch packs the done flags as np.uint8 and calc_loss wraps them with torch.ByteTensor, so next_state_values[done_mask] = 0.0 indexes with a uint8 mask, which PyTorch 1.3 only warned about and torch 2.13 refuses
source: https://github.com/PacktPublishing/Deep-Reinforcement-Learning-Hands-On/issues/62
reported-error: "/pytorch/aten/src/ATen/native/IndexingUtils.h:20: UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead." running the Chapter08 code with Pytorch 1.3.0 and Gym 0.15.4; the author: "This particular problem is trivial to fix by replacing ByteTensor with BoolTensor"
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char at line 186
root-cause: line 182
expect: DG004
"""
import collections
import copy
import enum

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(0)

Prices = collections.namedtuple("Prices", field_names=["open", "high", "low", "close", "volume"])
Experience = collections.namedtuple("ExperienceFirstLast", ("state", "action", "reward", "last_state"))
BATCH_SIZE, BARS_COUNT, TARGET_NET_SYNC, GAMMA = 32, 10, 100, 0.99
REPLAY_SIZE, REPLAY_INITIAL, REWARD_STEPS, LEARNING_RATE = 5000, 200, 2, 0.0001


def synthetic_relative_prices(n=600, seed=0):
    """A random-walk bar series converted like data.prices_to_relative (high/low/close relative to open)."""
    rng = np.random.default_rng(seed)
    open_ = 100.0 * np.exp(np.cumsum(rng.normal(0, 0.01, n)))
    close = open_ * (1 + rng.normal(0, 0.005, n))
    high = np.maximum(open_, close) * (1 + np.abs(rng.normal(0, 0.003, n)))
    low = np.minimum(open_, close) * (1 - np.abs(rng.normal(0, 0.003, n)))
    return Prices(open=open_, high=(high - open_) / open_, low=(low - open_) / open_, close=(close - open_) / open_,
                  volume=rng.integers(100, 1000, n).astype(np.float64))


class Actions(enum.Enum):
    Skip = 0
    Buy = 1
    Close = 2


class State:
    def __init__(self, bars_count, commission_perc, reset_on_close, reward_on_close=True, volumes=True):
        self.bars_count, self.commission_perc = bars_count, commission_perc
        self.reset_on_close, self.reward_on_close, self.volumes = reset_on_close, reward_on_close, volumes

    def reset(self, prices, offset):
        self.have_position, self.open_price = False, 0.0
        self._prices, self._offset = prices, offset

    @property
    def shape(self):
        return (4 * self.bars_count + 2,) if self.volumes else (3 * self.bars_count + 2,)

    def encode(self):
        res = np.ndarray(shape=self.shape, dtype=np.float32)
        shift = 0
        for bar_idx in range(-self.bars_count + 1, 1):
            for series in (self._prices.high, self._prices.low, self._prices.close) + ((self._prices.volume,) if self.volumes else ()):
                res[shift] = series[self._offset + bar_idx]
                shift += 1
        res[shift] = float(self.have_position)
        res[shift + 1] = 0.0 if not self.have_position else (self._cur_close() - self.open_price) / self.open_price
        return res

    def _cur_close(self):
        return self._prices.open[self._offset] * (1.0 + self._prices.close[self._offset])

    def step(self, action):
        reward, done = 0.0, False
        close = self._cur_close()
        if action == Actions.Buy and not self.have_position:
            self.have_position, self.open_price = True, close
            reward -= self.commission_perc
        elif action == Actions.Close and self.have_position:
            reward -= self.commission_perc
            done |= self.reset_on_close
            if self.reward_on_close:
                reward += 100.0 * (close - self.open_price) / self.open_price
            self.have_position, self.open_price = False, 0.0
        self._offset += 1
        prev_close, close = close, self._cur_close()
        done |= self._offset >= self._prices.close.shape[0] - 1
        if self.have_position and not self.reward_on_close:
            reward += 100.0 * (close - prev_close) / prev_close
        return reward, done


class StocksEnv:
    def __init__(self, prices, bars_count=BARS_COUNT, commission=0.1, reset_on_close=True, reward_on_close=False,
                 volumes=False, max_episode_steps=200):
        self._prices = prices
        self._state = State(bars_count, commission, reset_on_close, reward_on_close=reward_on_close, volumes=volumes)
        self.n_actions, self.obs_shape = len(Actions), self._state.shape
        self.np_random = np.random.default_rng(1)
        self.max_episode_steps = max_episode_steps

    def reset(self):
        self._instrument = self.np_random.choice(list(self._prices.keys()))
        prices = self._prices[self._instrument]
        bars = self._state.bars_count
        self._state.reset(prices, int(self.np_random.choice(prices.high.shape[0] - bars * 10)) + bars)
        self._t = 0
        return self._state.encode()

    def step(self, action_idx):
        reward, done = self._state.step(Actions(action_idx))
        self._t += 1
        return self._state.encode(), reward, done or self._t >= self.max_episode_steps, {}


class SimpleFFDQN(nn.Module):
    def __init__(self, obs_len, actions_n):
        super(SimpleFFDQN, self).__init__()
        self.fc_val = nn.Sequential(nn.Linear(obs_len, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
        self.fc_adv = nn.Sequential(nn.Linear(obs_len, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                    nn.Linear(128, actions_n))

    def forward(self, x):
        val, adv = self.fc_val(x), self.fc_adv(x)
        return val + adv - adv.mean(dim=1, keepdim=True)


class ExperienceSourceFirstLast:
    """n-step transitions (first state, action, discounted reward, last state or None at episode end)."""

    def __init__(self, env, net, gamma, steps_count):
        self.env, self.net, self.gamma, self.steps_count = env, net, gamma, steps_count
        self.epsilon = 1.0
        self.state, self.history, self.total_rewards, self.ep_reward = env.reset(), collections.deque(), [], 0.0

    def _transition(self, items, last_state):
        reward = 0.0
        for exp in reversed(items):
            reward = reward * self.gamma + exp[2]
        return Experience(items[0][0], items[0][1], reward, last_state)

    def step(self):
        if np.random.random() < self.epsilon:
            action = np.random.randint(self.env.n_actions)
        else:
            with torch.no_grad():
                action = int(self.net(torch.tensor(np.array([self.state]))).argmax(dim=1)[0])
        next_state, reward, done, _ = self.env.step(action)
        self.ep_reward += reward
        self.history.append((self.state, action, reward))
        out = []
        if done:
            while self.history:
                out.append(self._transition(list(self.history), None))
                self.history.popleft()
            self.total_rewards.append(self.ep_reward)
            self.state, self.ep_reward = self.env.reset(), 0.0
        else:
            if len(self.history) == self.steps_count:
                out.append(self._transition(list(self.history), next_state))
                self.history.popleft()
            self.state = next_state
        return out


def unpack_batch(batch):
    states, actions, rewards, dones, last_states = [], [], [], [], []
    for exp in batch:
        state = np.asarray(exp.state)
        states.append(state)
        actions.append(exp.action)
        rewards.append(exp.reward)
        dones.append(exp.last_state is None)
        last_states.append(state if exp.last_state is None else np.asarray(exp.last_state))
    return np.array(states), np.array(actions), np.array(rewards, dtype=np.float32), \
        np.array(dones, dtype=np.uint8), np.array(last_states)  # root-cause-alt


def calc_loss(batch, net, tgt_net, gamma, device="cpu"):
    states, actions, rewards, dones, next_states = unpack_batch(batch)
    states_v = torch.tensor(states).to(device)
    next_states_v = torch.tensor(next_states).to(device)
    actions_v = torch.tensor(actions).to(device)
    rewards_v = torch.tensor(rewards).to(device)
    done_mask = torch.ByteTensor(dones).to(device)  # root-cause
    state_action_values = net(states_v).gather(1, actions_v.unsqueeze(-1)).squeeze(-1)
    next_state_actions = net(next_states_v).max(1)[1]
    next_state_values = tgt_net(next_states_v).gather(1, next_state_actions.unsqueeze(-1)).squeeze(-1)
    next_state_values[done_mask] = 0.0  # fails-here
    expected_state_action_values = next_state_values.detach() * gamma + rewards_v
    return nn.MSELoss()(state_action_values, expected_state_action_values)


device = torch.device("cpu")
env = StocksEnv({"SYNTH": synthetic_relative_prices()}, bars_count=BARS_COUNT, reset_on_close=True, volumes=False)
net = SimpleFFDQN(env.obs_shape[0], env.n_actions).to(device)
tgt_net = copy.deepcopy(net)
exp_source = ExperienceSourceFirstLast(env, net, GAMMA, steps_count=REWARD_STEPS)
buffer = collections.deque(maxlen=REPLAY_SIZE)
optimizer = optim.Adam(net.parameters(), lr=LEARNING_RATE)
for step_idx in range(1, 800):
    buffer.extend(exp_source.step())
    exp_source.epsilon = max(0.1, 1.0 - step_idx / 2000)
    if len(buffer) < REPLAY_INITIAL:
        continue
    optimizer.zero_grad()
    batch = [buffer[i] for i in np.random.choice(len(buffer), BATCH_SIZE, replace=False)]
    loss_v = calc_loss(batch, net, tgt_net, GAMMA ** REWARD_STEPS, device=device)
    loss_v.backward()
    optimizer.step()
    if step_idx % TARGET_NET_SYNC == 0:
        tgt_net.load_state_dict(net.state_dict())
        print(f"step {step_idx}: loss {loss_v.item():.4f}, episodes {len(exp_source.total_rewards)}, "
              f"mean reward {np.mean(exp_source.total_rewards[-10:]) if exp_source.total_rewards else 0.0:.3f}")
