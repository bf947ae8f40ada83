"""PPO update whose discounted returns are computed with NumPy (float64 by default) and wrapped by torch.from_numpy; the critic's float32 state values are compared to these float64 returns with nn.MSELoss, which silently promotes the value loss (and the whole PPO loss) to float64
source: https://github.com/nikhilbarhate99/PPO-PyTorch/issues/33
reported-error: RuntimeError: expected dtype Double but got dtype Float in mse_loss_backward (older PyTorch); today the loss is silently computed in float64
outcome: ok (silent: self.MseLoss(state_values, returns) at line 53 returns a float64 loss, printed as "loss dtype torch.float64"; the PPO update runs in double)
root-cause: line 45
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn


class Memory:
    def __init__(self):
        self.states, self.actions, self.logprobs, self.rewards, self.dones = [], [], [], [], []


class ActorCritic(nn.Module):
    def __init__(self, n_state=4, n_action=2):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(n_state, 32), nn.Tanh(), nn.Linear(32, n_action))
        self.critic = nn.Sequential(nn.Linear(n_state, 32), nn.Tanh(), nn.Linear(32, 1))

    def evaluate(self, states, actions):
        dist = torch.distributions.Categorical(logits=self.actor(states))
        return dist.log_prob(actions), self.critic(states).squeeze(-1), dist.entropy()


def discounted_returns(rewards, dones, gamma=0.99):
    out, running = np.zeros(len(rewards)), 0.0
    for i in reversed(range(len(rewards))):
        running = 0.0 if dones[i] else running
        running = rewards[i] + gamma * running
        out[i] = running
    return (out - out.mean()) / (out.std() + 1e-5)


class PPO:
    def __init__(self):
        self.policy = ActorCritic()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-3)
        self.MseLoss = nn.MSELoss()

    def update(self, memory, epochs=2, clip=0.2):
        returns = torch.from_numpy(discounted_returns(memory.rewards, memory.dones))  # root-cause
        states, actions = torch.stack(memory.states), torch.stack(memory.actions)
        old_logprobs = torch.stack(memory.logprobs)
        for _ in range(epochs):
            logprobs, state_values, entropy = self.policy.evaluate(states, actions)
            ratios = torch.exp(logprobs - old_logprobs)
            adv = returns - state_values.detach()
            surr = torch.min(ratios * adv, torch.clamp(ratios, 1 - clip, 1 + clip) * adv)
            loss = -surr + 0.5 * self.MseLoss(state_values, returns) - 0.01 * entropy  # fails-here
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()
        return loss.mean()


def rollout(policy, steps=40):
    mem, g = Memory(), torch.Generator().manual_seed(0)
    for t in range(steps):
        s = torch.randn(4, generator=g)
        dist = torch.distributions.Categorical(logits=policy.actor(s))
        a = dist.sample()
        mem.states.append(s)
        mem.actions.append(a)
        mem.logprobs.append(dist.log_prob(a).detach())
        mem.rewards.append(float(a.item() == (s[0] > 0)))
        mem.dones.append(t % 10 == 9)
    return mem


if __name__ == "__main__":
    torch.manual_seed(0)
    ppo = PPO()
    loss = ppo.update(rollout(ppo.policy))
    print(f"loss dtype {loss.dtype}")
