"""MR segmentation inference on nnU-Net v2 checkpoints written by the same training run (a NumPy float64 _best_ema inside), restored with torch.load(path, map_location=cpu, weights_only=False) as nnU-Net does for its own trusted checkpoints, so the full pickle loads
source: https://github.com/hhaentze/MRSegmentator/issues/19
reported-error: none (fixed version: weights_only=False for checkpoints the pipeline wrote itself)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from os.path import join

import numpy as np
import torch
import torch.nn as nn


# ---- nnunetv2/network_architecture (tiny stand-in for the PlainConvUNet)
class PlainConvUNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv3d(in_channels, 8, 3, padding=1), nn.InstanceNorm3d(8), nn.LeakyReLU())
        self.seg_head = nn.Conv3d(8, num_classes, 1)

    def forward(self, x):
        return self.seg_head(self.encoder(x))


# ---- nnunetv2/training/logging/nnunet_logger.py
class nnUNetLogger:
    def __init__(self):
        self.my_fantastic_logging = {"mean_fg_dice": [], "ema_fg_dice": []}

    def log(self, key, value):
        self.my_fantastic_logging[key].append(value)
        if key == "mean_fg_dice":
            prev = self.my_fantastic_logging["ema_fg_dice"]
            new_ema = prev[-1] * 0.9 + 0.1 * value if prev else value
            self.my_fantastic_logging["ema_fg_dice"].append(new_ema)


# ---- nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py
class nnUNetTrainer:
    def __init__(self, output_folder, fold=0):
        self.output_folder = join(output_folder, f"fold_{fold}")
        os.makedirs(self.output_folder, exist_ok=True)
        self.network = PlainConvUNet()
        self.optimizer = torch.optim.SGD(self.network.parameters(), lr=1e-2, momentum=0.99, nesterov=True)
        self.logger = nnUNetLogger()
        self._best_ema = None
        self.current_epoch = 0

    def on_validation_epoch_end(self, tp, fp, fn):
        global_dc_per_class = [2 * i / (2 * i + j + k) for i, j, k in zip(tp, fp, fn)]
        mean_fg_dice = np.nanmean(global_dc_per_class)
        self.logger.log("mean_fg_dice", mean_fg_dice)

    def on_epoch_end(self):
        ema = self.logger.my_fantastic_logging["ema_fg_dice"][-1]
        if self._best_ema is None or ema > self._best_ema:
            self._best_ema = ema
            self.save_checkpoint(join(self.output_folder, "checkpoint_best.pth"))
        self.current_epoch += 1

    def save_checkpoint(self, filename):
        checkpoint = {
            "network_weights": self.network.state_dict(),
            "optimizer_state": self.optimizer.state_dict(),
            "logging": {"ema_fg_dice": [float(v) for v in self.logger.my_fantastic_logging["ema_fg_dice"]]},
            "_best_ema": self._best_ema,
            "current_epoch": self.current_epoch + 1,
            "trainer_name": self.__class__.__name__,
            "inference_allowed_mirroring_axes": (0, 1, 2),
        }
        torch.save(checkpoint, filename)


# ---- nnunetv2/inference/predict_from_raw_data.py
class nnUNetPredictor:
    def __init__(self, device=torch.device("cpu")):
        self.device = device

    def initialize_from_trained_model_folder(self, model_training_output_dir, use_folds, checkpoint_name="checkpoint_best.pth"):
        self.list_of_parameters = []
        for f in use_folds:
            checkpoint = torch.load(join(model_training_output_dir, f"fold_{f}", checkpoint_name),
                                    map_location=torch.device("cpu"), weights_only=False)
            self.list_of_parameters.append(checkpoint["network_weights"])
        self.network = PlainConvUNet()
        self.network.load_state_dict(self.list_of_parameters[0])
        return self

    @torch.no_grad()
    def predict_single_npy_array(self, image):
        logits = self.network(torch.from_numpy(image).float()[None].to(self.device))
        return logits.argmax(1)[0].numpy()


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    results = tempfile.mkdtemp()
    trainer = nnUNetTrainer(results, fold=0)
    for epoch in range(3):
        tp, fp, fn = rng.integers(50, 100, 3), rng.integers(0, 20, 3), rng.integers(0, 20, 3)
        trainer.on_validation_epoch_end(tp, fp, fn)
        trainer.on_epoch_end()
    predictor = nnUNetPredictor().initialize_from_trained_model_folder(results, use_folds=(0,))
    seg = predictor.predict_single_npy_array(rng.standard_normal((1, 8, 16, 16)).astype(np.float32))
    print("segmentation labels", np.unique(seg))
