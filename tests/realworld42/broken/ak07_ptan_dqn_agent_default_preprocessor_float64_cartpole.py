"""Deep Q-learning on CartPole with the ptan library (Shmuma/ptan: ptan.actions' epsilon-greedy selector, ptan.agent.DQNAgent with its default_states_preprocessor and TargetNet, ptan.experience's ExperienceSourceFirstLast and ExperienceReplayBuffer) and the user's training script in the shape of Deep-Reinforcement-Learning-Hands-On's Chapter 11 01_cartpole_dqn.py (net, unpack_batch, the training loop), ptan pull request #28: the agent is built without a preprocessor, so DQNAgent uses default_states_preprocessor, which turns the float64 observations of the gym CartPole into a float64 tensor with torch.as_tensor, and the float32 Q-network fails at the first step of the experience source
source: https://github.com/Shmuma/ptan/pull/28
reported-error: RuntimeError: Expected object of type torch.FloatTensor but found type torch.DoubleTensor for argument #4 'mat1' (the pull request casts the states to float in the agent; the maintainer's answer: Gym environments may return float64 observations, pass preprocessor=ptan.agent.float32_preprocessor to the agent as Chapter11/01_cartpole_dqn.py does)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 234
root-cause: line 128
expect: DG004
"""
import argparse
import collections
import copy
import math
import typing as tt

import numpy as np

import torch
import torch.nn as nn
import torch.optim as optim


# ---- gym/envs/classic_control/cartpole.py (reduced; the 2019-2020 gym whose CartPole returned np.array(self.state), float64)
class Discrete:
    def __init__(self, n, rng):
        self.n = n
        self.rng = rng

    def sample(self):
        return int(self.rng.integers(self.n))


class Box:
    def __init__(self, low, high):
        self.low, self.high = low, high
        self.shape = low.shape


class CartPoleEnv:
    def __init__(self, seed=0):
        self.gravity, self.masscart, self.masspole = 9.8, 1.0, 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag, self.tau = 10.0, 0.02
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        high = np.array([self.x_threshold * 2, np.finfo(np.float32).max, self.theta_threshold_radians * 2,
                         np.finfo(np.float32).max], dtype=np.float32)
        self.np_random = np.random.default_rng(seed)
        self.action_space = Discrete(2, self.np_random)
        self.observation_space = Box(-high, high)
        self.state = None
        self.steps = 0

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta, sintheta = math.cos(theta), math.sin(theta)
        temp = (force + self.polemass_length * theta_dot ** 2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta ** 2 / self.total_mass))
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc
        self.state = (x, x_dot, theta, theta_dot)
        self.steps += 1
        done = bool(x < -self.x_threshold or x > self.x_threshold or theta < -self.theta_threshold_radians
                    or theta > self.theta_threshold_radians or self.steps >= 200)
        return np.array(self.state), 1.0, done, {}

    def reset(self):
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))
        self.steps = 0
        return np.array(self.state)



# ---- ptan/actions.py (reduced)
class ActionSelector:
    def __call__(self, scores):
        raise NotImplementedError


class ArgmaxActionSelector(ActionSelector):
    def __call__(self, scores):
        assert isinstance(scores, np.ndarray)
        return np.argmax(scores, axis=1)


class EpsilonGreedyActionSelector(ActionSelector):
    def __init__(self, epsilon=0.05, selector=None):
        self.epsilon = epsilon
        self.selector = selector if selector is not None else ArgmaxActionSelector()

    def __call__(self, scores):
        assert isinstance(scores, np.ndarray)
        batch_size, n_actions = scores.shape
        actions = self.selector(scores)
        mask = np.random.random(size=batch_size) < self.epsilon
        rand_actions = np.random.choice(n_actions, sum(mask))
        actions[mask] = rand_actions
        return actions


class EpsilonTracker:
    def __init__(self, selector, eps_start, eps_final, eps_frames):
        self.selector, self.eps_start, self.eps_final, self.eps_frames = selector, eps_start, eps_final, eps_frames
        self.frame(0)

    def frame(self, frame):
        eps = self.eps_start - frame / self.eps_frames
        self.selector.epsilon = max(self.eps_final, eps)


# ---- ptan/agent.py (reduced)
CPU_DEVICE = torch.device("cpu")


def default_states_preprocessor(states):
    if isinstance(states, list):
        if len(states) == 1:
            np_states = np.expand_dims(states[0], 0)
        else:
            np_states = np.asarray([np.asarray(s) for s in states])
    else:
        np_states = states
    return torch.as_tensor(np_states)  # root-cause


def float32_preprocessor(states):
    np_states = np.array(states, dtype=np.float32)
    return torch.as_tensor(np_states)


class DQNAgent:
    def __init__(self, model, action_selector, device=CPU_DEVICE, preprocessor=default_states_preprocessor):
        self.model = model
        self.action_selector = action_selector
        self.device = device
        self.preprocessor = preprocessor

    @torch.no_grad()
    def __call__(self, states, agent_states=None):
        if agent_states is None:
            agent_states = [None] * len(states)
        if self.preprocessor is not None:
            states = self.preprocessor(states)
            if torch.is_tensor(states):
                states = states.to(self.device)
        q_v = self.model(states)
        q = q_v.data.cpu().numpy()
        actions = self.action_selector(q)
        return actions, agent_states


