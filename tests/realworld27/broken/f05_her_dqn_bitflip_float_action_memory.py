"""DQN with hindsight experience replay on the bit-flipping task (Hindsight-Experience-Replay DQNAgentWithHER layout): the replay memory allocates its action buffer as float32 like the state buffers, so the sampled actions come back as a FloatTensor and q_eval(...)[batches, action] uses float indices
source: https://github.com/hemilpanchiwala/Hindsight-Experience-Replay/issues/1
reported-error: IndexError: tensors used as indices must be long, byte or bool tensors (DQNAgentWithHER.py line 106, q_pred = self.q_eval.forward(concat_state_goal)[batches, action]; action.dtype torch.float32)
outcome: IndexError: tensors used as indices must be long, int, byte or bool tensors at line 98
root-cause: line 39
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn

N_BITS = 8
args = {"lr": 1e-3, "gamma": 0.98, "batch_size": 16, "memory_size": 2000, "epsilon": 0.2, "episodes": 30}


# ---- BitFlipEnvironment.py
class BitFlipEnvironment:
    def __init__(self, bits, rng):
        self.bits, self.rng = bits, rng

    def reset(self):
        self.state = self.rng.integers(0, 2, self.bits).astype(np.float32)
        self.goal = self.rng.integers(0, 2, self.bits).astype(np.float32)
        return self.state.copy(), self.goal.copy()

    def step(self, action):
        self.state[action] = 1.0 - self.state[action]
        done = bool((self.state == self.goal).all())
        return self.state.copy(), (0.0 if done else -1.0), done


# ---- HERMemory.py
class HindsightExperienceReplayMemory:
    def __init__(self, memory_size, input_dims):
        self.max_mem_size, self.counter = memory_size, 0
        self.state_memory = np.zeros((memory_size, input_dims), dtype=np.float32)
        self.next_state_memory = np.zeros((memory_size, input_dims), dtype=np.float32)
        self.reward_memory = np.zeros(memory_size, dtype=np.float32)
        self.action_memory = np.zeros(memory_size, dtype=np.float32)  # root-cause
        self.terminal_memory = np.zeros(memory_size, dtype=bool)
        self.goal_memory = np.zeros((memory_size, input_dims // 2), dtype=np.float32)

    def add_experience(self, state, action, reward, next_state, done, goal):
        i = self.counter % self.max_mem_size
        self.state_memory[i], self.action_memory[i], self.reward_memory[i] = state, action, reward
        self.next_state_memory[i], self.terminal_memory[i], self.goal_memory[i] = next_state, done, goal
        self.counter += 1

    def get_random_batch(self, batch_size, rng):
        batch = rng.choice(min(self.counter, self.max_mem_size), batch_size, replace=False)
        return (self.state_memory[batch], self.action_memory[batch], self.reward_memory[batch],
                self.next_state_memory[batch], self.terminal_memory[batch], self.goal_memory[batch])


# ---- DQNModel.py
class DeepQNetwork(nn.Module):
    def __init__(self, input_dims, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(input_dims, 64)
        self.fc2 = nn.Linear(64, n_actions)

    def forward(self, data):
        return self.fc2(torch.relu(self.fc1(data)))


# ---- DQNAgentWithHER.py
class DQNAgentWithHER:
    def __init__(self, n_bits, cfg, rng):
        self.cfg, self.rng, self.n_actions = cfg, rng, n_bits
        self.memory = HindsightExperienceReplayMemory(cfg["memory_size"], 2 * n_bits)
        self.q_eval = DeepQNetwork(2 * n_bits, n_bits)
        self.q_next = DeepQNetwork(2 * n_bits, n_bits)
        self.q_next.load_state_dict(self.q_eval.state_dict())
        self.optimizer = torch.optim.Adam(self.q_eval.parameters(), lr=cfg["lr"])
        self.loss = nn.MSELoss()

    def choose_action(self, observation, goal):
        if self.rng.random() < self.cfg["epsilon"]:
            return int(self.rng.integers(self.n_actions))
        concat = torch.tensor(np.concatenate([observation, goal]))
        return int(self.q_eval(concat).argmax().item())

    def store_experience(self, state, action, reward, next_state, done, goal):
        self.memory.add_experience(np.concatenate([state, goal]), action, reward,
                                   np.concatenate([next_state, goal]), done, goal)

    def learn(self):
        if self.memory.counter < self.cfg["batch_size"]:
            return None
        state, action, reward, next_state, done, goal = self.memory.get_random_batch(self.cfg["batch_size"], self.rng)
        concat_state_goal = torch.tensor(state)
        concat_next_state_goal = torch.tensor(next_state)
        action = torch.tensor(action)
        reward = torch.tensor(reward)
        done = torch.tensor(done)
        batches = np.arange(self.cfg["batch_size"])

        q_pred = self.q_eval.forward(concat_state_goal)[batches, action]  # fails-here
        q_next = self.q_next.forward(concat_next_state_goal).max(dim=1)[0]
        q_next[done] = 0.0
        q_target = reward + self.cfg["gamma"] * q_next
        loss = self.loss(q_target, q_pred)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    rng = np.random.default_rng(0)
    env = BitFlipEnvironment(N_BITS, rng)
    agent = DQNAgentWithHER(N_BITS, args, rng)
    for episode in range(args["episodes"]):
        state, goal = env.reset()
        transitions = []
        for _ in range(N_BITS):
            action = agent.choose_action(state, goal)
            next_state, reward, done = env.step(action)
            agent.store_experience(state, action, reward, next_state, done, goal)
            transitions.append((state, action, next_state))
            state = next_state
            if done:
                break
        new_goal = np.copy(state)
        for s, a, ns in transitions:
            agent.store_experience(s, a, 0.0 if (ns == new_goal).all() else -1.0, ns, bool((ns == new_goal).all()), new_goal)
        loss = agent.learn()
        if loss is not None and episode % 10 == 0:
            print(f"episode {episode} loss {loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
