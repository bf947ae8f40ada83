"""PPO-for-beginners style learner whose rollout() computes rewards-to-go with a float64 NumPy buffer and hands them back through torch.tensor(batch_rtgs); the critic update nn.MSELoss()(V, batch_rtgs) silently runs in float64 (printed as "critic loss dtype torch.float64")
source: https://github.com/ericyangyu/PPO-for-Beginners/issues/8
reported-error: question about critic_loss = nn.MSELoss()(V, batch_rtgs) with rewards-to-go as the value targets (no error; the targets come from the rollout buffer)
outcome: ok (silent: nn.MSELoss()(V, batch_rtgs) at line 72 returns a float64 critic loss, printed as "critic loss dtype torch.float64")
root-cause: line 45
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn


class ToyEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.t = 0
        return self.rng.standard_normal(4).astype(np.float32)

    def step(self, action):
        self.t += 1
        obs = self.rng.standard_normal(4).astype(np.float32)
        return obs, float(action[0] > 0) - 0.1 * abs(float(action[1])), self.t >= 20


class PPO:
    def __init__(self, env, gamma=0.95, lr=3e-3):
        self.env, self.gamma = env, gamma
        self.actor = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
        self.critic = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
        self.log_std = nn.Parameter(torch.zeros(2))
        self.actor_optim = torch.optim.Adam(list(self.actor.parameters()) + [self.log_std], lr=lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=lr)

    def compute_rtgs(self, batch_rews):
        rtgs = np.zeros(sum(len(ep) for ep in batch_rews))
        i = len(rtgs)
        for ep_rews in reversed(batch_rews):
            discounted = 0.0
            for rew in reversed(ep_rews):
                discounted = rew + discounted * self.gamma
                i -= 1
                rtgs[i] = discounted
        return torch.tensor(rtgs)  # root-cause

    def rollout(self, episodes=4):
        obs_list, act_list, rews = [], [], []
        for _ in range(episodes):
            obs, done, ep = self.env.reset(), False, []
            while not done:
                with torch.no_grad():
                    mean = self.actor(torch.from_numpy(obs))
                    action = torch.normal(mean, self.log_std.exp())
                obs_list.append(obs)
                act_list.append(action)
                obs, rew, done = self.env.step(action.numpy())
                ep.append(rew)
            rews.append(ep)
        return torch.from_numpy(np.stack(obs_list)), torch.stack(act_list), self.compute_rtgs(rews)

    def learn(self, iterations=3):
        for it in range(iterations):
            batch_obs, batch_acts, batch_rtgs = self.rollout()
            V = self.critic(batch_obs).squeeze(-1)
            A_k = batch_rtgs - V.detach()
            dist = torch.distributions.Normal(self.actor(batch_obs), self.log_std.exp())
            actor_loss = -(dist.log_prob(batch_acts).sum(-1) * A_k).mean()
            self.actor_optim.zero_grad()
            actor_loss.backward()
            self.actor_optim.step()
            critic_loss = nn.MSELoss()(V, batch_rtgs)  # fails-here
            self.critic_optim.zero_grad()
            critic_loss.backward()
            self.critic_optim.step()
            print(f"iter {it}: critic loss {critic_loss.item():.4f}, critic loss dtype {critic_loss.dtype}")


if __name__ == "__main__":
    torch.manual_seed(0)
    PPO(ToyEnv()).learn()
