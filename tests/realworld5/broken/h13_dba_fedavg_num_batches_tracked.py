"""Federated averaging (DBA helper): the aggregated update is scaled by a float factor and added in place to every state_dict entry, including BatchNorm's int64 num_batches_tracked
source: https://github.com/AI-secure/DBA/issues/1
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (data.add_(update_per_layer) in average_shrink_models)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 49
root-cause: line 48
expect: DG004
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class CifarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


class Helper:
    def __init__(self, params):
        self.params = params
        self.target_model = CifarNet()

    def local_train(self, model, steps=2):
        opt = torch.optim.SGD(model.parameters(), lr=self.params["lr"])
        for _ in range(steps):
            x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return model

    def accumulate_weight(self, weight_accumulator, local_model):
        for name, data in local_model.state_dict().items():
            weight_accumulator[name].add_(data - self.target_model.state_dict()[name])

    def average_shrink_models(self, weight_accumulator, target_model, epoch_interval):
        for name, data in target_model.state_dict().items():
            update_per_layer = weight_accumulator[name] * (self.params["eta"] / self.params["no_models"])  # root-cause
            data.add_(update_per_layer)  # fails-here
        return True


def main():
    params = {"lr": 0.1, "eta": 1.0, "no_models": 3, "epochs": 2, "aggr_epoch_interval": 1}
    helper = Helper(params)
    for epoch in range(params["epochs"]):
        weight_accumulator = {name: torch.zeros_like(data) for name, data in helper.target_model.state_dict().items()}
        for _ in range(params["no_models"]):
            local = helper.local_train(copy.deepcopy(helper.target_model))
            helper.accumulate_weight(weight_accumulator, local)
        helper.average_shrink_models(weight_accumulator, helper.target_model,
                                     epoch_interval=params["aggr_epoch_interval"])
        print("epoch", epoch, "aggregated")


if __name__ == "__main__":
    main()
