"""Multi-agent particle tasks with philtabor's MADDPG (philtabor/Multi-Agent-Deep-Deterministic-Policy-Gradients: buffer.py's MultiAgentReplayBuffer, networks.py's ActorNetwork / CriticNetwork, agent.py's Agent, maddpg.py's MADDPG.learn, main.py's episode loop on simple_adversary), MADDPG issue #7: the replay buffer's reward_memory is a default np.zeros (float64), learn() makes it a tensor with T.tensor(rewards) without a dtype, and the critic target rewards[:, agent_idx] + gamma * critic_value_ is float64 against the float32 critic value
source: https://github.com/philtabor/Multi-Agent-Deep-Deterministic-Policy-Gradients/issues/7
reported-error: RuntimeError: Found dtype Float but expected Double (critic_loss.backward(retain_graph=True) in MADDPG.learn; the reporter found the target variable is torch.float64)
outcome: ok (silent: on torch 2.13 the critic MSE at line 147 promotes to float64 instead of raising; printed as "critic loss dtype torch.float64")
root-cause: line 134
expect: DG008
"""
import numpy as np

import torch as T
import torch.nn as nn
import torch.nn.functional as F


# ---- buffer.py
class MultiAgentReplayBuffer:
    def __init__(self, max_size, critic_dims, actor_dims, n_actions, n_agents, batch_size):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.n_agents = n_agents
        self.actor_dims = actor_dims
        self.batch_size = batch_size
        self.n_actions = n_actions
        self.state_memory = np.zeros((self.mem_size, critic_dims))
        self.new_state_memory = np.zeros((self.mem_size, critic_dims))
        self.reward_memory = np.zeros((self.mem_size, n_agents))
        self.terminal_memory = np.zeros((self.mem_size, n_agents), dtype=bool)
        self.actor_state_memory = [np.zeros((self.mem_size, self.actor_dims[i])) for i in range(n_agents)]
        self.actor_new_state_memory = [np.zeros((self.mem_size, self.actor_dims[i])) for i in range(n_agents)]
        self.actor_action_memory = [np.zeros((self.mem_size, self.n_actions)) for i in range(n_agents)]

    def store_transition(self, raw_obs, state, action, reward, raw_obs_, state_, done):
        index = self.mem_cntr % self.mem_size
        for agent_idx in range(self.n_agents):
            self.actor_state_memory[agent_idx][index] = raw_obs[agent_idx]
            self.actor_new_state_memory[agent_idx][index] = raw_obs_[agent_idx]
            self.actor_action_memory[agent_idx][index] = action[agent_idx]
        self.state_memory[index] = state
        self.new_state_memory[index] = state_
        self.reward_memory[index] = reward
        self.terminal_memory[index] = done
        self.mem_cntr += 1

    def sample_buffer(self):
        max_mem = min(self.mem_cntr, self.mem_size)
        batch = np.random.choice(max_mem, self.batch_size, replace=False)
        actor_states = [self.actor_state_memory[i][batch] for i in range(self.n_agents)]
        actor_new_states = [self.actor_new_state_memory[i][batch] for i in range(self.n_agents)]
        actions = [self.actor_action_memory[i][batch] for i in range(self.n_agents)]
        return actor_states, self.state_memory[batch], actions, self.reward_memory[batch], \
            actor_new_states, self.new_state_memory[batch], self.terminal_memory[batch]

    def ready(self):
        return self.mem_cntr >= self.batch_size


