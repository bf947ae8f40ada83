"""Part-segmentation trainer whose visualizer appends the current error tensors (still on the GPU) to a list and later calls np.array on it
source: https://github.com/lijx10/SO-Net/issues/41
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. (from np.array(self.plot_data['Y']) via Tensor.__array__)
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 24; on CPU: ok
root-cause: line 49
expect: DG009
"""
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn


class Visualizer:
    def __init__(self):
        self.plot_data = {"X": [], "Y": [], "legend": None}

    def plot_current_errors(self, epoch, counter_ratio, opt, errors):
        if self.plot_data["legend"] is None:
            self.plot_data["legend"] = list(errors.keys())
        self.plot_data["X"].append(epoch + counter_ratio)
        self.plot_data["Y"].append([errors[k] for k in self.plot_data["legend"]])
        print(np.array(self.plot_data["Y"]))  # fails-here


class Model:
    def __init__(self, opt):
        self.opt = opt
        self.encoder = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, opt["classes"], 1)).to(opt["device"])
        self.optimizer = torch.optim.Adam(self.encoder.parameters(), lr=opt["lr"])
        self.softmax_criteria = nn.CrossEntropyLoss()

    def set_input(self, pc, seg):
        self.input_pc = pc.to(self.opt["device"])
        self.input_seg = seg.to(self.opt["device"])

    def optimize(self):
        self.score_segmenter = self.encoder(self.input_pc)
        self.loss_segmenter = self.softmax_criteria(self.score_segmenter, self.input_seg)
        self.optimizer.zero_grad()
        self.loss_segmenter.backward()
        self.optimizer.step()

    def get_current_errors(self):
        _, predicted_seg = torch.max(self.score_segmenter.data, dim=1)
        self.train_accuracy_segmenter = (predicted_seg == self.input_seg).float().mean().item()
        return OrderedDict([
            ("train_loss_seg", self.loss_segmenter.data),  # root-cause
            ("train_accuracy_seg", self.train_accuracy_segmenter),
        ])


if __name__ == "__main__":
    opt = {"device": torch.device("cuda:0" if torch.cuda.is_available() else "cpu"), "lr": 1e-3, "classes": 4}
    model, visualizer = Model(opt), Visualizer()
    dataset_size, batch_size = 32, 8
    for epoch in range(2):
        epoch_iter = 0
        for i in range(dataset_size // batch_size):
            epoch_iter += batch_size
            model.set_input(torch.rand(batch_size, 3, 128), torch.randint(0, 4, (batch_size, 128)))
            model.optimize()
            if i % 2 == 0:
                errors = model.get_current_errors()
                visualizer.plot_current_errors(epoch, float(epoch_iter) / dataset_size, opt, errors)
