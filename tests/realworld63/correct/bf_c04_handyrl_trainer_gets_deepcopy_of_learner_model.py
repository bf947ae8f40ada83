"""The HandyRL-style learner/worker loop of bf04 (DeNA/HandyRL PR #339) with the PR's fix: the Trainer gets copy.deepcopy(self.model), so the trainer's GPU copy (simulated cuda:0 storages) is its own and the epoch-0 model the learner pickles for a CPU-only worker stays on the CPU; the worker plays, the trainer returns its CPU deepcopy and the learner serves it as epoch 1; the plain pickle.loads on the worker and the simulated GPU trainer are kept
source: https://github.com/DeNA/HandyRL/pull/339
reported-error: (none filed; the fixed situation of bf04)
outcome: ok
root-cause: -
expect: none
"""
import copy
import pickle
import threading

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization

torch.manual_seed(0)

# --- the learner machine has a GPU (simulated): storages created by .cuda() are written as cuda:0 ---
GPU_STORAGES = set()
_location_tag = serialization.location_tag


def module_cuda(module):
    for p in module.parameters():
        p.data = p.data.clone()
        GPU_STORAGES.add(p.data.untyped_storage().data_ptr())
    return module


def module_cpu(module):
    for p in module.parameters():
        GPU_STORAGES.discard(p.data.untyped_storage().data_ptr())
        p.data = p.data.clone()
    return module


class TicTacToeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.head_p = nn.Linear(16 * 9, 9)
        self.head_v = nn.Linear(16 * 9, 1)

    def forward(self, x, hidden=None):
        h = F.relu(self.conv(x)).flatten(1)
        return {"policy": self.head_p(h), "value": torch.tanh(self.head_v(h))}


class Trainer:
    def __init__(self, args, model):
        self.args = args
        self.gpu = 1
        self.model = model
        self.params = list(self.model.parameters())
        self.optimizer = torch.optim.Adam(self.params, lr=1e-3, weight_decay=1e-5)
        self.steps = 0
        self.update_flag = False
        self.started = threading.Event()
        self.trained_model = self.model

    def train(self):
        if self.gpu > 0:
            module_cuda(self.trained_model)
        self.trained_model.train()
        self.started.set()
        while not self.update_flag and self.steps < 2000:
            obs = torch.rand(self.args["batch_size"], 3, 3, 3)
            out = self.trained_model(obs)
            loss = F.cross_entropy(out["policy"], torch.randint(0, 9, (len(obs),))) + out["value"].pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.steps += 1
        module_cpu(self.model)
        self.model.eval()
        return copy.deepcopy(self.model)


class Learner:
    def __init__(self, args, net):
        self.args = args
        self.model_epoch = 0
        self.model = net
        self.trainer = Trainer(args, copy.deepcopy(self.model))

    def handle(self, req, data):
        send_data = []
        if req == "model":
            for model_id in data:
                model = self.model
                send_data.append(pickle.dumps(model))
        return send_data[0]


class Worker:
    def __init__(self, learner):
        self.learner = learner
        self.latest_model = -1, None

    def _gather_models(self, model_ids):
        model_pool = {}
        for model_id in model_ids:
            if model_id not in model_pool:
                model = pickle.loads(self.learner_reply(("model", [model_id])))
                model_pool[model_id] = model
        return model_pool

    def learner_reply(self, request):
        return self.reply

    def play(self, model_ids):
        models = self._gather_models(model_ids)
        obs = torch.zeros(1, 3, 3, 3)
        with torch.no_grad():
            return {p: models[m](obs)["policy"].argmax().item() for p, m in enumerate(model_ids)}


args = {"batch_size": 32, "minimum_episodes": 1}
learner = Learner(args, TicTacToeNet())
trainer_thread = threading.Thread(target=lambda: setattr(learner.trainer, "train_result", learner.trainer.train()), daemon=True)
trainer_thread.start()
learner.trainer.started.wait()

# the learner (GPU process) answers a reconnected worker's request for the 0th model
serialization.location_tag = lambda s: "cuda:0" if s.data_ptr() in GPU_STORAGES else _location_tag(s)
reply = learner.handle("model", [0])
serialization.location_tag = _location_tag

# the worker runs on a CPU-only machine
worker = Worker(learner)
worker.reply = reply
try:
    print("worker moves:", worker.play([0, 0]))
finally:
    learner.trainer.update_flag = True
    trainer_thread.join()
learner.model, learner.model_epoch = learner.trainer.train_result, 1
serialization.location_tag = lambda s: "cuda:0" if s.data_ptr() in GPU_STORAGES else _location_tag(s)
reply = learner.handle("model", [1])
serialization.location_tag = _location_tag
worker.reply = reply
print("trainer steps:", learner.trainer.steps, "epoch-1 worker moves:", worker.play([1, 1]))
