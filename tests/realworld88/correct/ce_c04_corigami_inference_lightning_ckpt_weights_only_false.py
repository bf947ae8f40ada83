"""The C.Origami train-then-infer run of ce04 as PR #53 fixes it: load_checkpoint reads the Lightning checkpoint with torch.load(model_path, map_location=device, weights_only=False) (the file is the run's own ModelCheckpoint output, hyper_parameters still holding the argparse.Namespace), strips the "model." prefixes and predicts a Hi-C matrix
source: https://github.com/tanjimin/C.Origami/pull/53
reported-error: (none; the fixed situation of ce04)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

IMG = 32          # Hi-C matrix side (256 in C.Origami)
RES = 64          # sequence positions per matrix bin (8192 in C.Origami)


# ---- corigami/model (a small ConvTransModel) -------------------------------------------------------------------
class ConvTransModel(nn.Module):
    def __init__(self, num_genomic_features, mid_hidden=32):
        super().__init__()
        layers, cin = [], 5 + num_genomic_features
        for _ in range(6):  # 64 -> 1 per bin
            layers += [nn.Conv1d(cin, mid_hidden, 3, padding=1), nn.BatchNorm1d(mid_hidden), nn.ReLU(), nn.MaxPool1d(2)]
            cin = mid_hidden
        self.encoder = nn.Sequential(*layers)
        layer = nn.TransformerEncoderLayer(mid_hidden, 4, 2 * mid_hidden, batch_first=True)
        self.attn = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.decoder = nn.Sequential(nn.Conv2d(2 * mid_hidden, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))

    def move_feature_forward(self, x):
        return x.transpose(1, 2).contiguous()

    def diagonalize(self, x):
        x_i = x.unsqueeze(2).repeat(1, 1, IMG, 1)
        x_j = x.unsqueeze(3).repeat(1, 1, 1, IMG)
        return torch.cat([x_i, x_j], dim=1)

    def forward(self, x):
        x = self.move_feature_forward(x).float()
        x = self.encoder(x)
        x = self.move_feature_forward(x)
        x = self.attn(x)
        x = self.move_feature_forward(x)
        x = self.diagonalize(x)
        return self.decoder(x).squeeze(1)


# ---- synthetic GenomeDataset: one-hot DNA + CTCF/ATAC tracks -> Hi-C matrix --------------------------------------
def make_dataset(n):
    items = []
    for _ in range(n):
        seq = np.eye(5, dtype=np.float32)[rng.integers(0, 5, IMG * RES)]
        ctcf = rng.random(IMG * RES).astype(np.float32)
        atac = np.log1p(rng.random(IMG * RES)).astype(np.float32)
        peaks = ctcf.reshape(IMG, RES).mean(1)
        d = np.abs(np.arange(IMG)[:, None] - np.arange(IMG)[None, :])
        mat = np.exp(-d / 4.0) * (1 + np.outer(peaks, peaks))
        items.append((seq, [ctcf, atac], np.log1p(mat)))
    return items


def collate(batch):
    seq = torch.from_numpy(np.stack([b[0] for b in batch]))
    features = [torch.from_numpy(np.stack([b[1][k] for b in batch])) for k in range(2)]
    mat = torch.from_numpy(np.stack([b[2] for b in batch]))
    return seq, features, mat


# ---- training/main.py TrainModule (the LightningModule parts the run uses) --------------------------------------
class TrainModule(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.model = ConvTransModel(2, mid_hidden=32)
        self.args = args
        self.save_hyperparameters()

    def save_hyperparameters(self):
        """LightningModule.save_hyperparameters(): collects the __init__ arguments into self.hparams."""
        self.hparams = {"args": self.args}

    def forward(self, x):
        return self.model(x)

    def proc_batch(self, batch):
        seq, features, mat = batch
        features = torch.cat([feat.unsqueeze(2) for feat in features], dim=2)
        inputs = torch.cat([seq, features], dim=2)
        mat = mat.float()
        return inputs, mat

    def training_step(self, batch):
        inputs, mat = self.proc_batch(batch)
        return torch.nn.MSELoss()(self(inputs), mat)

    def validation_step(self, batch):
        with torch.no_grad():
            inputs, mat = self.proc_batch(batch)
            return torch.nn.MSELoss()(self(inputs), mat).item()


def model_checkpoint_save(pl_module, optimizer, epoch, global_step, val_loss, dirpath):
    """ModelCheckpoint(dirpath=f'{save_path}/models', monitor='val_loss') -> trainer.save_checkpoint(filepath)."""
    os.makedirs(dirpath, exist_ok=True)
    filepath = os.path.join(dirpath, f"epoch={epoch}-step={global_step}.ckpt")
    checkpoint = {
        "epoch": epoch,
        "global_step": global_step,
        "pytorch-lightning_version": "1.9.0",
        "state_dict": pl_module.state_dict(),
        "optimizer_states": [optimizer.state_dict()],
        "callbacks": {"ModelCheckpoint{'monitor': 'val_loss'}": {"best_model_score": torch.tensor(val_loss)}},
        "hyper_parameters": pl_module.hparams,
    }
    torch.save(checkpoint, filepath)
    return filepath


def init_training(args):
    pl_module = TrainModule(args)
    optimizer = torch.optim.Adam(pl_module.parameters(), lr=2e-3, weight_decay=0)
    train, val = make_dataset(24), make_dataset(8)
    best, best_path, step = float("inf"), None, 0
    for epoch in range(args.trainer_max_epochs):
        pl_module.train()
        order = rng.permutation(len(train))
        for i in range(0, len(train), args.dataloader_batch_size):
            batch = collate([train[j] for j in order[i:i + args.dataloader_batch_size]])
            optimizer.zero_grad()
            loss = pl_module.training_step(batch)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(pl_module.parameters(), 1.0)
            optimizer.step()
            step += 1
        pl_module.eval()
        val_loss = float(np.mean([pl_module.validation_step(collate(val[i:i + 4])) for i in range(0, len(val), 4)]))
        print(f"epoch {epoch}: val_loss {val_loss:.4f}")
        if val_loss < best:
            best = val_loss
            best_path = model_checkpoint_save(pl_module, optimizer, epoch, step, val_loss,
                                              f"{args.run_save_path}/models")
    return best_path


# ---- inference/utils/model_utils.py -----------------------------------------------------------------------------
def get_model(model_name, mid_hidden, num_genomic_features=2):
    ModelClass = {"ConvTransModel": ConvTransModel}[model_name]
    return ModelClass(num_genomic_features, mid_hidden=mid_hidden)


def load_checkpoint(model, model_path):
    print("Loading weights")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    checkpoint = torch.load(model_path, map_location=device, weights_only=False)
    model_weights = checkpoint["state_dict"]
    for key in list(model_weights):
        model_weights[key.replace("model.", "")] = model_weights.pop(key)
    model.load_state_dict(model_weights)
    model.eval()
    return model


def load_default(model_path):
    model = get_model("ConvTransModel", 32)
    load_checkpoint(model, model_path)
    return model


with tempfile.TemporaryDirectory() as tmp:
    parser = argparse.ArgumentParser(description="C.Origami Training Module.")
    parser.add_argument("--seed", dest="run_seed", default=2077, type=int)
    parser.add_argument("--save_path", dest="run_save_path", default="checkpoints")
    parser.add_argument("--data-root", dest="dataset_data_root", default="data")
    parser.add_argument("--assembly", dest="dataset_assembly", default="hg38")
    parser.add_argument("--celltype", dest="dataset_celltype", default="imr90")
    parser.add_argument("--max-epochs", dest="trainer_max_epochs", default=3, type=int)
    parser.add_argument("--batch-size", dest="dataloader_batch_size", default=8, type=int)
    args = parser.parse_args(["--save_path", os.path.join(tmp, "checkpoints"), "--data-root", tmp])

    ckpt = init_training(args)
    model = load_default(ckpt)
    seq, features, mat = collate(make_dataset(1))
    features = torch.cat([feat.unsqueeze(2) for feat in features], dim=2)
    with torch.no_grad():
        pred = model(torch.cat([seq, features], dim=2).to(next(model.parameters()).device)).cpu()
    print(f"prediction {tuple(pred.shape)}, corr with target "
          f"{np.corrcoef(pred.flatten().numpy(), mat.flatten().numpy())[0, 1]:.3f}")
