"""tianshou-style replay buffer allocates float64 arrays, so float32 CartPole observations reach the Q-net as float64
source: https://github.com/thu-ml/tianshou/issues/65
reported-error: silent (replay buffer stores observations as float64 instead of the env dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 57
root-cause: line 27
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer(object):
    """Replay buffer; internal arrays are created lazily from the first sample."""

    def __init__(self, size):
        self._maxsize = size
        self._index = 0
        self._size = 0
        self.obs = None

    def __len__(self):
        return self._size

    def _add_to_buffer(self, name, inst):
        if self.__dict__.get(name, None) is None:
            self.__dict__[name] = np.zeros([self._maxsize, *np.asarray(inst).shape])  # root-cause
        self.__dict__[name][self._index] = inst

    def add(self, obs, act, rew, done, obs_next):
        self._add_to_buffer('obs', obs)
        self._add_to_buffer('act', act)
        self._add_to_buffer('rew', rew)
        self._add_to_buffer('done', done)
        self._add_to_buffer('obs_next', obs_next)
        self._size = min(self._size + 1, self._maxsize)
        self._index = (self._index + 1) % self._maxsize

    def sample(self, batch_size):
        indice = np.random.choice(self._size, batch_size)
        return self.obs[indice], self.act[indice], self.rew[indice], \
            self.done[indice], self.obs_next[indice]


class Net(nn.Module):
    def __init__(self, state_shape, action_shape):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(int(np.prod(state_shape)), 64), nn.ReLU(inplace=True),
            nn.Linear(64, 64), nn.ReLU(inplace=True),
            nn.Linear(64, int(np.prod(action_shape))))

    def forward(self, s):
        if not isinstance(s, torch.Tensor):
            s = torch.tensor(s)
        batch = s.shape[0]
        return self.model(s.view(batch, -1))  # fails-here


np.random.seed(0)
buf = ReplayBuffer(64)
for _ in range(32):
    obs = np.random.randn(4).astype(np.float32)       # CartPole-like float32 obs
    obs_next = np.random.randn(4).astype(np.float32)
    buf.add(obs, np.random.randint(2), 1.0, False, obs_next)

net = Net((4,), 2)
optim = torch.optim.Adam(net.parameters(), lr=1e-3)
gamma = 0.9
for it in range(5):
    o, a, r, d, o2 = buf.sample(16)
    q = net(o)[np.arange(16), a.astype(np.int64)]
    with torch.no_grad():
        target = torch.tensor(r, dtype=torch.float32) + gamma * net(o2).max(dim=1)[0]
    loss = ((q - target) ** 2).mean()
    optim.zero_grad()
    loss.backward()
    optim.step()
print("trained")
