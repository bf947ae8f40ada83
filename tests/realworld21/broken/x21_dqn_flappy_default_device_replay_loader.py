"""DQN agent for a Flappy-Bird-like game: main() follows the suggestion to call torch.set_default_device('cuda') when a GPU is present instead of calling .cuda() everywhere, and the replay memory is sampled through a DataLoader with shuffle=True, whose RandomSampler then draws torch.randperm on the CUDA default device with a CPU generator
source: https://github.com/nevenp/dqn_flappy_bird/issues/6
reported-error: (suggestion) use torch.set_default_device('cuda') in main() instead of calling .cuda() on every tensor of the DQN tutorial
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on the default CUDA device with a CPU generator; not run on a GPU for this set) at line 44; on CPU: ok
root-cause: line 57
expect: DG003
"""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class NeuralNetwork(nn.Module):
    def __init__(self, n_actions=2):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(4, 16, 8, 4), nn.ReLU(), nn.Conv2d(16, 32, 4, 2), nn.ReLU(), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(32 * 3 * 3, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.fc(self.conv(x))


class FakeGameState:
    def frame_step(self, action):
        reward = 0.1 if action[0] else -0.1
        return torch.rand(1, 1, 36, 36), reward, random.random() < 0.05


def train(model, iterations=64, gamma=0.99):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    game = FakeGameState()
    state = torch.rand(1, 4, 36, 36)
    memory = []
    for it in range(iterations):
        action = torch.zeros(2)
        action[random.randrange(2)] = 1
        frame, reward, terminal = game.frame_step(action)
        next_state = torch.cat([state[:, 1:], frame], dim=1)
        memory.append((state[0], action, torch.tensor([reward]), next_state[0], torch.tensor([float(terminal)])))
        state = next_state
    loader = DataLoader(TensorDataset(*[torch.stack(m) for m in zip(*memory)]), batch_size=16, shuffle=True)
    for state_b, action_b, reward_b, next_b, done_b in loader:  # fails-here
        with torch.no_grad():
            target = reward_b.squeeze(1) + gamma * (1 - done_b.squeeze(1)) * model(next_b).max(1).values
        q = (model(state_b) * action_b).sum(1)
        loss = nn.functional.mse_loss(q, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    if torch.cuda.is_available():
        torch.set_default_device("cuda")  # root-cause
    random.seed(0)
    torch.manual_seed(0)
    model = NeuralNetwork()
    print(f"last td loss {train(model):.4f}")


if __name__ == "__main__":
    main()
