import torch


def make_master_params(model_params):
    return [torch.nn.Parameter(p.detach().float()) for p in model_params]


def model_grads_to_master_grads(model_params, master_params):
    for mp, p in zip(master_params, model_params):
        mp.grad = p.grad.detach().float() if p.grad is not None else None


def master_params_to_model_params(model_params, master_params):
    for p, mp in zip(model_params, master_params):
        p.detach().copy_(mp.detach())


class MixedPrecisionTrainer:
    def __init__(self, *, model, use_fp16=False):
        self.model = model
        self.use_fp16 = use_fp16
        self.model_params = list(self.model.parameters())
        self.master_params = make_master_params(self.model_params) if use_fp16 else self.model_params

    def zero_grad(self):
        for p in self.model_params:
            p.grad = None

    def backward(self, loss):
        loss.backward()

    def optimize(self, opt):
        if self.use_fp16:
            model_grads_to_master_grads(self.model_params, self.master_params)
        opt.step()
        if self.use_fp16:
            master_params_to_model_params(self.model_params, self.master_params)
