"""DQN on CartPole (seungeunrho/minimalRL dqn.py: ReplayBuffer.sample builds the batch with torch.tensor(...) per field, Qnet with sample_action, train() does q_out.gather, the max over q_target and F.smooth_l1_loss(q_a, target)) with the common CartPole reward shaping from the observation (a cart near the centre and a pole near upright earn more), computed on the float64 observations of an older gym CartPole: the shaped rewards are NumPy float64 scalars, ReplayBuffer.sample turns them into a float64 tensor with torch.tensor(r_lst), the TD target becomes float64 and smooth_l1_loss silently computes the loss in float64
source: https://github.com/seungeunrho/minimalRL/blob/c8efed8481e3cd40e9739cfde220a55522555b57/dqn.py
reported-error: (none filed; upstream stores r/100.0 of gym's Python-float reward, which torch.tensor makes float32; the variant stores a shaped reward computed from the float64 observation)
outcome: ok (silent: r is float64, so target = r + gamma * max_q_prime * done_mask is float64 and F.smooth_l1_loss(q_a, target) at line 122 returns a float64 loss; printed as "loss dtype torch.float64"; no exception)
root-cause: line 85
expect: DG008
"""
import collections
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


# ---- gym's CartPole-v1 (a NumPy copy of its dynamics; older gym returned the float64 state as the observation)
class CartPoleEnv:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    theta_threshold_radians = 12 * 2 * math.pi / 360
    x_threshold = 2.4

    def __init__(self, seed=0):
        self.np_random = np.random.RandomState(seed)
        self.total_mass = self.masspole + self.masscart
        self.polemass_length = self.masspole * self.length

    def reset(self):
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))
        self.steps = 0
        return np.array(self.state), {}

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
        self.state = np.array([x, x_dot, theta, theta_dot])
        self.steps += 1
        done = bool(x < -self.x_threshold or x > self.x_threshold
                    or theta < -self.theta_threshold_radians or theta > self.theta_threshold_radians)
        truncated = self.steps >= 200
        return np.array(self.state), 1.0, done or truncated, truncated, {}

    def close(self):
        pass


# Hyperparameters
learning_rate = 0.0005
gamma = 0.98
buffer_limit = 50000
batch_size = 32


class ReplayBuffer():
    def __init__(self):
        self.buffer = collections.deque(maxlen=buffer_limit)

    def put(self, transition):
        self.buffer.append(transition)

    def sample(self, n):
        mini_batch = random.sample(self.buffer, n)
        s_lst, a_lst, r_lst, s_prime_lst, done_mask_lst = [], [], [], [], []

        for transition in mini_batch:
            s, a, r, s_prime, done_mask = transition
            s_lst.append(s)
            a_lst.append([a])
            r_lst.append([r])
            s_prime_lst.append(s_prime)
            done_mask_lst.append([done_mask])

        return (torch.tensor(s_lst, dtype=torch.float), torch.tensor(a_lst),
                torch.tensor(r_lst), torch.tensor(s_prime_lst, dtype=torch.float),  # root-cause
                torch.tensor(done_mask_lst))

    def size(self):
        return len(self.buffer)


class Qnet(nn.Module):
    def __init__(self):
        super(Qnet, self).__init__()
        self.fc1 = nn.Linear(4, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 2)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

    def sample_action(self, obs, epsilon):
        out = self.forward(obs)
        coin = random.random()
        if coin < epsilon:
            return random.randint(0, 1)
        else:
            return out.argmax().item()


def train(q, q_target, memory, optimizer):
    for i in range(10):
        s, a, r, s_prime, done_mask = memory.sample(batch_size)

        q_out = q(s)
        q_a = q_out.gather(1, a)
        max_q_prime = q_target(s_prime).max(1)[0].unsqueeze(1)
        target = r + gamma * max_q_prime * done_mask
        loss = F.smooth_l1_loss(q_a, target)  # fails-here

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss


def shaped_reward(env, s_prime):
    # reward shaping used with CartPole DQNs: the closer to the centre and to upright, the more reward
    x, x_dot, theta, theta_dot = s_prime
    r1 = (env.x_threshold - abs(x)) / env.x_threshold - 0.8
    r2 = (env.theta_threshold_radians - abs(theta)) / env.theta_threshold_radians - 0.5
    return r1 + r2


def main():
    random.seed(0)
    torch.manual_seed(0)
    env = CartPoleEnv()
    q = Qnet()
    q_target = Qnet()
    q_target.load_state_dict(q.state_dict())
    memory = ReplayBuffer()

    print_interval = 20
    score = 0.0
    optimizer = optim.Adam(q.parameters(), lr=learning_rate)

    for n_epi in range(24):
        epsilon = max(0.01, 0.08 - 0.01 * (n_epi / 200))  # Linear annealing from 8% to 1%
        s, _ = env.reset()
        done = False

        while not done:
            a = q.sample_action(torch.from_numpy(s).float(), epsilon)
            s_prime, r, done, truncated, info = env.step(a)
            done_mask = 0.0 if done else 1.0
            memory.put((s, a, shaped_reward(env, s_prime), s_prime, done_mask))
            s = s_prime

            score += r
            if done:
                break

        if memory.size() > 200:
            loss = train(q, q_target, memory, optimizer)
            if n_epi % 5 == 0:
                print("n_episode :{}, loss {:.5f}, loss dtype {}".format(n_epi, loss.item(), loss.dtype))

        if n_epi % print_interval == 0 and n_epi != 0:
            q_target.load_state_dict(q.state_dict())
            print("n_episode :{}, score : {:.1f}, n_buffer : {}, eps : {:.1f}%".format(
                n_epi, score / print_interval, memory.size(), epsilon * 100))
            score = 0.0
    env.close()


if __name__ == '__main__':
    main()
