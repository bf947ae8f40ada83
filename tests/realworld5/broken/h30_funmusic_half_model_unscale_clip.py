"""Music-LM fine-tune executor: the config's mixed-precision flag casts the LLM to fp16 and also enables GradScaler; unscale_ before gradient clipping fails
source: https://github.com/QwenAudio/FunMusic/issues/28
reported-error: ValueError: Attempting to unscale FP16 gradients. (scaler.unscale_(optimizer) in update_parameter_and_lr)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 35
root-cause: line 66
expect: DG014
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

configs = {
    "train_conf": {"dtype": "fp16", "use_amp": True, "grad_clip": 5.0, "accum_grad": 1, "max_epoch": 1},
    "optim_conf": {"lr": 1e-4},
}


class MusicLLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.lstm(self.emb(tokens[:, :-1]))
        logits = self.out(h).float()
        return {"loss": F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))}


def update_parameter_and_lr(model, optimizer, scheduler, info_dict, scaler=None):
    grad_norm = 0.0
    if (info_dict["batch_idx"] + 1) % info_dict["accum_grad"] == 0:
        if scaler is not None:
            scaler.unscale_(optimizer)  # fails-here
            grad_norm = nn.utils.clip_grad_norm_(model.parameters(), info_dict["grad_clip"])
            scaler.step(optimizer)
            scaler.update()
        else:
            grad_norm = nn.utils.clip_grad_norm_(model.parameters(), info_dict["grad_clip"])
            optimizer.step()
        optimizer.zero_grad()
        scheduler.step()
    info_dict["grad_norm"] = grad_norm
    return info_dict


class Executor:
    def train_one_epoch(self, model, optimizer, scheduler, data_loader, info_dict, scaler=None):
        model.train()
        for batch_idx, tokens in enumerate(data_loader):
            info_dict["batch_idx"] = batch_idx
            loss = model(tokens)["loss"] / info_dict["accum_grad"]
            if scaler is not None:
                scaler.scale(loss).backward()
            else:
                loss.backward()
            info_dict = update_parameter_and_lr(model, optimizer, scheduler, info_dict, scaler)
            print("batch", batch_idx, "loss", loss.item())


def main():
    train_conf = configs["train_conf"]
    model = MusicLLM()
    if train_conf["dtype"] == "fp16":
        model = model.half()  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), **configs["optim_conf"])
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0)
    scaler = torch.amp.GradScaler("cpu" if not torch.cuda.is_available() else "cuda") if train_conf["use_amp"] else None
    data = [torch.randint(0, 64, (4, 20)) for _ in range(3)]
    info_dict = dict(train_conf)
    Executor().train_one_epoch(model, optimizer, scheduler, data, info_dict, scaler=scaler)


if __name__ == "__main__":
    main()