# ---- networks.py
class CriticNetwork(nn.Module):
    def __init__(self, beta, input_dims, fc1_dims, fc2_dims, n_agents, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(input_dims + n_agents * n_actions, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.q = nn.Linear(fc2_dims, 1)
        self.optimizer = T.optim.Adam(self.parameters(), lr=beta)
        self.device = T.device('cuda:0' if T.cuda.is_available() else 'cpu')
        self.to(self.device)

    def forward(self, state, action):
        x = F.relu(self.fc1(T.cat([state, action], dim=1)))
        x = F.relu(self.fc2(x))
        return self.q(x)


class ActorNetwork(nn.Module):
    def __init__(self, alpha, input_dims, fc1_dims, fc2_dims, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(input_dims, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.pi = nn.Linear(fc2_dims, n_actions)
        self.optimizer = T.optim.Adam(self.parameters(), lr=alpha)
        self.device = T.device('cuda:0' if T.cuda.is_available() else 'cpu')
        self.to(self.device)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return T.softmax(self.pi(x), dim=1)


# ---- agent.py
class Agent:
    def __init__(self, actor_dims, critic_dims, n_actions, n_agents, agent_idx, alpha=0.01, beta=0.01,
                 fc1=64, fc2=64, gamma=0.95, tau=0.01):
        self.gamma, self.tau, self.n_actions = gamma, tau, n_actions
        self.actor = ActorNetwork(alpha, actor_dims, fc1, fc2, n_actions)
        self.critic = CriticNetwork(beta, critic_dims, fc1, fc2, n_agents, n_actions)
        self.target_actor = ActorNetwork(alpha, actor_dims, fc1, fc2, n_actions)
        self.target_critic = CriticNetwork(beta, critic_dims, fc1, fc2, n_agents, n_actions)
        self.update_network_parameters(tau=1)

    def choose_action(self, observation):
        state = T.tensor(np.array([observation]), dtype=T.float).to(self.actor.device)
        actions = self.actor.forward(state)
        noise = T.rand(self.n_actions).to(self.actor.device)
        return (actions + noise).detach().cpu().numpy()[0]

    def update_network_parameters(self, tau=None):
        tau = self.tau if tau is None else tau
        for net, target in ((self.actor, self.target_actor), (self.critic, self.target_critic)):
            with T.no_grad():
                for p, tp in zip(net.parameters(), target.parameters()):
                    tp.copy_(tau * p + (1 - tau) * tp)


# ---- maddpg.py (learn as in the repository after the backward fix: the policies' actions are recomputed for
# each agent's actor update)
class MADDPG:
    def __init__(self, actor_dims, critic_dims, n_agents, n_actions, alpha=0.01, beta=0.01, fc1=64, fc2=64,
                 gamma=0.99, tau=0.01):
        self.agents = [Agent(actor_dims[i], critic_dims, n_actions, n_agents, i, alpha=alpha, beta=beta)
                       for i in range(n_agents)]
        self.n_agents, self.n_actions = n_agents, n_actions

    def choose_action(self, raw_obs):
        return [agent.choose_action(raw_obs[i]) for i, agent in enumerate(self.agents)]

    def learn(self, memory):
        if not memory.ready():
            return None
        actor_states, states, actions, rewards, actor_new_states, states_, dones = memory.sample_buffer()
        device = self.agents[0].actor.device
        states = T.tensor(states, dtype=T.float).to(device)
        actions = T.tensor(np.array(actions), dtype=T.float).to(device)
        rewards = T.tensor(rewards).to(device)  # root-cause
        states_ = T.tensor(states_, dtype=T.float).to(device)
        dones = T.tensor(dones).to(device)
        with T.no_grad():
            new_actions = T.cat([agent.target_actor.forward(T.tensor(actor_new_states[i], dtype=T.float).to(device))
                                 for i, agent in enumerate(self.agents)], dim=1)
        old_actions = T.cat([actions[i] for i in range(self.n_agents)], dim=1)
        for agent_idx, agent in enumerate(self.agents):
            with T.no_grad():
                critic_value_ = agent.target_critic.forward(states_, new_actions).flatten()
                critic_value_[dones[:, 0]] = 0.0
            critic_value = agent.critic.forward(states, old_actions).flatten()
            target = rewards[:, agent_idx] + agent.gamma * critic_value_
            critic_loss = F.mse_loss(target, critic_value)  # fails-here
            agent.critic.optimizer.zero_grad()
            critic_loss.backward()
            agent.critic.optimizer.step()
            mu = T.cat([a.actor.forward(T.tensor(actor_states[i], dtype=T.float).to(device))
                        for i, a in enumerate(self.agents)], dim=1)
            actor_loss = -T.mean(agent.critic.forward(states, mu).flatten())
            agent.actor.optimizer.zero_grad()
            actor_loss.backward()
            agent.actor.optimizer.step()
            agent.update_network_parameters()
        return critic_loss


# ---- make_env('simple_adversary') re-typed: one adversary and two good agents in a 2-D plane
class SimpleAdversary:
    n = 3

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, (3, 2))
        self.goal = self.rng.uniform(-1, 1, 2)
        return self._obs()

    def _obs(self):
        obs = [np.concatenate([self.goal - self.pos[i], (self.pos - self.pos[i]).ravel()]) for i in range(3)]
        obs[0] = obs[0][2:]  # the adversary does not see the goal
        return obs

    def step(self, actions):
        for i, a in enumerate(actions):
            self.pos[i] += 0.05 * np.array([a[1] - a[2], a[3] - a[4]])
        d = np.linalg.norm(self.pos - self.goal, axis=1)
        reward = [-d[0], d[0] - min(d[1], d[2]), d[0] - min(d[1], d[2])]
        return self._obs(), reward, [False] * 3, {}


def obs_list_to_state_vector(observation):
    return np.concatenate(observation)


# ---- main.py (reduced: a few short episodes)
if __name__ == '__main__':
    np.random.seed(0)
    T.manual_seed(0)
    env = SimpleAdversary()
    n_agents = env.n
    actor_dims = [len(o) for o in env.reset()]
    critic_dims = sum(actor_dims)
    n_actions = 5
    maddpg_agents = MADDPG(actor_dims, critic_dims, n_agents, n_actions, fc1=64, fc2=64, alpha=0.01, beta=0.01)
    memory = MultiAgentReplayBuffer(1000, critic_dims, actor_dims, n_actions, n_agents, batch_size=64)
    total_steps = 0
    for i in range(4):
        obs = env.reset()
        score = 0
        for episode_step in range(25):
            actions = maddpg_agents.choose_action(obs)
            obs_, reward, done, info = env.step(actions)
            memory.store_transition(obs, obs_list_to_state_vector(obs), actions, reward, obs_,
                                    obs_list_to_state_vector(obs_), [episode_step == 24] * n_agents)
            if total_steps % 10 == 0:
                critic_loss = maddpg_agents.learn(memory)
            obs = obs_
            score += sum(reward)
            total_steps += 1
        print('episode', i, 'score %.1f' % score)
    print('critic loss dtype', critic_loss.dtype)
