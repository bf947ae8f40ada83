"""Small ViT-style patch classifier trained in bfloat16 to save memory: the model parameters are converted with .to(torch.bfloat16) together with the images, and AdamW updates them directly at lr=1e-5; most updates are smaller than half a bfloat16 ulp and round away, so the weights barely move
source: https://github.com/google-research/big_vision/issues/41
reported-error: training with bfloat16 model parameters is noticeably worse; the reply: the first Adam moment can be bfloat16 but the model weights (and second moment) need to stay float32
outcome: ok (silent: after the AdamW steps at line 46 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: X/Y")
root-cause: line 33
expect: DG013
"""
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, patch=4, dim=48):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class TinyViT(nn.Module):
    def __init__(self, dim=48, n_classes=10):
        super().__init__()
        self.embed = PatchEmbed(dim=dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 2 * dim, batch_first=True, dropout=0.0)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(self.block(self.embed(x)).mean(1))


def cast_for_memory(model, images, dtype=torch.bfloat16):
    return model.to(dtype), images.to(dtype)  # root-cause


def main(steps=20, lr=1e-5):
    torch.manual_seed(0)
    model, images = cast_for_memory(TinyViT(), torch.rand(16, 3, 16, 16))
    labels = torch.randint(0, 10, (16,))
    before = [p.detach().clone() for p in model.parameters()]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(images).float(), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    changed = sum(int((p != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(p.numel() for p in model.parameters())
    print(f"loss {loss.item():.4f} weights changed: {changed}/{total}")


if __name__ == "__main__":
    main()
