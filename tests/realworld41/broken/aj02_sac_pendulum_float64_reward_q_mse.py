"""Soft actor-critic on Pendulum (sweetice/Deep-reinforcement-learning-with-pytorch, Char09 SAC/SAC.py: a list-of-namedtuples replay buffer, Actor / Critic / Q networks, SAC.update() rebuilding s, a, r, s_, d tensors from the whole buffer with torch.tensor([...]) and three nn.MSELoss criteria), SAC issue #38: the states and dones get .float() but the rewards do not, and Pendulum's reward -costs is a NumPy float64 scalar, so r and next_q_value are float64 and the Q loss is computed in float64 (old torch raised "Found dtype Double but expected Float" in Q_loss.backward; current torch promotes silently)
source: https://github.com/sweetice/Deep-reinforcement-learning-with-pytorch/issues/38
reported-error: RuntimeError: Found dtype Double but expected Float (raised by Q_loss.backward(retain_graph = True) in SAC.update; the reporter's fix: .float() on next_q_value in the Q criterion)
outcome: ok (silent: r = torch.tensor([t.r for t in self.replay_buffer]) is float64, so next_q_value = bn_r + (1 - bn_d) * args.gamma * target_value is float64 and self.Q_criterion(excepted_Q, next_q_value.detach()) at line 238 returns a float64 MSE loss; printed as "Q_loss dtype torch.float64"; no exception)
root-cause: line 210
expect: DG008
"""
import argparse
import os
import tempfile
from collections import namedtuple

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Normal

device = "cuda" if torch.cuda.is_available() else "cpu"

parser = argparse.ArgumentParser()
parser.add_argument("--env_name", default="Pendulum-v0")
parser.add_argument("--tau", default=0.005, type=float)  # target smoothing coefficient
parser.add_argument("--target_update_interval", default=1, type=int)
parser.add_argument("--gradient_steps", default=1, type=int)
parser.add_argument("--learning_rate", default=3e-4, type=float)
parser.add_argument("--gamma", default=0.99, type=float)  # discount gamma
parser.add_argument("--capacity", default=360, type=int)  # replay buffer size
parser.add_argument("--iteration", default=2, type=int)  # num of games
parser.add_argument("--batch_size", default=128, type=int)  # mini batch size
parser.add_argument("--seed", default=1, type=int)
parser.add_argument("--render", default=False, type=bool)
parser.add_argument("--log_interval", default=2000, type=int)
parser.add_argument("--load", default=False, type=bool)
args = parser.parse_args()


# ---- gym/envs/classic_control/pendulum.py (reduced; the 2019-2021 gym code the script ran on)
def angle_normalize(x):
    return ((x + np.pi) % (2 * np.pi)) - np.pi


class PendulumEnv:
    def __init__(self, g=10.0, seed=0):
        self.max_speed, self.max_torque, self.dt = 8, 2.0, 0.05
        self.g, self.m, self.l = g, 1.0, 1.0
        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.observation_space = namedtuple("Box", "low high shape")(-high, high, (3,))
        self.action_space = namedtuple("Box", "low high shape")(np.array([-2.0], np.float32),
                                                                 np.array([2.0], np.float32), (1,))
        self.np_random = np.random.RandomState(seed)

    def step(self, u):
        th, thdot = self.state
        u = np.clip(u, -self.max_torque, self.max_torque)[0]
        costs = angle_normalize(th) ** 2 + .1 * thdot ** 2 + .001 * (u ** 2)
        newthdot = thdot + (-3 * self.g / (2 * self.l) * np.sin(th + np.pi) + 3. / (self.m * self.l ** 2) * u) * self.dt
        newth = th + newthdot * self.dt
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        self.state = np.array([newth, newthdot])
        return self._get_obs(), -costs, False, {}

    def reset(self):
        high = np.array([np.pi, 1])
        self.state = self.np_random.uniform(low=-high, high=high)
        return self._get_obs()

    def _get_obs(self):
        theta, thetadot = self.state
        return np.array([np.cos(theta), np.sin(theta), thetadot], dtype=np.float32)


