"""DQN agent moves the state to CUDA only when the Lightning module itself runs on a GPU
source: https://github.com/Lightning-AI/pytorch-lightning/blob/7f0c3436cd3f6ad3753125672024fc415cbcb414/examples/pytorch/domain_templates/reinforce_learn_Qnet.py#L267
false-alarm: DG009 at line 108: the state goes to CUDA only when `device not in ["cpu"]`, and device comes from get_device(), which is "cpu" unless the module (and so self.net) is on the GPU; populate() uses the default device="cpu", and the Trainer is pinned to accelerator="cpu"
"""
# Reduction: LightningModule/Trainer and gym are replaced by a tiny nn.Module-based stand-in
# (`on_gpu` mirrors LightningModule.on_gpu = self.device.type == "cuda") and a toy environment.
import random
from collections import OrderedDict, deque, namedtuple
from collections.abc import Iterator

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader
from torch.utils.data.dataset import IterableDataset


class ToyEnv:
    """Stands in for gym.make("CartPole-v1"): 4-float observations, 2 actions."""

    class _Space:
        def __init__(self, shape=None, n=None):
            self.shape, self.n = shape, n

        def sample(self):
            return random.randrange(self.n)

    def __init__(self):
        self.observation_space = self._Space(shape=(4,))
        self.action_space = self._Space(n=2)
        self.t = 0

    def reset(self):
        self.t = 0
        return [random.uniform(-0.05, 0.05) for _ in range(4)]

    def step(self, action):
        self.t += 1
        done = self.t >= 20
        return [random.uniform(-1, 1) for _ in range(4)], 1.0, done, {}


class DQN(nn.Module):
    def __init__(self, obs_size: int, n_actions: int, hidden_size: int = 128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, n_actions))

    def forward(self, x):
        return self.net(x.float())


Experience = namedtuple("Experience", field_names=["state", "action", "reward", "done", "new_state"])


class ReplayBuffer:
    def __init__(self, capacity: int) -> None:
        self.buffer = deque(maxlen=capacity)

    def __len__(self) -> int:
        return len(self.buffer)

    def append(self, experience: Experience) -> None:
        self.buffer.append(experience)

    def sample(self, batch_size: int) -> tuple:
        indices = random.sample(range(len(self.buffer)), batch_size)
        states, actions, rewards, dones, next_states = zip(*(self.buffer[idx] for idx in indices))

        return (
            torch.tensor(states),
            torch.tensor(actions),
            torch.tensor(rewards, dtype=torch.float32),
            torch.tensor(dones, dtype=torch.bool),
            torch.tensor(next_states),
        )


class RLDataset(IterableDataset):
    def __init__(self, buffer: ReplayBuffer, sample_size: int = 200) -> None:
        self.buffer = buffer
        self.sample_size = sample_size

    def __iter__(self) -> Iterator:
        states, actions, rewards, dones, new_states = self.buffer.sample(self.sample_size)
        for i in range(len(dones)):
            yield states[i], actions[i], rewards[i], dones[i], new_states[i]


class Agent:
    def __init__(self, env, replay_buffer: ReplayBuffer) -> None:
        self.env = env
        self.replay_buffer = replay_buffer
        self.reset()
        self.state = self.env.reset()

    def reset(self) -> None:
        self.state = self.env.reset()

    def get_action(self, net: nn.Module, epsilon: float, device: str) -> int:
        if random.random() < epsilon:
            action = self.env.action_space.sample()
        else:
            state = torch.tensor([self.state])

            if device not in ["cpu"]:
                state = state.cuda(device)

            q_values = net(state)
            _, action = torch.max(q_values, dim=1)
            action = int(action.item())

        return action

    @torch.no_grad()
    def play_step(self, net: nn.Module, epsilon: float = 0.0, device: str = "cpu") -> tuple[float, bool]:
        action = self.get_action(net, epsilon, device)
        new_state, reward, done, _ = self.env.step(action)
        exp = Experience(self.state, action, reward, done, new_state)
        self.replay_buffer.append(exp)
        self.state = new_state
        if done:
            self.reset()
        return reward, done


class DQNLightning(nn.Module):
    def __init__(self, replay_size: int = 200, warm_start_steps: int = 200, gamma: float = 0.99,
                 eps_start: float = 1.0, eps_end: float = 0.01, eps_last_frame: int = 200,
                 sync_rate: int = 10, lr: float = 1e-2, episode_length: int = 50, batch_size: int = 4) -> None:
        super().__init__()
        self.replay_size = replay_size
        self.warm_start_steps = warm_start_steps
        self.gamma = gamma
        self.eps_start = eps_start
        self.eps_end = eps_end
        self.eps_last_frame = eps_last_frame
        self.sync_rate = sync_rate
        self.lr = lr
        self.episode_length = episode_length
        self.batch_size = batch_size
        self.global_step = 0

        self.env = ToyEnv()
        obs_size = self.env.observation_space.shape[0]
        n_actions = self.env.action_space.n

        self.net = DQN(obs_size, n_actions)
        self.target_net = DQN(obs_size, n_actions)

        self.buffer = ReplayBuffer(self.replay_size)
        self.agent = Agent(self.env, self.buffer)
        self.total_reward = 0
        self.episode_reward = 0
        self.populate(self.warm_start_steps)

    @property
    def on_gpu(self) -> bool:
        # LightningModule.on_gpu: True only when the module's parameters live on a CUDA device
        return next(self.parameters()).device.type == "cuda"

    def populate(self, steps: int = 1000) -> None:
        for i in range(steps):
            self.agent.play_step(self.net, epsilon=1.0)

    def dqn_mse_loss(self, batch) -> torch.Tensor:
        states, actions, rewards, dones, next_states = batch
        state_action_values = self.net(states).gather(1, actions.unsqueeze(-1)).squeeze(-1)
        with torch.no_grad():
            next_state_values = self.target_net(next_states).max(1)[0]
            next_state_values[dones] = 0.0
            next_state_values = next_state_values.detach()
        expected_state_action_values = next_state_values * self.gamma + rewards
        return nn.MSELoss()(state_action_values, expected_state_action_values)

    def training_step(self, batch, nb_batch) -> OrderedDict:
        device = self.get_device(batch)
        epsilon = max(self.eps_end, self.eps_start - (self.global_step + 1) / self.eps_last_frame)
        reward, done = self.agent.play_step(self.net, epsilon, device)
        self.episode_reward += reward
        loss = self.dqn_mse_loss(batch)
        if done:
            self.total_reward = self.episode_reward
            self.episode_reward = 0
        if self.global_step % self.sync_rate == 0:
            self.target_net.load_state_dict(self.net.state_dict())
        return OrderedDict({"loss": loss})

    def configure_optimizers(self):
        return [optim.Adam(self.net.parameters(), lr=self.lr)]

    def train_dataloader(self) -> DataLoader:
        dataset = RLDataset(self.buffer, self.episode_length)
        return DataLoader(dataset=dataset, batch_size=self.batch_size, sampler=None)

    def get_device(self, batch) -> str:
        return batch[0].device.index if self.on_gpu else "cpu"


def main() -> None:
    # Trainer(accelerator="cpu", devices=1).fit(model), reduced to its loop
    model = DQNLightning()
    (optimizer,) = model.configure_optimizers()
    for step in range(30):
        for nb_batch, batch in enumerate(model.train_dataloader()):
            loss = model.training_step(batch, nb_batch)["loss"]
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.global_step += 1
    print("total_reward", model.total_reward)


if __name__ == "__main__":
    main()
