"""Actor-critic agent (SLM-Lab style memory and algorithm classes): the memory keeps rewards and dones as NumPy arrays, calc_v_targets computes the discounted returns in NumPy float64 and converts them with torch.from_numpy, so the critic's MSE value loss silently runs in float64 against float32 predictions
source: https://github.com/kengz/SLM-Lab/pull/326
reported-error: none raised; the PR casts batches in NumPy to float32 before converting them to torch tensors (profiling showed the float64 path was slower)
outcome: ok (silent: the value loss at line 72 mixes float32 predictions with float64 targets and is float64, printed as "value loss dtype torch.float64")
root-cause: line 62
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- slm_lab/agent/memory/onpolicy.py
class OnPolicyReplay:
    def __init__(self):
        self.reset()

    def reset(self):
        self.states, self.actions, self.rewards, self.dones = [], [], [], []

    def add_experience(self, state, action, reward, done):
        self.states.append(state)
        self.actions.append(action)
        self.rewards.append(reward)
        self.dones.append(done)

    def sample(self):
        batch = {"states": np.array(self.states, dtype=np.float32), "actions": np.array(self.actions),
                 "rewards": np.array(self.rewards), "dones": np.array(self.dones, dtype=np.float64)}
        self.reset()
        return batch


# ---- slm_lab/lib/math_util.py
def calc_returns(rewards, dones, gamma):
    rets = np.zeros_like(rewards)
    future_ret = 0.0
    for t in reversed(range(len(rewards))):
        future_ret = rewards[t] + gamma * future_ret * (1 - dones[t])
        rets[t] = future_ret
    return rets


# ---- slm_lab/agent/algorithm/actor_critic.py
class ActorCritic:
    def __init__(self, state_dim=4, n_actions=2, gamma=0.99, lr=1e-3):
        self.body = nn.Sequential(nn.Linear(state_dim, 64), nn.Tanh())
        self.actor = nn.Linear(64, n_actions)
        self.critic = nn.Linear(64, 1)
        params = list(self.body.parameters()) + list(self.actor.parameters()) + list(self.critic.parameters())
        self.optim = torch.optim.Adam(params, lr=lr)
        self.gamma = gamma

    def act(self, state):
        with torch.no_grad():
            logits = self.actor(self.body(torch.as_tensor(state, dtype=torch.float32)))
        return torch.distributions.Categorical(logits=logits).sample().item()

    def calc_v_targets(self, batch):
        rets = calc_returns(batch["rewards"], batch["dones"], self.gamma)
        return torch.from_numpy(rets)  # root-cause

    def train(self, batch):
        states = torch.from_numpy(batch["states"])
        h = self.body(states)
        v_preds = self.critic(h).squeeze(-1)
        v_targets = self.calc_v_targets(batch)
        advs = (v_targets - v_preds).detach()
        log_probs = torch.distributions.Categorical(logits=self.actor(h)).log_prob(torch.from_numpy(batch["actions"]))
        policy_loss = -(advs.float() * log_probs).mean()
        val_loss = F.mse_loss(v_preds, v_targets)  # fails-here
        loss = policy_loss + 0.5 * val_loss
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return val_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    agent, memory = ActorCritic(), OnPolicyReplay()
    state = rng.standard_normal(4).astype(np.float32)
    for t in range(64):
        action = agent.act(state)
        next_state = state + 0.1 * rng.standard_normal(4).astype(np.float32)
        memory.add_experience(state, action, float(rng.random() < 0.9), t % 16 == 15)
        state = next_state
    val_loss = agent.train(memory.sample())
    print("value loss", round(val_loss.item(), 4), "value loss dtype", val_loss.dtype)
