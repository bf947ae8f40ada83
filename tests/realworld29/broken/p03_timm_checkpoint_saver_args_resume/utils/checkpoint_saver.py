import os
import shutil

import torch


class CheckpointSaver:
    def __init__(self, model, optimizer, args=None, checkpoint_prefix="checkpoint", checkpoint_dir="",
                 max_history=10, decreasing=False):
        self.model = model
        self.optimizer = optimizer
        self.args = args
        self.checkpoint_files = []
        self.best_metric = None
        self.checkpoint_dir = checkpoint_dir
        self.save_prefix = checkpoint_prefix
        self.extension = ".pth.tar"
        self.max_history = max_history
        self.cmp = (lambda x, y: x < y) if decreasing else (lambda x, y: x > y)

    def save_checkpoint(self, epoch, metric=None):
        last_save_path = os.path.join(self.checkpoint_dir, "last" + self.extension)
        self._save(last_save_path, epoch, metric)
        filename = "-".join([self.save_prefix, str(epoch)]) + self.extension
        save_path = os.path.join(self.checkpoint_dir, filename)
        shutil.copyfile(last_save_path, save_path)
        self.checkpoint_files.append((save_path, metric))
        if self.best_metric is None or self.cmp(metric, self.best_metric):
            self.best_metric = metric
            shutil.copyfile(last_save_path, os.path.join(self.checkpoint_dir, "model_best" + self.extension))
        while len(self.checkpoint_files) > self.max_history:
            os.remove(self.checkpoint_files.pop(0)[0])
        return self.best_metric

    def _save(self, save_path, epoch, metric=None):
        save_state = {
            "epoch": epoch,
            "arch": type(self.model).__name__.lower(),
            "state_dict": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "version": 2,
        }
        if self.args is not None:
            save_state["arch"] = self.args.model
            save_state["args"] = self.args  # root-cause
        if metric is not None:
            save_state["metric"] = metric
        torch.save(save_state, save_path)