class TargetNet:
    def __init__(self, model):
        self.model = model
        self.target_model = copy.deepcopy(model)

    def sync(self):
        self.target_model.load_state_dict(self.model.state_dict())


# ---- ptan/experience.py (reduced: one environment, steps_count=1)
ExperienceFirstLast = collections.namedtuple("ExperienceFirstLast", ("state", "action", "reward", "last_state"))


class ExperienceSourceFirstLast:
    def __init__(self, env, agent, gamma, steps_count=1):
        self.env, self.agent, self.gamma = env, agent, gamma
        self.total_rewards, self.cur_reward = [], 0.0

    def __iter__(self):
        state = self.env.reset()
        while True:
            actions, _ = self.agent([state])
            action = int(actions[0])
            next_state, reward, done, _ = self.env.step(action)
            self.cur_reward += reward
            yield ExperienceFirstLast(state=state, action=action, reward=reward,
                                      last_state=None if done else next_state)
            if done:
                self.total_rewards.append(self.cur_reward)
                self.cur_reward = 0.0
                state = self.env.reset()
            else:
                state = next_state

    def pop_total_rewards(self):
        r, self.total_rewards = self.total_rewards, []
        return r


class ExperienceReplayBuffer:
    def __init__(self, experience_source, buffer_size):
        self.experience_source_iter = iter(experience_source)
        self.buffer, self.capacity, self.pos = [], buffer_size, 0

    def __len__(self):
        return len(self.buffer)

    def sample(self, batch_size):
        keys = np.random.choice(len(self.buffer), batch_size, replace=True)
        return [self.buffer[key] for key in keys]

    def populate(self, samples):
        for _ in range(samples):
            entry = next(self.experience_source_iter)
            if len(self.buffer) < self.capacity:
                self.buffer.append(entry)
            else:
                self.buffer[self.pos] = entry
                self.pos = (self.pos + 1) % self.capacity


# ---- the user's 01_cartpole_dqn.py (Chapter 11 shape, the agent built without a preprocessor)
HIDDEN_SIZE = 128
BATCH_SIZE = 16
TGT_NET_SYNC = 10
GAMMA = 0.9
REPLAY_SIZE = 1000
LR = 1e-3
EPS_DECAY = 0.99


class Net(nn.Module):
    def __init__(self, obs_size, hidden_size, n_actions):
        super(Net, self).__init__()
        self.net = nn.Sequential(nn.Linear(obs_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, n_actions))

    def forward(self, x):
        return self.net(x)  # fails-here


@torch.no_grad()
def unpack_batch(batch, net, gamma):
    states, actions, rewards, done_masks, last_states = [], [], [], [], []
    for exp in batch:
        states.append(exp.state)
        actions.append(exp.action)
        rewards.append(exp.reward)
        done_masks.append(exp.last_state is None)
        last_states.append(exp.state if exp.last_state is None else exp.last_state)
    states_v = float32_preprocessor(states)
    actions_v = torch.tensor(actions)
    rewards_v = torch.tensor(np.array(rewards, dtype=np.float32))
    last_states_v = float32_preprocessor(last_states)
    last_state_q_v = net(last_states_v)
    best_last_q_v = torch.max(last_state_q_v, dim=1)[0]
    best_last_q_v[torch.tensor(done_masks)] = 0.0
    return states_v, actions_v, best_last_q_v * gamma + rewards_v


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-iters", type=int, default=600)
    args = parser.parse_args([])
    np.random.seed(0)
    torch.manual_seed(0)
    env = CartPoleEnv(seed=0)
    obs_size = env.observation_space.shape[0]
    n_actions = env.action_space.n

    net = Net(obs_size, HIDDEN_SIZE, n_actions)
    tgt_net = TargetNet(net)
    selector = ArgmaxActionSelector()
    selector = EpsilonGreedyActionSelector(epsilon=1, selector=selector)
    agent = DQNAgent(net, selector)
    exp_source = ExperienceSourceFirstLast(env, agent, gamma=GAMMA)
    buffer = ExperienceReplayBuffer(exp_source, buffer_size=REPLAY_SIZE)
    optimizer = optim.Adam(net.parameters(), LR)

    step = 0
    episode = 0
    solved = False
    while step < args.max_iters:
        step += 1
        buffer.populate(1)
        for reward in exp_source.pop_total_rewards():
            episode += 1
            print("%d: episode %d done, reward=%.3f, epsilon=%.2f" % (step, episode, reward, selector.epsilon))
            solved = reward > 150
        if solved:
            print("Congrats!")
            break
        if len(buffer) < 2 * BATCH_SIZE:
            continue
        batch = buffer.sample(BATCH_SIZE)
        states_v, actions_v, tgt_q_v = unpack_batch(batch, tgt_net.target_model, GAMMA)
        optimizer.zero_grad()
        q_v = net(states_v)
        q_v = q_v.gather(1, actions_v.unsqueeze(-1)).squeeze(-1)
        loss_v = nn.functional.mse_loss(q_v, tgt_q_v)
        loss_v.backward()
        optimizer.step()
        selector.epsilon *= EPS_DECAY
        if step % TGT_NET_SYNC == 0:
            tgt_net.sync()