class NormalizedActions:
    def __init__(self, env):
        self.env = env
        self.action_space, self.observation_space = env.action_space, env.observation_space

    def action(self, action):
        low, high = self.action_space.low, self.action_space.high
        action = low + (action + 1.0) * 0.5 * (high - low)
        return np.clip(action, low, high)

    def step(self, action):
        return self.env.step(self.action(action))

    def reset(self):
        return self.env.reset()


env = NormalizedActions(PendulumEnv(seed=args.seed))

# Set seeds
torch.manual_seed(args.seed)
np.random.seed(args.seed)

state_dim = env.observation_space.shape[0]
action_dim = env.action_space.shape[0]
max_action = float(env.action_space.high[0])
min_Val = torch.tensor(1e-7).float().to(device)
Transition = namedtuple("Transition", ["s", "a", "r", "s_", "d"])


class Actor(nn.Module):
    def __init__(self, state_dim, min_log_std=-20, max_log_std=2):
        super(Actor, self).__init__()
        self.fc1 = nn.Linear(state_dim, 256)
        self.fc2 = nn.Linear(256, 256)
        self.mu_head = nn.Linear(256, 1)
        self.log_std_head = nn.Linear(256, 1)
        self.max_action = max_action
        self.min_log_std = min_log_std
        self.max_log_std = max_log_std

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        mu = self.mu_head(x)
        log_std_head = F.relu(self.log_std_head(x))
        log_std_head = torch.clamp(log_std_head, self.min_log_std, self.max_log_std)
        return mu, log_std_head


