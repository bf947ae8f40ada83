import numpy as np
import torch.nn as nn


def game_state_to_data_sample(game_state, bounds, block_size):
    head = game_state["snake_body"][-1]
    food = game_state["food"]
    body = set(game_state["snake_body"][:-1])
    moves = [(0, -block_size), (block_size, 0), (0, block_size), (-block_size, 0)]  # UP, RIGHT, DOWN, LEFT
    danger = []
    for dx, dy in moves:
        nx, ny = head[0] + dx, head[1] + dy
        danger.append(float(nx < 0 or ny < 0 or nx >= bounds[0] or ny >= bounds[1] or (nx, ny) in body))
    food_dir = [float(food[1] < head[1]), float(food[0] > head[0]), float(food[1] > head[1]), float(food[0] < head[0])]
    return np.array(danger + food_dir)


class SnakeNet(nn.Module):
    def __init__(self, n_features=8, hidden=32, n_directions=4):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, n_directions),
                                    nn.Sigmoid())

    def forward(self, x):
        return self.layers(x)
