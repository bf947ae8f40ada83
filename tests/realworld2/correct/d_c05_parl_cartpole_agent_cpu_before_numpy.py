"""PARL QuickStart (torch): CartpoleAgent.sample moves the policy output to the CPU before .numpy() (the merged fix)
source: https://github.com/PaddlePaddle/PARL/issues/324
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

LEARNING_RATE = 1e-3


class CartpoleModel(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super(CartpoleModel, self).__init__()
        hid1_size = act_dim * 10
        self.fc1 = nn.Linear(obs_dim, hid1_size)
        self.fc2 = nn.Linear(hid1_size, act_dim)

    def forward(self, x):
        out = torch.tanh(self.fc1(x))
        prob = F.softmax(self.fc2(out), dim=-1)
        return prob


class PolicyGradient(object):
    def __init__(self, model, lr):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def predict(self, obs):
        prob = self.model(obs)
        return prob

    def learn(self, obs, action, reward):
        prob = self.model(obs)
        log_prob = Categorical(prob).log_prob(action)
        loss = torch.mean(-1 * log_prob * reward)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss


class CartPoleEnv(object):
    """Tiny stand-in for gym's CartPole-v0 (4-dim float observation, 2 actions)."""

    def reset(self):
        self.t = 0
        self.state = np.random.uniform(-0.05, 0.05, size=(4,)).astype(np.float32)
        return self.state

    def step(self, action):
        self.t += 1
        self.state = self.state + np.float32(0.01) * (action * 2 - 1)
        done = self.t >= 20 or abs(self.state[2]) > 0.2
        return self.state, 1.0, done, {}


class CartpoleAgent(object):
    def __init__(self, algorithm):
        self.algorithm = algorithm
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def sample(self, obs):
        obs = torch.tensor(obs, device=self.device, dtype=torch.float)
        prob = self.algorithm.predict(obs).cpu()
        prob = prob.data.numpy()
        action = np.random.choice(len(prob), 1, p=prob)[0]
        return action

    def learn(self, obs, action, reward):
        obs = torch.tensor(obs, device=self.device, dtype=torch.float)
        action = torch.tensor(action, device=self.device, dtype=torch.long)
        reward = torch.tensor(reward, device=self.device, dtype=torch.float)
        loss = self.algorithm.learn(obs, action, reward)
        return loss.item()


def run_episode(env, agent):
    obs_list, action_list, reward_list = [], [], []
    obs = env.reset()
    while True:
        obs_list.append(obs)
        action = agent.sample(obs)
        action_list.append(action)
        obs, reward, done, info = env.step(action)
        reward_list.append(reward)
        if done:
            break
    return obs_list, action_list, reward_list


def calc_reward_to_go(reward_list, gamma=1.0):
    for i in range(len(reward_list) - 2, -1, -1):
        reward_list[i] += gamma * reward_list[i + 1]
    return np.array(reward_list)


def main():
    env = CartPoleEnv()
    model = CartpoleModel(obs_dim=4, act_dim=2)
    alg = PolicyGradient(model, lr=LEARNING_RATE)
    agent = CartpoleAgent(alg)
    for i in range(5):
        obs_list, action_list, reward_list = run_episode(env, agent)
        batch_obs = np.array(obs_list)
        batch_action = np.array(action_list)
        batch_reward = calc_reward_to_go(reward_list)
        loss = agent.learn(batch_obs, batch_action, batch_reward)
        print("Episode {}, Reward Sum {}, loss {:.3f}.".format(i, sum(reward_list), loss))


if __name__ == '__main__':
    main()
