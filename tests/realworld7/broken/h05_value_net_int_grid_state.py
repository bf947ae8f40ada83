"""Actor-critic on a grid world: the environment returns integer observations and value_net(state) runs the float32 Sequential on them
source: https://github.com/pytorch/pytorch/issues/1757
reported-error: TypeError: addmm_ received an invalid combination of arguments - got (int, int, torch.IntTensor, torch.FloatTensor)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Int and Float at line 45
root-cause: line 44
expect: DG005
"""
import argparse

import numpy as np
import torch


class GridWorld:
    """30 cells of a board: 0 empty, 1 wall, 2 goal, 3 agent (np.int32 like many C-backed envs)."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.board = self.rng.integers(0, 3, size=30, dtype=np.int32)
        self.pos = 0
        self.board[self.pos] = 3
        return self.board.copy()

    def step(self, action):
        self.board[self.pos] = 0
        self.pos = min(29, self.pos + action + 1)
        self.board[self.pos] = 3
        reward = float(self.board[self.pos] == 2)
        return self.board.copy(), reward, self.pos == 29


def main(args):
    env = GridWorld(args.seed)
    value_net = torch.nn.Sequential(
        torch.nn.Linear(30, 64),
        torch.nn.ReLU(),
        torch.nn.Linear(64, 1))
    optimizer = torch.optim.Adam(value_net.parameters(), lr=args.lr)
    for episode in range(args.episodes):
        obs, done, rewards, values = env.reset(), False, [], []
        while not done:
            state = torch.from_numpy(obs)  # root-cause
            values.append(value_net(state))  # fails-here
            obs, r, done = env.step(int(np.random.randint(0, 3)))
            rewards.append(r)
        returns = torch.tensor(np.cumsum(rewards[::-1])[::-1].copy(), dtype=torch.float32)
        loss = ((torch.cat(values) - returns) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"episode {episode} value loss {loss.item():.3f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--episodes", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    main(p.parse_args())
