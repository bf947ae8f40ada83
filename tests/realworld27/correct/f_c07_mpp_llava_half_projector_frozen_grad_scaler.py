"""Mixed-precision trainer from the same multimodal-LLM experiment where the float16 vision projector is frozen right after .half() (model[0].requires_grad_(False), the alternative the repo comments), so only the float32 stage has gradients and GradScaler.step unscales float32 grads under autocast
source: https://github.com/Coobiw/MPP-LLaVA/blob/525dfaf5eaa36393daf4cc1117283e0e78615d85/amp_and_grad-checkpointing/amp/test_amp_fp16.py
reported-error: none (fixed version: the half-precision stage does not require grad)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

train_cfg = {"device": "cpu", "amp_dtype": torch.float16, "lr": 0.01, "epochs": 2, "steps_per_epoch": 3,
             "vision_dim": 10, "hidden": 20, "half_vision_proj": True}


def build_model(cfg):
    model = nn.ModuleList([nn.Linear(cfg["vision_dim"], cfg["hidden"]), nn.Linear(cfg["hidden"], cfg["vision_dim"])])
    if cfg["half_vision_proj"]:
        model[0].half()
        model[0].requires_grad_(False)
    return model.to(cfg["device"])


class AmpTrainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
        self.scaler = torch.amp.GradScaler(cfg["device"])
        self.criterion = nn.MSELoss()

    def train_step(self, input_data, target):
        self.optimizer.zero_grad()
        with torch.autocast(device_type=self.cfg["device"], dtype=self.cfg["amp_dtype"]):
            output = self.model[1](self.model[0](input_data))
            loss = self.criterion(output, target)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()

    def fit(self):
        for epoch in range(self.cfg["epochs"]):
            for _ in range(self.cfg["steps_per_epoch"]):
                input_data = torch.randn(10, self.cfg["vision_dim"], device=self.cfg["device"])
                target = torch.randn(10, self.cfg["vision_dim"], device=self.cfg["device"])
                loss = self.train_step(input_data, target)
            print(f"epoch {epoch} loss {loss:.4f} grad dtypes "
                  f"{[p.grad.dtype for p in self.model.parameters() if p.grad is not None]}")


if __name__ == "__main__":
    torch.manual_seed(0)
    AmpTrainer(build_model(train_cfg), train_cfg).fit()
