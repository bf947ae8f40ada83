"""Train DDPG on a toy continuous task (AI4Finance-Foundation/ElegantRL early layout: AgentRun.py train loop, AgentZoo.py AgentDDPG.update_parameters, AgentNet.py Actor/Critic, a replay buffer): the buffer keeps rewards and masks in default NumPy arrays (float64), q_target = reward + mask * gamma * Q' becomes float64 and the critic's MSELoss silently runs in float64
source: https://github.com/AI4Finance-Foundation/ElegantRL/blob/7457595b4d725d621a9c347c05f36cbe7c842c72/AgentZoo.py
reported-error: (the repository file itself: AgentDDPG.update_parameters computes critic_loss = self.criterion(q_eval, q_target) over a replay buffer's samples; this variant's buffer keeps rewards and masks in a default float64 NumPy array, so q_target is float64: older torch failed with RuntimeError: Found dtype Double but expected Float, current torch promotes the loss to float64 without an error)
outcome: silent: the critic loss is float64 ("critic loss dtype: torch.float64") at AgentZoo.py:38
root-cause: ReplayBuffer.py:13
expect: DG008
"""
import numpy as np
import torch

from AgentZoo import AgentDDPG
from ReplayBuffer import BufferArray


class PointEnv:
    """1-D point mass pushed toward the origin."""

    state_dim, action_dim, max_step = 3, 1, 20

    def reset(self):
        self.t, self.x = 0, np.random.uniform(-1, 1)
        return self._obs()

    def _obs(self):
        return np.array([self.x, self.x ** 2, self.t / self.max_step], dtype=np.float32)

    def step(self, action):
        self.t += 1
        self.x = float(np.clip(self.x + 0.1 * action[0], -2, 2))
        return self._obs(), -abs(self.x), self.t >= self.max_step


def train_agent(max_episodes=3, batch_size=16, gamma=0.99):
    np.random.seed(0)
    torch.manual_seed(0)
    env = PointEnv()
    agent = AgentDDPG(env.state_dim, env.action_dim, net_dim=32)
    buffer = BufferArray(max_len=2 ** 10, state_dim=env.state_dim, action_dim=env.action_dim)
    for episode in range(max_episodes):
        state, done = env.reset(), False
        while not done:
            action = agent.select_action(state)
            next_state, reward, done = env.step(action)
            buffer.add_memo(state, action, reward, 0.0 if done else gamma, next_state)
            state = next_state
        loss_a, loss_c = agent.update_parameters(buffer, batch_size, repeat_times=4)
        print(f"episode {episode}: actor loss {loss_a:.4f} critic loss {loss_c:.4f}")
    print(f"critic loss dtype: {agent.last_critic_loss_dtype}")


if __name__ == "__main__":
    train_agent()