class Critic(nn.Module):
    def __init__(self, state_dim):
        super(Critic, self).__init__()
        self.fc1 = nn.Linear(state_dim, 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc3 = nn.Linear(256, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class Q(nn.Module):
    def __init__(self, state_dim, action_dim):
        super(Q, self).__init__()
        self.state_dim, self.action_dim = state_dim, action_dim
        self.fc1 = nn.Linear(state_dim + action_dim, 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc3 = nn.Linear(256, 1)

    def forward(self, s, a):
        s = s.reshape(-1, self.state_dim)
        a = a.reshape(-1, self.action_dim)
        x = torch.cat((s, a), -1)  # combination s and a
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class SAC():
    def __init__(self):
        super(SAC, self).__init__()

        self.policy_net = Actor(state_dim).to(device)
        self.value_net = Critic(state_dim).to(device)
        self.Q_net = Q(state_dim, action_dim).to(device)
        self.Target_value_net = Critic(state_dim).to(device)

        self.replay_buffer = [Transition] * args.capacity
        self.policy_optimizer = optim.Adam(self.policy_net.parameters(), lr=args.learning_rate)
        self.value_optimizer = optim.Adam(self.value_net.parameters(), lr=args.learning_rate)
        self.Q_optimizer = optim.Adam(self.Q_net.parameters(), lr=args.learning_rate)
        self.num_transition = 0  # pointer of replay buffer
        self.num_training = 1
        self.scalars = {}  # stands in for the tensorboardX SummaryWriter of the original

        self.value_criterion = nn.MSELoss()
        self.Q_criterion = nn.MSELoss()

        for target_param, param in zip(self.Target_value_net.parameters(), self.value_net.parameters()):
            target_param.data.copy_(param.data)

        self.model_dir = os.path.join(tempfile.mkdtemp(), "SAC_model")
        os.makedirs(self.model_dir, exist_ok=True)

    def select_action(self, state):
        state = torch.FloatTensor(state).to(device)
        mu, log_sigma = self.policy_net(state)
        sigma = torch.exp(log_sigma)
        dist = Normal(mu, sigma)
        z = dist.sample()
        action = torch.tanh(z).detach().cpu().numpy()
        return action  # return a scalar, float32

    def store(self, s, a, r, s_, d):
        index = self.num_transition % args.capacity
        transition = Transition(s, a, r, s_, d)
        self.replay_buffer[index] = transition
        self.num_transition += 1

    def get_action_log_prob(self, state):
        batch_mu, batch_log_sigma = self.policy_net(state)
        batch_sigma = torch.exp(batch_log_sigma)
        dist = Normal(batch_mu, batch_sigma)
        z = dist.sample()
        action = torch.tanh(z)
        log_prob = dist.log_prob(z) - torch.log(1 - action.pow(2) + min_Val)
        return action, log_prob, z, batch_mu, batch_log_sigma

    def update(self):
        if self.num_training % 500 == 0:
            print("Training ... {} ".format(self.num_training))
        s = torch.tensor(np.array([t.s for t in self.replay_buffer])).float().to(device)
        a = torch.tensor(np.array([t.a for t in self.replay_buffer])).to(device)
        r = torch.tensor([t.r for t in self.replay_buffer]).to(device)  # root-cause
        s_ = torch.tensor(np.array([t.s_ for t in self.replay_buffer])).float().to(device)
        d = torch.tensor([t.d for t in self.replay_buffer]).float().to(device)

        for _ in range(args.gradient_steps):
            index = np.random.choice(range(args.capacity), args.batch_size, replace=False)
            bn_s = s[index]
            bn_a = a[index].reshape(-1, 1)
            bn_r = r[index].reshape(-1, 1)
            bn_s_ = s_[index]
            bn_d = d[index].reshape(-1, 1)

            target_value = self.Target_value_net(bn_s_)
            next_q_value = bn_r + (1 - bn_d) * args.gamma * target_value

            excepted_value = self.value_net(bn_s)
            excepted_Q = self.Q_net(bn_s, bn_a)

            sample_action, log_prob, z, batch_mu, batch_log_sigma = self.get_action_log_prob(bn_s)
            excepted_new_Q = self.Q_net(bn_s, sample_action)
            next_value = excepted_new_Q - log_prob

            # !!!Note that the actions are sampled according to the current policy,
            # instead of replay buffer. (From original paper)
            V_loss = self.value_criterion(excepted_value, next_value.detach())  # J_V
            V_loss = V_loss.mean()

            # Single Q_net this is different from original paper!!!
            Q_loss = self.Q_criterion(excepted_Q, next_q_value.detach())  # J_Q  # fails-here
            Q_loss = Q_loss.mean()

            log_policy_target = excepted_new_Q - excepted_value
            pi_loss = log_prob * (log_prob - log_policy_target).detach()
            pi_loss = pi_loss.mean()

            self.scalars["Loss/V_loss"] = V_loss
            self.scalars["Loss/Q_loss"] = Q_loss
            self.scalars["Loss/pi_loss"] = pi_loss

            # mini batch gradient descent
            self.value_optimizer.zero_grad()
            V_loss.backward(retain_graph=True)
            nn.utils.clip_grad_norm_(self.value_net.parameters(), 0.5)
            self.value_optimizer.step()

            self.Q_optimizer.zero_grad()
            Q_loss.backward(retain_graph=True)
            nn.utils.clip_grad_norm_(self.Q_net.parameters(), 0.5)
            self.Q_optimizer.step()

            self.policy_optimizer.zero_grad()
            pi_loss.backward(retain_graph=True)
            nn.utils.clip_grad_norm_(self.policy_net.parameters(), 0.5)
            self.policy_optimizer.step()

            # soft update
            for target_param, param in zip(self.Target_value_net.parameters(), self.value_net.parameters()):
                target_param.data.copy_(target_param * (1 - args.tau) + param * args.tau)

            self.num_training += 1

    def save(self):
        torch.save(self.policy_net.state_dict(), os.path.join(self.model_dir, "policy_net.pth"))
        torch.save(self.value_net.state_dict(), os.path.join(self.model_dir, "value_net.pth"))
        torch.save(self.Q_net.state_dict(), os.path.join(self.model_dir, "Q_net.pth"))
        print("====================================")
        print("Model has been saved...")
        print("====================================")


def main():
    agent = SAC()
    print("====================================")
    print("Collection Experience...")
    print("====================================")

    ep_r = 0
    for i in range(args.iteration):
        state = env.reset()
        for t in range(200):
            action = agent.select_action(state)
            next_state, reward, done, info = env.step(np.float32(action))
            ep_r += reward
            agent.store(state, action, reward, next_state, done)

            if agent.num_transition >= args.capacity:
                agent.update()

            state = next_state
            if done or t == 199:
                print("Ep_i {}, the ep_r is {:.2f}, the t is {}".format(i, ep_r, t))
                break
        ep_r = 0
    agent.save()
    Q_loss = agent.scalars["Loss/Q_loss"]
    print("last Q_loss {:.4f}, Q_loss dtype {}".format(Q_loss.item(), Q_loss.dtype))


if __name__ == "__main__":
    main()
