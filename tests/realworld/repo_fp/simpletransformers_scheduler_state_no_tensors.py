"""simpletransformers reloads its LR scheduler's state with a bare torch.load: a LambdaLR state dict holds no tensors

source: https://github.com/ThilinaRajapakse/simpletransformers/blob/03a3789f2c65119949f7cd98b524e78c6cc87d27/simpletransformers/t5/t5_model.py#L461
(the same code at language_modeling/language_modeling_model.py#L758, pretrain_retrieval/pretrain_retrieval_model.py#L472,
retrieval/retrieval_model.py#L790; written by save_model, t5_model.py#L1572)
false-alarm: DG010 at line 63: `scheduler.pt` is `scheduler.state_dict()` of the LambdaLR that
transformers' `get_linear_schedule_with_warmup` (and every other `get_*_schedule*` the repo picks) returns. Its
state is `base_lrs`, `last_epoch`, `_step_count`, `_last_lr` (Python floats and ints) and `lr_lambdas` (the
`__dict__` of the functools.partial, `{}`): no tensor, so no storage and no device tag, and it loads on a CPU-only
machine whatever device the run that wrote it used (and under weights_only=True). The repo's optimizer.pt load
just before it is a true DG010 (Adam's exp_avg/exp_avg_sq are on the parameters' device); here it is given
map_location (line 60). This reduction runs on the CPU (exit 0).
"""
# Reduction: the model is one Linear layer, the transformers schedule function is copied (LambdaLR on a
# functools.partial, as in transformers.optimization), and the save/resume pair of train() and save_model() is kept;
# the optimizer.pt load is given map_location here so that only the scheduler load is left.
import functools
import os
import tempfile

import torch
import torch.nn as nn


def _get_linear_schedule_with_warmup_lr_lambda(current_step, *, num_warmup_steps, num_training_steps):
    if current_step < num_warmup_steps:
        return float(current_step) / float(max(1, num_warmup_steps))
    return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    lr_lambda = functools.partial(
        _get_linear_schedule_with_warmup_lr_lambda,
        num_warmup_steps=num_warmup_steps,
        num_training_steps=num_training_steps,
    )
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda, last_epoch)


class T5Model:
    def __init__(self, use_cuda=True):
        if use_cuda and torch.cuda.is_available():
            self.device = torch.device("cuda")
        else:
            self.device = "cpu"
        self.model = nn.Linear(4, 2)

    def train(self, model_name, output_dir):
        model = self.model.to(self.device)
        optimizer = torch.optim.AdamW(model.parameters(), lr=4e-5, eps=1e-8)
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=10)

        if (
            model_name
            and os.path.isfile(os.path.join(model_name, "optimizer.pt"))
            and os.path.isfile(os.path.join(model_name, "scheduler.pt"))
        ):
            # Load in optimizer and scheduler states
            optimizer.load_state_dict(
                torch.load(os.path.join(model_name, "optimizer.pt"), map_location="cpu")
            )
            scheduler.load_state_dict(
                torch.load(os.path.join(model_name, "scheduler.pt"))
            )

        for _ in range(3):
            loss = model(torch.randn(8, 4, device=self.device)).pow(2).mean()
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        self.save_model(output_dir, optimizer, scheduler)
        return scheduler.last_epoch

    def save_model(self, output_dir, optimizer, scheduler):
        os.makedirs(output_dir, exist_ok=True)
        torch.save(optimizer.state_dict(), os.path.join(output_dir, "optimizer.pt"))
        torch.save(scheduler.state_dict(), os.path.join(output_dir, "scheduler.pt"))


if __name__ == "__main__":
    folder = tempfile.mkdtemp()
    print("first run, steps", T5Model().train(None, folder))
    print("resumed, steps", T5Model(use_cuda=False).train(folder, folder))
