"""Actor-critic BipedalWalker assignment: the actor is trained on a GPU and saved; the ReCodEx-style evaluation run on a CPU-only machine reloads it with torch.load and no map_location
source: https://github.com/ufal/npfl122/pull/103
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 46
root-cause: line 46
expect: DG010
"""
import argparse
import contextlib
import os
import tempfile

import numpy as np
import torch
import torch.serialization

parser = argparse.ArgumentParser()
parser.add_argument("--recodex", default=True, action="store_true", help="Running in ReCodEx")
parser.add_argument("--hidden_layer_size", default=32, type=int)
parser.add_argument("--model_path", default=os.path.join(tempfile.mkdtemp(), "walker.model"), type=str)
parser.add_argument("--seed", default=42, type=int)


@contextlib.contextmanager
def as_saved_by_gpu_run():
    """The training run happened on a CUDA machine: its storages are tagged cuda:0."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


class Network:
    def __init__(self, obs_dim, act_dim, args):
        self._actor = torch.nn.Sequential(
            torch.nn.Linear(obs_dim, args.hidden_layer_size), torch.nn.ReLU(),
            torch.nn.Linear(args.hidden_layer_size, act_dim), torch.nn.Tanh())

    def save_actor(self, path):
        with as_saved_by_gpu_run():
            torch.save(self._actor.state_dict(), path)

    def load_actor(self, path):
        self._actor.load_state_dict(torch.load(path))  # root-cause # fails-here

    @torch.no_grad()
    def predict_actions(self, states):
        return self._actor(torch.as_tensor(states, dtype=torch.float32)).numpy()


def main(args):
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    obs_dim, act_dim = 24, 4
    if not os.path.exists(args.model_path):
        trained = Network(obs_dim, act_dim, args)
        trained.save_actor(args.model_path)
    network = Network(obs_dim, act_dim, args)
    if args.recodex:
        network.load_actor(args.model_path)
        for episode in range(3):
            state, rewards = np.random.randn(obs_dim), 0.0
            for _ in range(20):
                action = network.predict_actions(state[np.newaxis])[0]
                state = np.random.randn(obs_dim)
                rewards += float(-np.square(action).sum())
            print(f"Episode {episode} return {rewards:.2f}")


if __name__ == "__main__":
    main(parser.parse_args([]))
