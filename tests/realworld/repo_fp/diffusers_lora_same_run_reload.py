"""torch.load without map_location of a file that the same run just wrote on the same machine.

source: https://github.com/huggingface/diffusers/blob/58eb52c0803ea9af3abec60841c2a093bdf1f951/examples/research_projects/lora/train_text_to_image_lora.py#L969
false-alarm: DG010 at line 27: the checkpoint is saved a few lines earlier (save_lora) in the same process and
reloaded for final inference in that process, so whatever device its tensors are on exists on this machine;
a CPU-only host would have saved CPU tensors.
"""
import os
import tempfile

import torch
import torch.nn as nn


def save_lora(model: nn.Module, output_dir: str, global_step: int) -> None:
    torch.save(model.state_dict(), os.path.join(output_dir, f"{global_step}_lora.pt"))


def main() -> None:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(4, 4).to(device)
    global_step = 10
    with tempfile.TemporaryDirectory() as output_dir:
        save_lora(model, output_dir, global_step)

        checkpoint = os.path.join(output_dir, f"{global_step}_lora.pt")
        sd = torch.load(checkpoint)
        fresh = nn.Linear(4, 4).to(device)
        fresh.load_state_dict(sd)
        print(fresh(torch.randn(2, 4, device=device)).shape)


if __name__ == "__main__":
    main()
