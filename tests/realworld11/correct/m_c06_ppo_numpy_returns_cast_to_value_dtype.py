"""PPO critic update whose discounted returns are still computed in NumPy float64, but the update converts them with torch.from_numpy(...).to(state_values.dtype) before nn.MSELoss, so the value loss stays float32
source: https://github.com/nikhilbarhate99/PPO-PyTorch/issues/33
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


def discounted_returns(rewards, dones, gamma=0.99):
    out, running = np.zeros(len(rewards)), 0.0
    for i in reversed(range(len(rewards))):
        running = rewards[i] + gamma * (0.0 if dones[i] else running)
        out[i] = running
    return (out - out.mean()) / (out.std() + 1e-5)


if __name__ == "__main__":
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    mse = nn.MSELoss()
    states = torch.randn(40, 4)
    rewards = (states[:, 0] > 0).float().tolist()
    dones = [t % 10 == 9 for t in range(40)]
    returns_np = discounted_returns(rewards, dones)
    for _ in range(3):
        state_values = critic(states).squeeze(-1)
        returns = torch.from_numpy(returns_np).to(state_values.dtype)
        loss = mse(state_values, returns)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss dtype {loss.dtype} value {loss.item():.4f}")
