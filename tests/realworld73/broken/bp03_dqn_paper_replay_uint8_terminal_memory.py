"""Deep-Q-Learning-Paper-To-Code-style DQN (ReplayBuffer, DeepQNetwork, DQNAgent and the main loop re-typed) on a hand-written Pong-like "catch" game with stacked 36x36 frames: the replay buffer keeps the terminal flags in np.uint8, sample_memory turns them into a uint8 tensor with T.tensor(done), and learn() zeroes the next-state values with q_next[dones] = 0.0, which indexes with a uint8 mask
source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/5
reported-error: "Warning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead." when running main.py for all variants of DQN on PyTorch 1.2 or higher (the author then changed terminal_memory to np.bool in commit ea54258 "change terminal memory to np.bool to deal with warning from pytorch"); torch 2.13 no longer warns but refuses the uint8 mask
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char at line 144
root-cause: line 56
expect: DG004
"""
import numpy as np
import torch as T
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

T.manual_seed(0)
np.random.seed(0)


class CatchEnv:
    """Paddle at the bottom of a 36x36 screen catches a falling ball; observations are 4 stacked frames in [0, 1]."""

    def __init__(self, size=36, n_stack=4):
        self.size, self.n_stack = size, n_stack
        self.observation_space_shape = (n_stack, size, size)
        self.n_actions = 3

    def _frame(self):
        f = np.zeros((self.size, self.size), dtype=np.float32)
        f[self.ball_y, self.ball_x] = 1.0
        f[self.size - 1, max(self.paddle - 2, 0):self.paddle + 3] = 1.0
        return f

    def reset(self):
        self.ball_x, self.ball_y = np.random.randint(0, self.size), 0
        self.paddle = self.size // 2
        self.frames = [self._frame()] * self.n_stack
        return np.stack(self.frames)

    def step(self, action):
        self.paddle = int(np.clip(self.paddle + (action - 1) * 2, 0, self.size - 1))
        self.ball_y += 3
        done = self.ball_y >= self.size - 1
        self.ball_y = min(self.ball_y, self.size - 1)
        reward = (1.0 if abs(self.ball_x - self.paddle) <= 2 else -1.0) if done else 0.0
        self.frames = self.frames[1:] + [self._frame()]
        return np.stack(self.frames), reward, done, {}


class ReplayBuffer(object):
    def __init__(self, max_size, input_shape, n_actions):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.state_memory = np.zeros((self.mem_size, *input_shape), dtype=np.float32)
        self.new_state_memory = np.zeros((self.mem_size, *input_shape), dtype=np.float32)
        self.action_memory = np.zeros(self.mem_size, dtype=np.int64)
        self.reward_memory = np.zeros(self.mem_size, dtype=np.float32)
        self.terminal_memory = np.zeros(self.mem_size, dtype=np.uint8)  # root-cause

    def store_transition(self, state, action, reward, state_, done):
        index = self.mem_cntr % self.mem_size
        self.state_memory[index] = state
        self.new_state_memory[index] = state_
        self.action_memory[index] = action
        self.reward_memory[index] = reward
        self.terminal_memory[index] = done
        self.mem_cntr += 1

    def sample_buffer(self, batch_size):
        max_mem = min(self.mem_cntr, self.mem_size)
        batch = np.random.choice(max_mem, batch_size, replace=False)
        return (self.state_memory[batch], self.action_memory[batch], self.reward_memory[batch],
                self.new_state_memory[batch], self.terminal_memory[batch])


class DeepQNetwork(nn.Module):
    def __init__(self, lr, n_actions, input_dims):
        super(DeepQNetwork, self).__init__()
        self.conv1 = nn.Conv2d(input_dims[0], 32, 8, stride=4)
        self.conv2 = nn.Conv2d(32, 64, 4, stride=2)
        self.conv3 = nn.Conv2d(64, 64, 3, stride=1)
        fc_input_dims = self.calculate_conv_output_dims(input_dims)
        self.fc1 = nn.Linear(fc_input_dims, 128)
        self.fc2 = nn.Linear(128, n_actions)
        self.optimizer = optim.RMSprop(self.parameters(), lr=lr)
        self.loss = nn.MSELoss()
        self.device = T.device("cpu")
        self.to(self.device)

    def calculate_conv_output_dims(self, input_dims):
        dims = self.conv3(self.conv2(self.conv1(T.zeros(1, *input_dims))))
        return int(np.prod(dims.size()))

    def forward(self, state):
        conv3 = F.relu(self.conv3(F.relu(self.conv2(F.relu(self.conv1(state))))))
        flat1 = F.relu(self.fc1(conv3.view(conv3.size()[0], -1)))
        return self.fc2(flat1)


