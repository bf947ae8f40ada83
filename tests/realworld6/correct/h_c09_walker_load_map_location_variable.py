"""Actor-critic evaluation that reloads a GPU-trained actor with map_location given through a device variable chosen at run time (the merged fix)
source: https://github.com/ufal/npfl122/pull/103
reported-error: none (fixed version: "Map model to the correct device when loading")
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import os
import tempfile

import numpy as np
import torch
import torch.serialization


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
    def __init__(self, obs_dim=24, act_dim=4, hidden=32):
        self._device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self._actor = torch.nn.Sequential(torch.nn.Linear(obs_dim, hidden), torch.nn.ReLU(),
                                          torch.nn.Linear(hidden, act_dim), torch.nn.Tanh()).to(self._device)

    def save_actor(self, path):
        with as_saved_by_gpu_run():
            torch.save(self._actor.state_dict(), path)

    def load_actor(self, path):
        self._actor.load_state_dict(torch.load(path, map_location=self._device))

    @torch.no_grad()
    def predict_actions(self, states):
        return self._actor(torch.as_tensor(states, dtype=torch.float32, device=self._device)).cpu().numpy()


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "walker.model")
    Network().save_actor(path)
    network = Network()
    network.load_actor(path)
    for episode in range(2):
        ret = 0.0
        for _ in range(10):
            ret += float(-np.square(network.predict_actions(np.random.randn(1, 24))[0]).sum())
        print(f"Episode {episode} return {ret:.2f}")
