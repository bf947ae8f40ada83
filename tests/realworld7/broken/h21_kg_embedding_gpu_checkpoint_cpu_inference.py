"""Knowledge-graph embedding (TransE): trained with -device cuda and saved, then the model file is copied to a CPU-only machine where the inference script reloads it with torch.load
source: https://github.com/Sujit-O/pykg2vec/issues/223
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 50
root-cause: line 50
expect: DG010
"""
import argparse
import contextlib
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


@contextlib.contextmanager
def as_saved_on_gpu_machine():
    """The training run happened on a CUDA machine: its storages are tagged cuda:0."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


class TransE(nn.Module):
    def __init__(self, tot_entity, tot_relation, hidden_size=16, l1_flag=True):
        super().__init__()
        self.ent_embeddings = nn.Embedding(tot_entity, hidden_size)
        self.rel_embeddings = nn.Embedding(tot_relation, hidden_size)
        self.l1_flag = l1_flag

    def forward(self, h, r, t):
        d = self.ent_embeddings(h) + self.rel_embeddings(r) - self.ent_embeddings(t)
        return d.abs().sum(-1) if self.l1_flag else d.pow(2).sum(-1)


class Trainer:
    def __init__(self, model, config):
        self.model, self.config = model, config

    def save_model(self):
        with as_saved_on_gpu_machine():
            torch.save(self.model.state_dict(), self.config.model_path)

    def load_model(self, model_path):
        self.model.load_state_dict(torch.load(model_path))  # root-cause # fails-here
        self.model.to(self.config.device)

    def infer_tails(self, h, r, topk=3):
        with torch.no_grad():
            all_t = torch.arange(self.model.ent_embeddings.num_embeddings, device=self.config.device)
            scores = self.model(h.expand_as(all_t), r.expand_as(all_t), all_t)
        return scores.topk(topk, largest=False).indices.tolist()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("-mn", "--model_name", default="transe")
    parser.add_argument("--model_path", default=os.path.join(tempfile.mkdtemp(), "transe.pt"))
    config = parser.parse_args()
    trained = Trainer(TransE(20, 4), config)
    trained.save_model()
    inference = Trainer(TransE(20, 4), config)
    inference.load_model(config.model_path)
    print("tails:", inference.infer_tails(torch.tensor(3, device=config.device), torch.tensor(1, device=config.device)))


if __name__ == "__main__":
    main()