class DQNAgent(object):
    def __init__(self, gamma, epsilon, lr, n_actions, input_dims, mem_size, batch_size, eps_min=0.01,
                 eps_dec=5e-7, replace=1000):
        self.gamma, self.epsilon, self.lr = gamma, epsilon, lr
        self.n_actions, self.input_dims, self.batch_size = n_actions, input_dims, batch_size
        self.eps_min, self.eps_dec, self.replace_target_cnt = eps_min, eps_dec, replace
        self.action_space = [i for i in range(n_actions)]
        self.learn_step_counter = 0
        self.memory = ReplayBuffer(mem_size, input_dims, n_actions)
        self.q_eval = DeepQNetwork(self.lr, self.n_actions, input_dims=self.input_dims)
        self.q_next = DeepQNetwork(self.lr, self.n_actions, input_dims=self.input_dims)

    def choose_action(self, observation):
        if np.random.random() > self.epsilon:
            state = T.tensor(np.array([observation]), dtype=T.float).to(self.q_eval.device)
            return T.argmax(self.q_eval.forward(state)).item()
        return np.random.choice(self.action_space)

    def store_transition(self, state, action, reward, state_, done):
        self.memory.store_transition(state, action, reward, state_, done)

    def sample_memory(self):
        state, action, reward, new_state, done = self.memory.sample_buffer(self.batch_size)
        states = T.tensor(state).to(self.q_eval.device)
        rewards = T.tensor(reward).to(self.q_eval.device)
        dones = T.tensor(done).to(self.q_eval.device)
        actions = T.tensor(action).to(self.q_eval.device)
        states_ = T.tensor(new_state).to(self.q_eval.device)
        return states, actions, rewards, states_, dones

    def replace_target_network(self):
        if self.learn_step_counter % self.replace_target_cnt == 0:
            self.q_next.load_state_dict(self.q_eval.state_dict())

    def decrement_epsilon(self):
        self.epsilon = self.epsilon - self.eps_dec if self.epsilon > self.eps_min else self.eps_min

    def learn(self):
        if self.memory.mem_cntr < self.batch_size:
            return
        self.q_eval.optimizer.zero_grad()
        self.replace_target_network()
        states, actions, rewards, states_, dones = self.sample_memory()
        indices = np.arange(self.batch_size)
        q_pred = self.q_eval.forward(states)[indices, actions]
        q_next = self.q_next.forward(states_).max(dim=1)[0]
        q_next[dones] = 0.0  # fails-here
        q_target = rewards + self.gamma * q_next
        loss = self.q_eval.loss(q_target, q_pred).to(self.q_eval.device)
        loss.backward()
        self.q_eval.optimizer.step()
        self.learn_step_counter += 1
        self.decrement_epsilon()
        return loss.item()


env = CatchEnv()
agent = DQNAgent(gamma=0.99, epsilon=1.0, lr=0.0001, input_dims=env.observation_space_shape, n_actions=env.n_actions,
                 mem_size=2000, eps_min=0.1, batch_size=32, replace=100, eps_dec=1e-3)
n_steps, scores = 0, []
for i in range(12):
    done = False
    observation = env.reset()
    score, loss = 0, None
    while not done:
        action = agent.choose_action(observation)
        observation_, reward, done, info = env.step(action)
        score += reward
        agent.store_transition(observation, action, reward, observation_, int(done))
        loss = agent.learn()
        observation = observation_
        n_steps += 1
    scores.append(score)
    print(f"episode {i} score {score:.1f} average {np.mean(scores[-100:]):.2f} epsilon {agent.epsilon:.2f} "
          f"steps {n_steps} loss {loss}")
