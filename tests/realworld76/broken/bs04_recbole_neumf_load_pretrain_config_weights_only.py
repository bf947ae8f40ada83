"""RecBole-style three-stage NeuMF (re-typed: Config, an interaction dataset, GeneralRecommender/MLPLayers/NeuMF with load_pretrain, a Trainer whose _save_checkpoint stores {config, epoch, cur_step, best_valid_score, state_dict, other_parameter, optimizer}, run_recbole): GMF and MLP are pretrained separately, then the fused NeuMF is built with use_pretrain=True and load_pretrain() reads both pretraining checkpoints with torch.load(path, map_location="cpu") under the weights_only=True default, which refuses the files the trainer wrote: torch.save(..., pickle_protocol=4) frames the pickle (opcode 149, FRAME, is not in the weights-only unpickler), and the state also holds the Config object
source: https://github.com/RUCAIBox/RecBole/issues/2212
reported-error: "NeuMF.load_pretrain() fails on PyTorch >= 2.6 because torch.load() now defaults to weights_only=True. The torch.load(path) calls in recbole/model/general_recommender/neumf.py need an explicit weights_only=False to load pretrained GMF/MLP checkpoints. ... # Stage 3: fused fine-tune with pretrained weights (fails) ... _pickle.UnpicklingError: Weights only load failed" (fix proposed in PR #2219: weights_only=False on both loads)
outcome: _pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. ... WeightsUnpickler error: Unsupported operand 149 (the FRAME opcode of pickle protocol 4) ... at line 115
root-cause: line 115
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.nn.init import normal_

torch.manual_seed(2020)
SAVED_DIR = tempfile.mkdtemp()


class Config:
    """Stand-in for recbole.config.Config: final_config_dict plus item access."""

    def __init__(self, model, dataset, config_dict):
        self.final_config_dict = {"model": model, "dataset": dataset, "epochs": 3, "learning_rate": 0.001,
                                  "train_batch_size": 256, "LABEL_FIELD": "label", "USER_ID_FIELD": "user_id",
                                  "ITEM_ID_FIELD": "item_id", "mf_embedding_size": 8, "mlp_embedding_size": 8,
                                  "mlp_hidden_size": [16, 8], "dropout_prob": 0.1, "mf_train": True,
                                  "mlp_train": True, "use_pretrain": False, "mf_pretrain_path": None,
                                  "mlp_pretrain_path": None, "checkpoint_dir": SAVED_DIR}
        self.final_config_dict.update(config_dict)

    def __getitem__(self, item):
        return self.final_config_dict.get(item)

    def __contains__(self, key):
        return key in self.final_config_dict


class InteractionDataset:
    """ml-100k-like implicit feedback with 4 sampled negatives per positive (train_neg_sample_args)."""

    def __init__(self, n_users=60, n_items=80, seed=7):
        rng = np.random.RandomState(seed)
        self.n_users, self.n_items = n_users, n_items
        taste = rng.randn(n_users, 4) @ rng.randn(4, n_items)
        pos_u, pos_i = np.nonzero(taste > 1.2)
        neg_u = np.repeat(pos_u, 4)
        neg_i = rng.randint(0, n_items, size=len(neg_u))
        self.user = np.concatenate([pos_u, neg_u])
        self.item = np.concatenate([pos_i, neg_i])
        self.label = np.concatenate([np.ones(len(pos_u)), np.zeros(len(neg_u))])

    def batches(self, batch_size, rng):
        order = rng.permutation(len(self.user))
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            yield {"user_id": torch.from_numpy(self.user[idx]), "item_id": torch.from_numpy(self.item[idx]),
                   "label": torch.from_numpy(self.label[idx]).float()}


class GeneralRecommender(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.USER_ID, self.ITEM_ID = config["USER_ID_FIELD"], config["ITEM_ID_FIELD"]
        self.n_users, self.n_items = dataset.n_users, dataset.n_items

    def other_parameter(self):
        if hasattr(self, "other_parameter_name"):
            return {key: getattr(self, key) for key in self.other_parameter_name}
        return dict()


class MLPLayers(nn.Module):
    def __init__(self, layers, dropout=0.0):
        super().__init__()
        mlp_modules = []
        for input_size, output_size in zip(layers[:-1], layers[1:]):
            mlp_modules += [nn.Dropout(p=dropout), nn.Linear(input_size, output_size), nn.ReLU()]
        self.mlp_layers = nn.Sequential(*mlp_modules)

    def forward(self, input_feature):
        return self.mlp_layers(input_feature)


class NeuMF(GeneralRecommender):
    def __init__(self, config, dataset):
        super().__init__(config, dataset)
        self.LABEL = config["LABEL_FIELD"]
        self.mf_embedding_size = config["mf_embedding_size"]
        self.mlp_embedding_size = config["mlp_embedding_size"]
        self.mlp_hidden_size = config["mlp_hidden_size"]
        self.mf_train, self.mlp_train = config["mf_train"], config["mlp_train"]
        self.use_pretrain = config["use_pretrain"]
        self.mf_pretrain_path, self.mlp_pretrain_path = config["mf_pretrain_path"], config["mlp_pretrain_path"]
        self.user_mf_embedding = nn.Embedding(self.n_users, self.mf_embedding_size)
        self.item_mf_embedding = nn.Embedding(self.n_items, self.mf_embedding_size)
        self.user_mlp_embedding = nn.Embedding(self.n_users, self.mlp_embedding_size)
        self.item_mlp_embedding = nn.Embedding(self.n_items, self.mlp_embedding_size)
        self.mlp_layers = MLPLayers([2 * self.mlp_embedding_size] + self.mlp_hidden_size, config["dropout_prob"])
        if self.mf_train and self.mlp_train:
            self.predict_layer = nn.Linear(self.mf_embedding_size + self.mlp_hidden_size[-1], 1)
        elif self.mf_train:
            self.predict_layer = nn.Linear(self.mf_embedding_size, 1)
        elif self.mlp_train:
            self.predict_layer = nn.Linear(self.mlp_hidden_size[-1], 1)
        self.sigmoid = nn.Sigmoid()
        self.loss = nn.BCEWithLogitsLoss()
        if self.use_pretrain:
            self.load_pretrain()
        else:
            self.apply(self._init_weights)

    def load_pretrain(self):
        r"""A simple implementation of loading pretrained parameters."""
        mf = torch.load(self.mf_pretrain_path, map_location="cpu")  # root-cause  # fails-here
        mlp = torch.load(self.mlp_pretrain_path, map_location="cpu")
        mf = mf if "state_dict" not in mf else mf["state_dict"]
        mlp = mlp if "state_dict" not in mlp else mlp["state_dict"]
        self.user_mf_embedding.weight.data.copy_(mf["user_mf_embedding.weight"])
        self.item_mf_embedding.weight.data.copy_(mf["item_mf_embedding.weight"])
        self.user_mlp_embedding.weight.data.copy_(mlp["user_mlp_embedding.weight"])
        self.item_mlp_embedding.weight.data.copy_(mlp["item_mlp_embedding.weight"])
        mlp_layers = list(self.mlp_layers.state_dict().keys())
        index = 0
        for layer in self.mlp_layers.mlp_layers:
            if isinstance(layer, nn.Linear):
                weight_key = "mlp_layers." + mlp_layers[index]
                bias_key = "mlp_layers." + mlp_layers[index + 1]
                assert layer.weight.shape == mlp[weight_key].shape, "mlp layer parameter shape mismatch"
                layer.weight.data.copy_(mlp[weight_key])
                layer.bias.data.copy_(mlp[bias_key])
                index += 2
        predict_weight = torch.cat([mf["predict_layer.weight"], mlp["predict_layer.weight"]], dim=1)
        predict_bias = mf["predict_layer.bias"] + mlp["predict_layer.bias"]
        self.predict_layer.weight.data.copy_(predict_weight)
        self.predict_layer.bias.data.copy_(0.5 * predict_bias)

    def _init_weights(self, module):
        if isinstance(module, nn.Embedding):
            normal_(module.weight.data, mean=0.0, std=0.01)

    def forward(self, user, item):
        if self.mf_train:
            mf_output = torch.mul(self.user_mf_embedding(user), self.item_mf_embedding(item))
        if self.mlp_train:
            mlp_output = self.mlp_layers(torch.cat((self.user_mlp_embedding(user), self.item_mlp_embedding(item)), -1))
        if self.mf_train and self.mlp_train:
            output = self.predict_layer(torch.cat((mf_output, mlp_output), -1))
        elif self.mf_train:
            output = self.predict_layer(mf_output)
        else:
            output = self.predict_layer(mlp_output)
        return output.squeeze(-1)

    def calculate_loss(self, interaction):
        output = self.forward(interaction[self.USER_ID], interaction[self.ITEM_ID])
        return self.loss(output, interaction[self.LABEL])


class Trainer:
    def __init__(self, config, model):
        self.config, self.model = config, model
        self.epochs = config["epochs"]
        self.optimizer = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])
        self.cur_step, self.best_valid_score, self.start_epoch = 0, -np.inf, 0
        tag = "GMF" if not config["mlp_train"] else ("MLP" if not config["mf_train"] else "NeuMF")
        self.saved_model_file = os.path.join(config["checkpoint_dir"], "{}-{}.pth".format(config["model"], tag))

    def _save_checkpoint(self, epoch, verbose=True):
        state = {
            "config": self.config,
            "epoch": epoch,
            "cur_step": self.cur_step,
            "best_valid_score": self.best_valid_score,
            "state_dict": self.model.state_dict(),
            "other_parameter": self.model.other_parameter(),
            "optimizer": self.optimizer.state_dict(),
        }
        torch.save(state, self.saved_model_file, pickle_protocol=4)
        if verbose:
            print("Saving current: {}".format(self.saved_model_file))

    def fit(self, train_data, rng):
        for epoch_idx in range(self.start_epoch, self.epochs):
            self.model.train()
            total = 0.0
            for interaction in train_data.batches(self.config["train_batch_size"], rng):
                self.optimizer.zero_grad()
                loss = self.model.calculate_loss(interaction)
                loss.backward()
                self.optimizer.step()
                total += loss.item()
            print("epoch {} training loss: {:.4f}".format(epoch_idx, total))
            self._save_checkpoint(epoch_idx, verbose=epoch_idx == self.epochs - 1)
        return self.saved_model_file


def run_recbole(model="NeuMF", dataset="ml-100k", config_dict=None):
    config = Config(model, dataset, config_dict or {})
    data = InteractionDataset()
    rng = np.random.RandomState(2020)
    net = NeuMF(config, data)
    trainer = Trainer(config, net)
    return trainer.fit(data, rng)


# Stage 1 & 2: train GMF and MLP separately (works fine)
gmf_ckpt = run_recbole(model="NeuMF", config_dict={"mf_train": True, "mlp_train": False, "use_pretrain": False})
mlp_ckpt = run_recbole(model="NeuMF", config_dict={"mf_train": False, "mlp_train": True, "use_pretrain": False})
# Stage 3: fused fine-tune with pretrained weights
run_recbole(model="NeuMF", config_dict={"mf_train": True, "mlp_train": True, "use_pretrain": True,
                                        "mf_pretrain_path": gmf_ckpt, "mlp_pretrain_path": mlp_ckpt,
                                        "epochs": 3, "learning_rate": 0.0001})
