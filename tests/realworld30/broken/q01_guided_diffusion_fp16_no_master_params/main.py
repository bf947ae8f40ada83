"""Train a tiny diffusion UNet with --use_fp16 (openai/guided-diffusion layout: image_train.py, guided_diffusion/script_util.py, unet.py, fp16_util.py MixedPrecisionTrainer, train_util.py TrainLoop): the trainer's master_params are the float16 model parameters themselves, so AdamW runs in float16, eps=1e-8 rounds to 0 and the zero-initialised output layer's zero gradients give 0/0 = NaN weights after the first step
source: https://github.com/openai/guided-diffusion/blob/aca3097a89fab9c9962b22224d5f48950eb57e29/guided_diffusion/train_util.py
reported-error: (the repository file itself builds AdamW over mp_trainer.master_params, which fp16_util.make_master_params keeps in float32; this variant's MixedPrecisionTrainer reuses the float16 model parameters as master params: no error, the weights turn NaN at the first opt.step())
outcome: silent: every parameter behind the zero-initialised output conv is NaN after the first step (prints "nan params after step 1: 10/12" and loss nan) at guided_diffusion/train_util.py:23
root-cause: guided_diffusion/fp16_util.py:24
expect: DG012
"""
import torch

from guided_diffusion.script_util import create_model_and_diffusion
from guided_diffusion.train_util import TrainLoop


def load_data(batch_size, image_size):
    g = torch.Generator().manual_seed(0)
    while True:
        yield torch.rand(batch_size, 3, image_size, image_size, generator=g) * 2 - 1, {}


def main():
    torch.manual_seed(0)
    model, diffusion = create_model_and_diffusion(image_size=8, num_channels=8, use_fp16=True)
    data = load_data(batch_size=4, image_size=8)
    loop = TrainLoop(model=model, diffusion=diffusion, data=data, batch_size=4, lr=1e-4,
                     use_fp16=True, weight_decay=0.0)
    for step in range(1, 4):
        loss = loop.run_step(*next(data))
        n_nan = sum(int(torch.isnan(p).any()) for p in model.parameters())
        n_all = len(list(model.parameters()))
        print(f"step {step}: loss {loss:.4f} nan params after step {step}: {n_nan}/{n_all}")


if __name__ == "__main__":
    main()
